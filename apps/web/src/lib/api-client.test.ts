import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { api, ApiError, hasReason } from './api-client.ts';
import { cachedAt, clearCachedAt } from './cached-at.ts';

const Item = z.object({ id: z.number() });

function respond(body: string, status = 200) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(body, { status, headers: { 'content-type': 'application/json' } })),
  );
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

afterEach(() => vi.unstubAllGlobals());

describe('api client', () => {
  it('returns the data of the envelope, validated', async () => {
    respond(JSON.stringify({ data: { id: 7 } }));
    await expect(api('/x', Item)).resolves.toEqual({ id: 7 });
    expect(fetch).toHaveBeenCalledWith('/api/v1/x', expect.objectContaining({ method: 'GET' }));
  });

  it('answers undefined for 204 No Content, and refuses it where data was expected', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(null, { status: 204 })),
    );
    await expect(api('/x', z.undefined(), { method: 'DELETE' })).resolves.toBeUndefined();
    await expect(api('/x', Item)).rejects.toThrow();
  });

  it('maps an error envelope to its spec code and message', async () => {
    respond(JSON.stringify({ error: { status: 'ABORTED', message: 'Stale draft', details: { version: 3 } } }), 409);
    const error = await failure(api('/x', Item));
    expect(error.code).toBe('aborted');
    expect(error.message).toBe('Stale draft');
    expect(error.details).toEqual({ version: 3 });
    expect(error.reason).toBeNull();
  });

  it('carries the reason a failure gives, whatever its message says, and ignores a reason it does not know', async () => {
    respond(JSON.stringify({ error: { status: 'ABORTED', message: 'Reworded text', reason: 'ticket_closed' } }), 409);
    expect((await failure(api('/x', Item))).reason).toBe('ticket_closed');
    respond(JSON.stringify({ error: { status: 'ABORTED', message: 'x', reason: 'something_new' } }), 409);
    expect((await failure(api('/x', Item))).reason).toBeNull();
  });

  it('tells a refusal by its reason alone', () => {
    const closed = new ApiError('ABORTED', 'Any wording', 409, undefined, 'cycle_closed');
    expect(hasReason(closed, 'cycle_closed')).toBe(true);
    expect(hasReason(closed, 'already_submitted')).toBe(false);
    expect(
      hasReason(new ApiError('ABORTED', 'Applications for this admission cycle are closed.', 409), 'cycle_closed'),
    ).toBe(false);
    expect(hasReason(new Error('cycle_closed'), 'cycle_closed')).toBe(false);
  });

  it('reads the 422 of a reused Idempotency-Key as invalid-argument, keeping the HTTP status', async () => {
    respond(JSON.stringify({ error: { status: 'INVALID_ARGUMENT', message: 'reused' } }), 422);
    const error = await failure(api('/x', Item));
    expect([error.code, error.httpStatus]).toEqual(['invalid-argument', 422]);
    respond('{}', 422);
    expect((await failure(api('/x', Item))).code).toBe('invalid-argument');
  });

  it('maps an HTTP status without envelope to its code', async () => {
    respond(JSON.stringify({ message: 'nope' }), 429);
    expect((await failure(api('/x', Item))).code).toBe('resource-exhausted');
  });

  it('raises the spec text for a body that is not a JSON object', async () => {
    respond('[1,2]');
    expect((await failure(api('/x', Item))).message).toBe('Response is not valid JSON object.');
  });

  it('raises the spec text for a body without data', async () => {
    respond(JSON.stringify({ result: 1 }));
    expect((await failure(api('/x', Item))).message).toBe('Response is missing data field.');
  });

  it('answers deadline-exceeded when the call times out', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_url: string, init: RequestInit) =>
          new Promise((_, reject) => init.signal?.addEventListener('abort', () => reject(init.signal?.reason))),
      ),
    );
    expect((await failure(api('/x', Item, { timeoutMs: 10 }))).code).toBe('deadline-exceeded');
  });

  it('answers unavailable when the network fails', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    expect((await failure(api('/x', Item))).code).toBe('unavailable');
  });

  it('sends JSON bodies', async () => {
    respond(JSON.stringify({ data: { id: 1 } }));
    await api('/x', Item, { method: 'POST', body: { a: 1 } });
    expect(fetch).toHaveBeenCalledWith('/api/v1/x', expect.objectContaining({ method: 'POST', body: '{"a":1}' }));
  });
});

describe('answers served from the offline copy', () => {
  afterEach(() => clearCachedAt());

  const answer = (stamp?: string) =>
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(JSON.stringify({ data: { id: 1 } }), {
            headers: { 'content-type': 'application/json', ...(stamp ? { 'x-kaminuza-cached-at': stamp } : {}) },
          }),
      ),
    );

  it('records when a stored answer was fetched, and forgets it when a fresh one arrives', async () => {
    answer('2026-11-27T08:15:00.000Z');
    await api('/applications', Item);
    expect(cachedAt('/applications')).toBe('2026-11-27T08:15:00.000Z');
    expect(cachedAt('/decisions')).toBeNull();

    answer();
    await api('/applications', Item);
    expect(cachedAt('/applications')).toBeNull();
  });

  it('ignores a stamp that is not a time, and stamps on writes', async () => {
    answer('yesterday-ish');
    await api('/applications', Item);
    expect(cachedAt('/applications')).toBeNull();
    answer('2026-11-27T08:15:00.000Z');
    await api('/applications', Item, { method: 'POST', body: {} });
    expect(cachedAt('/applications')).toBeNull();
  });
});
