import { describe, expect, it } from 'vitest';
import { GENERIC_MESSAGES, PARTNER_MESSAGES } from '@kaminuza/shared';
import { ApiError } from './api-client.ts';
import { createQueryClient } from './query-client.ts';
import { sessionQuery } from './session.tsx';

const user = { id: 'u1', type: 'staff' };

async function failWith(error: ApiError, signedIn = true) {
  const client = createQueryClient();
  if (signedIn) client.setQueryData(sessionQuery().queryKey, user as never);
  await client
    .fetchQuery({ queryKey: ['partner', 'p1', 'team', 'members'], queryFn: () => Promise.reject(error), retry: false })
    .catch(() => undefined);
  return client.getQueryState(sessionQuery().queryKey)?.isInvalidated ?? false;
}

describe('the cached session after a refused call', () => {
  it('is read again when the session ended (revoked when the member was deactivated)', async () => {
    expect(await failWith(new ApiError('UNAUTHENTICATED', GENERIC_MESSAGES.not_authorized, 401))).toBe(true);
  });

  it('is kept for other refusals, and when nobody was signed in', async () => {
    expect(await failWith(new ApiError('PERMISSION_DENIED', GENERIC_MESSAGES.not_authorized, 403))).toBe(false);
    expect(await failWith(new ApiError('PERMISSION_DENIED', PARTNER_MESSAGES.membership_inactive, 403))).toBe(false);
    expect(await failWith(new ApiError('NOT_FOUND', GENERIC_MESSAGES.not_found, 404))).toBe(false);
    expect(await failWith(new ApiError('UNAUTHENTICATED', GENERIC_MESSAGES.not_authorized, 401), false)).toBe(false);
  });
});
