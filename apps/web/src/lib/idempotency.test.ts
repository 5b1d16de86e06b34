import { describe, expect, it, vi } from 'vitest';
import { APPLICATION_MESSAGES, IDEMPOTENCY_RETRY_AFTER_SECONDS } from '@kaminuza/shared';
import { ApiError } from './api-client.ts';
import { errorMessageKey } from './error-messages.ts';
import { IN_PROGRESS_RETRIES, sendIdempotent } from './idempotency.ts';

const inProgress = () =>
  new ApiError(
    'ABORTED',
    APPLICATION_MESSAGES.idempotency_key_in_progress,
    409,
    undefined,
    'idempotency_key_in_progress',
  );
const reused = () => new ApiError('INVALID_ARGUMENT', APPLICATION_MESSAGES.idempotency_key_reused, 422);

describe('sending a request that must happen once', () => {
  it('waits the Retry-After and sends again while the first request with the key is still processed', async () => {
    const send = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(inProgress())
      .mockRejectedValueOnce(inProgress())
      .mockResolvedValueOnce('receipt');
    const wait = vi.fn(async () => {});
    await expect(sendIdempotent(send, wait)).resolves.toBe('receipt');
    expect(send).toHaveBeenCalledTimes(3);
    expect(wait.mock.calls).toEqual([
      [IDEMPOTENCY_RETRY_AFTER_SECONDS * 1000],
      [IDEMPOTENCY_RETRY_AFTER_SECONDS * 1000],
    ]);
  });

  it('gives up after a few waits, and never repeats any other refusal', async () => {
    const busy = vi.fn(() => Promise.reject(inProgress()));
    await expect(sendIdempotent(busy, async () => {})).rejects.toMatchObject({ status: 'ABORTED' });
    expect(busy).toHaveBeenCalledTimes(IN_PROGRESS_RETRIES + 1);

    for (const error of [reused(), new ApiError('ABORTED', APPLICATION_MESSAGES.already_submitted, 409)]) {
      const send = vi.fn(() => Promise.reject(error));
      await expect(sendIdempotent(send, async () => {})).rejects.toBe(error);
      expect(send).toHaveBeenCalledTimes(1);
    }
  });

  it('shows the generic error for a key reused with another request (422), the server’s text for one still processed', () => {
    expect(errorMessageKey(reused())).toBe('errors.generic');
    expect(errorMessageKey(reused(), { fallback: 'applications.errors.submit_failed' })).toBe(
      'applications.errors.submit_failed',
    );
    expect(errorMessageKey(inProgress())).toBe('applications.errors.idempotency_key_in_progress');
  });
});
