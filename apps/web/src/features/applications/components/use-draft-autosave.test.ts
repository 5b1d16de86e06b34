import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { APPLICATION_MESSAGES, type DraftSaved, type SaveDraft } from '@kaminuza/shared';
import { ApiError } from '../../../lib/api-client.ts';
import { localDraftKey, readLocalDraft, useDraftAutosave, type DraftAutosaveOptions } from './use-draft-autosave.ts';

const ID = '00000000-0000-4000-8000-000000000001';

/** A server that answers each save when the test says so. */
function fakeServer() {
  const calls: SaveDraft[] = [];
  const pending: Array<{ resolve: (saved: DraftSaved) => void; reject: (error: unknown) => void }> = [];
  const save = vi.fn(
    (input: SaveDraft) =>
      new Promise<DraftSaved>((resolve, reject) => {
        calls.push(input);
        pending.push({ resolve, reject });
      }),
  );
  return {
    calls,
    save,
    async answer(version: number) {
      await act(async () => {
        pending.shift()?.resolve({ version, last_saved_at: '2026-11-22T10:15:00.000Z', progress_percentage: 50 });
      });
    },
    async fail(error: unknown) {
      await act(async () => {
        pending.shift()?.reject(error);
      });
    },
  };
}

let online = true;
function setup(server: ReturnType<typeof fakeServer>, overrides: Partial<DraftAutosaveOptions> = {}) {
  return renderHook(() =>
    useDraftAutosave({
      id: ID,
      version: 3,
      answers: { full_name: 'Aline' },
      position: { current_step: 0, current_section_index: 0 },
      save: server.save,
      storage: localStorage,
      isOnline: () => online,
      ...overrides,
    }),
  );
}

const advance = (ms: number) => act(async () => void vi.advanceTimersByTime(ms));

beforeEach(() => {
  vi.useFakeTimers();
  localStorage.clear();
  online = true;
});
afterEach(() => vi.useRealTimers());

