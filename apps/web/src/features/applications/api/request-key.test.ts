import { describe, expect, it } from 'vitest';
import { APPLICATION_MESSAGES } from '@kaminuza/shared';
import { ApiError } from '../../../lib/api-client.ts';
import { outcomeUnknown } from '../../../lib/idempotency.ts';
import { answered, requestKey } from './request-key.ts';

const inProgress = () =>
  new ApiError(
    'ABORTED',
    APPLICATION_MESSAGES.idempotency_key_in_progress,
    409,
    undefined,
    'idempotency_key_in_progress',
  );
const reused = () => new ApiError('INVALID_ARGUMENT', APPLICATION_MESSAGES.idempotency_key_reused, 422);

function memoryStorage(): Storage {
  const store = new Map<string, string>();
  return {
    getItem: (key: string) => store.get(key) ?? null,
    setItem: (key: string, value: string) => void store.set(key, value),
    removeItem: (key: string) => void store.delete(key),
  } as Storage;
}

describe('request keys of a submit or a checkout', () => {
  it('keeps the key while the outcome is unknown (lost answer, time-out, still processed) and drops it after any answer', () => {
    const storage = memoryStorage();
    const key = requestKey('submit.x', { storage });
    for (const error of [
      inProgress(),
      new ApiError('UNAVAILABLE', 'Failed to fetch', 503),
      new ApiError('DEADLINE_EXCEEDED', 'deadline-exceeded', 504),
    ]) {
      expect(outcomeUnknown(error)).toBe(true);
      answered('submit.x', error, storage);
      expect(requestKey('submit.x', { storage })).toBe(key);
    }
    answered('submit.x', reused(), storage);
    const next = requestKey('submit.x', { storage });
    expect(next).not.toBe(key);
    answered('submit.x', undefined, storage);
    expect(requestKey('submit.x', { storage })).not.toBe(next);
  });

  it('reuses a kept key only for the same payload', () => {
    const storage = memoryStorage();
    const first = requestKey('submit.y', { payload: '{"answers":{"a":1}}', storage });
    answered('submit.y', new ApiError('UNAVAILABLE', 'Failed to fetch', 503), storage);
    expect(requestKey('submit.y', { payload: '{"answers":{"a":1}}', storage })).toBe(first);
    const edited = requestKey('submit.y', { payload: '{"answers":{"a":2}}', storage });
    expect(edited).not.toBe(first);
    expect(requestKey('submit.y', { payload: '{"answers":{"a":2}}', storage })).toBe(edited);
  });
});
