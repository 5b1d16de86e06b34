import { expect, it } from 'vitest';
import { PartnerSignUpSchema } from './partner-sign-up.ts';

it('refuses a sign-up that is not an object instead of throwing', () => {
  for (const input of [null, [], 'institution', 42, true]) {
    const result = PartnerSignUpSchema.safeParse(input);
    expect(result.success, JSON.stringify(input)).toBe(false);
  }
});

it('still lists every missing field of an object at once', () => {
  const result = PartnerSignUpSchema.safeParse({});
  expect(result.success).toBe(false);
  const paths = new Set(result.error!.issues.map((issue) => issue.path.join('.')));
  for (const field of ['email', 'institution_name', 'city', 'country']) expect(paths.has(field), field).toBe(true);
});