describe('draft autosave', () => {
  it('keeps each change on the device at once and saves after a pause in typing', async () => {
    const server = fakeServer();
    const { result } = setup(server);
    act(() => result.current.setAnswer('why', 'B'));
    act(() => result.current.setAnswer('why', 'Be'));
    expect(readLocalDraft(ID, localStorage)).toEqual({
      answers: { full_name: 'Aline', why: 'Be' },
      version: 3,
      dirty: true,
    });
    await advance(700);
    expect(server.save).not.toHaveBeenCalled();
    await advance(200);
    expect(server.calls).toEqual([
      { version: 3, answers: { full_name: 'Aline', why: 'Be' }, current_step: 0, current_section_index: 0 },
    ]);
    expect(result.current.status).toBe('saving');
    await server.answer(4);
    expect(result.current.status).toBe('saved');
    expect(result.current.version).toBe(4);
    expect(result.current.savedAt).toBe('2026-11-22T10:15:00.000Z');
    expect(localStorage.getItem(localDraftKey(ID))).toBeNull();
  });

  it('sends one request at a time; changes made meanwhile go in the next, on the new version', async () => {
    const server = fakeServer();
    const { result } = setup(server);
    act(() => result.current.setAnswer('why', 'one'));
    await advance(800);
    act(() => result.current.setAnswer('why', 'one two'));
    await advance(800);
    expect(server.save).toHaveBeenCalledTimes(1);
    await server.answer(4);
    expect(server.save).toHaveBeenCalledTimes(2);
    expect(server.calls[1]).toMatchObject({ version: 4, answers: { why: 'one two' } });
    expect(readLocalDraft(ID, localStorage)?.dirty).toBe(true);
    await server.answer(5);
    expect(result.current.status).toBe('saved');
    expect(localStorage.getItem(localDraftKey(ID))).toBeNull();
  });

  it('keeps changes while offline and sends them when the connection returns', async () => {
    const server = fakeServer();
    const { result } = setup(server);
    online = false;
    act(() => result.current.setAnswer('why', 'typed offline'));
    expect(result.current.status).toBe('offline');
    await advance(800);
    expect(server.save).not.toHaveBeenCalled();
    expect(readLocalDraft(ID, localStorage)).toMatchObject({ dirty: true, answers: { why: 'typed offline' } });

    online = true;
    await act(async () => void window.dispatchEvent(new Event('online')));
    expect(server.calls[0]).toMatchObject({ answers: { why: 'typed offline' } });
    await server.answer(4);
    expect(result.current.status).toBe('saved');
  });

  it('reads a lost connection as offline and tries again', async () => {
    const server = fakeServer();
    const { result } = setup(server);
    act(() => result.current.setAnswer('why', 'x'));
    await advance(800);
    await server.fail(new ApiError('UNAVAILABLE', 'Failed to fetch', 503));
    expect(result.current.status).toBe('offline');
    await advance(5000);
    expect(server.save).toHaveBeenCalledTimes(2);
    await server.answer(4);
    expect(result.current.status).toBe('saved');
  });

  it('never overwrites a newer version: a stale save opens a conflict until the student chooses', async () => {
    const server = fakeServer();
    const { result } = setup(server);
    act(() => result.current.setAnswer('why', 'mine'));
    await advance(800);
    await server.fail(
      new ApiError(
        'ABORTED',
        APPLICATION_MESSAGES.stale_draft,
        409,
        { version: 7, last_saved_at: null },
        'stale_draft',
      ),
    );
    expect(result.current.status).toBe('conflict');
    expect(result.current.conflict).toEqual({ version: 7, last_saved_at: null });

    act(() => result.current.setAnswer('why', 'mine, more'));
    await advance(2000);
    expect(server.save).toHaveBeenCalledTimes(1);

    let kept: Promise<boolean> = Promise.resolve(false);
    act(() => void (kept = result.current.keepMine()));
    expect(server.calls[1]).toMatchObject({ version: 7, answers: { why: 'mine, more' } });
    await server.answer(8);
    await expect(kept).resolves.toBe(true);
    expect(result.current.conflict).toBeNull();
  });

  it('restores a dirty device copy made on the same version and saves it', async () => {
    localStorage.setItem(localDraftKey(ID), JSON.stringify({ answers: { why: 'unsent' }, version: 3, dirty: true }));
    const server = fakeServer();
    const { result } = setup(server);
    expect(result.current.answers).toEqual({ why: 'unsent' });
    await act(async () => {});
    expect(server.calls[0]).toMatchObject({ version: 3, answers: { why: 'unsent' } });
  });

  it('asks when the device copy was made on a version the server has moved past', async () => {
    localStorage.setItem(localDraftKey(ID), JSON.stringify({ answers: { why: 'old' }, version: 2, dirty: true }));
    const server = fakeServer();
    const { result } = setup(server);
    expect(result.current.status).toBe('conflict');
    expect(result.current.conflict?.version).toBe(3);
    act(() => result.current.discardLocal());
    expect(localStorage.getItem(localDraftKey(ID))).toBeNull();
    expect(server.save).not.toHaveBeenCalled();
  });

  it('saves at once on leaving a section, with the new position', async () => {
    const server = fakeServer();
    const { result } = setup(server);
    act(() => result.current.setAnswer('why', 'done'));
    let moved: Promise<boolean> = Promise.resolve(false);
    act(() => void (moved = result.current.moveTo({ current_step: 0, current_section_index: 1 })));
    expect(server.calls[0]).toMatchObject({ current_section_index: 1, answers: { why: 'done' } });
    await server.answer(4);
    await expect(moved).resolves.toBe(true);
  });

  it('stops saving when the cycle has closed', async () => {
    const server = fakeServer();
    const { result } = setup(server);
    act(() => result.current.setAnswer('why', 'late'));
    await advance(800);
    await server.fail(new ApiError('ABORTED', APPLICATION_MESSAGES.cycle_closed, 409, undefined, 'cycle_closed'));
    expect(result.current.status).toBe('closed');
    act(() => result.current.setAnswer('why', 'later'));
    await advance(800);
    expect(server.save).toHaveBeenCalledTimes(1);
  });

  it('decides by the refusal’s reason, not its text: the closed cycle’s message without its reason does not stop saving', async () => {
    const server = fakeServer();
    const { result } = setup(server);
    act(() => result.current.setAnswer('why', 'late'));
    await advance(800);
    await server.fail(new ApiError('ABORTED', APPLICATION_MESSAGES.cycle_closed, 409));
    expect(result.current.status).not.toBe('closed');
    expect(server.save).toHaveBeenCalledTimes(2);
  });
});
