import { describe, expect, it } from 'vitest';
import { PasswordSchema } from '@kaminuza/shared';
import { isCommonPassword } from './common-passwords.ts';
import { TEST_PASSWORD } from '../../test/auth.ts';
import { DEMO_PASSWORD } from '../../seed/accounts.ts';

describe('isCommonPassword', () => {
  // Each meets the spec's character rules, which is why the list is needed at all.
  it.each([
    'Password1!',
    'P@ssw0rd!',
    'Qwerty123!',
    'Iloveyou#1',
    'Dragon#2024',
    'Welcome@123',
    '#Monkey12!',
    'Sunrise#2026',
  ])('refuses %s, a listed word dressed up to pass the character rules', (password) => {
    expect(PasswordSchema.safeParse(password).success).toBe(true);
    expect(isCommonPassword(password)).toBe(true);
  });

  it('refuses a listed password typed as is, whatever its case', () => {
    expect(isCommonPassword('PASSWORD123')).toBe(true);
  });

  it.each(['Str0ng#Password', 'N3w#Password!', 'Nouveau#Mot2passe', 'Umuseke#Kigali26', 'Correct-Horse-Battery-9'])(
    'accepts %s',
    (password) => {
      expect(isCommonPassword(password)).toBe(false);
    },
  );

  it("accepts the tests' and the demo accounts' passwords", () => {
    expect(isCommonPassword(TEST_PASSWORD)).toBe(false);
    expect(isCommonPassword(DEMO_PASSWORD)).toBe(false);
  });
});
