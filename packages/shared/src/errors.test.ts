import { describe, expect, it } from 'vitest';
import { ERROR_STATUS, IDEMPOTENCY_MISMATCH_HTTP, errorCode, httpFromStatus, statusFromHttp } from './errors.ts';

describe('error codes', () => {
  it('maps every HTTP status of the spec to its code and back', () => {
    const spec: Array<[number, string]> = [
      [400, 'invalid-argument'],
      [401, 'unauthenticated'],
      [403, 'permission-denied'],
      [404, 'not-found'],
      [409, 'aborted'],
      [429, 'resource-exhausted'],
      [499, 'cancelled'],
      [500, 'internal'],
      [501, 'unimplemented'],
      [503, 'unavailable'],
      [504, 'deadline-exceeded'],
    ];
    for (const [http, code] of spec) {
      const status = statusFromHttp(http);
      expect(errorCode(status)).toBe(code);
      expect(httpFromStatus(status)).toBe(http);
    }
    expect(Object.keys(ERROR_STATUS)).toHaveLength(spec.length);
  });

  it('treats unknown statuses by class', () => {
    expect(statusFromHttp(418)).toBe('INVALID_ARGUMENT');
    expect(statusFromHttp(502)).toBe('INTERNAL');
  });

  it('reads the 422 of a reused Idempotency-Key as invalid-argument, outside the code mapping', () => {
    expect(IDEMPOTENCY_MISMATCH_HTTP).toBe(422);
    expect(statusFromHttp(IDEMPOTENCY_MISMATCH_HTTP)).toBe('INVALID_ARGUMENT');
    expect(Object.values(ERROR_STATUS)).not.toContain(IDEMPOTENCY_MISMATCH_HTTP);
  });
});
