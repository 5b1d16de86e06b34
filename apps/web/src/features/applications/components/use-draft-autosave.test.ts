import 'fake-indexeddb/auto';
import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { APPLICATION_MESSAGES, type DraftSaved, type SaveDraft } from '@kaminuza/shared';
import { ApiError } from '../../../lib/api-client.ts';
import { closeDeviceDb, deviceDb, DEVICE_DB_NAME, type DeviceDraft } from '../../../lib/device-db.ts';
import { legacyDraftKey, loadDeviceDraft } from './device-drafts.ts';
import { useDraftAutosave, type DraftAutosaveOptions } from './use-draft-autosave.ts';

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
      device: null,
      save: server.save,
      isOnline: () => online,
      ...overrides,
    }),
  );
}

const advance = (ms: number) => act(async () => void vi.advanceTimersByTime(ms));

/** The device's copy as IndexedDB holds it once the writes so far have landed. */
async function kept(): Promise<DeviceDraft | undefined> {
  let copy: DeviceDraft | undefined;
  await act(async () => {
    copy = await (await deviceDb()).get('drafts', ID);
  });
  return copy;
}

function deviceCopy(fields: Partial<DeviceDraft>): DeviceDraft {
  return {
    id: ID,
    answers: {},
    version: 3,
    dirty: true,
    position: null,
    updated_at: '2026-11-22T10:00:00.000Z',
    ...fields,
  };
}

beforeEach(async () => {
  // IndexedDB (fake-indexeddb) runs on setImmediate: only the autosave's own timers are faked.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  localStorage.clear();
  closeDeviceDb();
  await new Promise<void>((resolve, reject) => {
    const request = indexedDB.deleteDatabase(DEVICE_DB_NAME);
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error as Error);
  });
  online = true;
});
afterEach(() => vi.useRealTimers());

describe('draft autosave', () => {
  it('keeps each change on the device at once and saves after a pause in typing', async () => {
    const server = fakeServer();
    const { result } = setup(server);
    act(() => result.current.setAnswer('why', 'B'));
    act(() => result.current.setAnswer('why', 'Be'));
    // On the device before the pause in typing: a tab closed now keeps it.
    expect(await kept()).toMatchObject({
      id: ID,
      answers: { full_name: 'Aline', why: 'Be' },
      version: 3,
      dirty: true,
      position: { current_step: 0, current_section_index: 0 },
    });
    expect(server.save).not.toHaveBeenCalled();
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
    // Kept as saved, on the saved version: nothing left to send.
    expect(await kept()).toMatchObject({ answers: { full_name: 'Aline', why: 'Be' }, version: 4, dirty: false });
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
    expect((await kept())?.dirty).toBe(true);
    await server.answer(5);
    expect(result.current.status).toBe('saved');
    expect(await kept()).toMatchObject({ answers: { why: 'one two' }, version: 5, dirty: false });
  });

  it('opens on the device’s saved copy when the draft loaded is an older one (the worker’s, offline)', async () => {
    const server = fakeServer();
    const device = {
      id: ID,
      answers: { full_name: 'Aline', why: 'saved later' },
      version: 7,
      dirty: false,
      position: { current_step: 1, current_section_index: 2 },
      updated_at: '2026-11-22T10:20:00.000Z',
    };
    const { result } = setup(server, { device });
    expect(result.current.answers).toEqual({ full_name: 'Aline', why: 'saved later' });
    expect(result.current.version).toBe(7);
    expect(result.current.resumeAt).toEqual({ current_step: 1, current_section_index: 2 });
    expect(result.current.status).toBe('idle');
    // Nothing to send: the server has it.
    await advance(1000);
    expect(server.save).not.toHaveBeenCalled();
  });

  it('ignores a saved copy the draft loaded is as new as', () => {
    const device = {
      id: ID,
      answers: { why: 'older' },
      version: 3,
      dirty: false,
      position: null,
      updated_at: '2026-11-22T10:20:00.000Z',
    };
    const { result } = setup(fakeServer(), { device });
    expect(result.current.answers).toEqual({ full_name: 'Aline' });
  });

  it('keeps changes while offline and sends them when the connection returns', async () => {
    const server = fakeServer();
    const { result } = setup(server);
    online = false;
    act(() => result.current.setAnswer('why', 'typed offline'));
    expect(result.current.status).toBe('offline');
    await advance(800);
    expect(server.save).not.toHaveBeenCalled();
    expect(await kept()).toMatchObject({ dirty: true, answers: { why: 'typed offline' } });
    expect(result.current.keptOnDevice).toBe(true);

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

    // The student's choice (here: the saved answer to one question, theirs to another) goes on version 7.
    let resolved: Promise<boolean> = Promise.resolve(false);
    act(() => void (resolved = result.current.resolve({ full_name: 'Aline M.', why: 'mine, more' }, 7)));
    expect(server.calls[1]).toMatchObject({ version: 7, answers: { full_name: 'Aline M.', why: 'mine, more' } });
    expect(result.current.answers).toEqual({ full_name: 'Aline M.', why: 'mine, more' });
    await server.answer(8);
    await expect(resolved).resolves.toBe(true);
    expect(result.current.conflict).toBeNull();
    expect(result.current.version).toBe(8);
  });

  it('restores a dirty device copy made on the same version, where the student was, and saves it', async () => {
    const server = fakeServer();
    const { result } = setup(server, {
      device: deviceCopy({ answers: { why: 'unsent' }, position: { current_step: 0, current_section_index: 2 } }),
    });
    expect(result.current.answers).toEqual({ why: 'unsent' });
    expect(result.current.resumeAt).toEqual({ current_step: 0, current_section_index: 2 });
    await act(async () => {});
    expect(server.calls[0]).toMatchObject({ version: 3, answers: { why: 'unsent' }, current_section_index: 2 });
  });

  it('resumes where the server says when the device copy holds nothing unsent', () => {
    const server = fakeServer();
    const { result } = setup(server, {
      device: deviceCopy({
        answers: { why: 'old' },
        dirty: false,
        position: { current_step: 0, current_section_index: 2 },
      }),
    });
    expect(result.current.answers).toEqual({ full_name: 'Aline' });
    expect(result.current.resumeAt).toEqual({ current_step: 0, current_section_index: 0 });
  });

  it('asks when the device copy was made on a version the server has moved past', async () => {
    await act(
      async () => void (await (await deviceDb()).put('drafts', deviceCopy({ answers: { why: 'old' }, version: 2 }))),
    );
    const server = fakeServer();
    const { result } = setup(server, { device: deviceCopy({ answers: { why: 'old' }, version: 2 }) });
    expect(result.current.status).toBe('conflict');
    expect(result.current.conflict?.version).toBe(3);
    expect(result.current.answers).toEqual({ why: 'old' });
    act(() => result.current.discardLocal());
    expect(await kept()).toBeUndefined();
    expect(server.save).not.toHaveBeenCalled();
  });

  it('saves at once on leaving a section, with the new position', async () => {
    const server = fakeServer();
    const { result } = setup(server);
    act(() => result.current.setAnswer('why', 'done'));
    let moved: Promise<boolean> = Promise.resolve(false);
    act(() => void (moved = result.current.moveTo({ current_step: 0, current_section_index: 1 })));
    expect(server.calls[0]).toMatchObject({ current_section_index: 1, answers: { why: 'done' } });
    expect((await kept())?.position).toEqual({ current_step: 0, current_section_index: 1 });
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

describe('the device copy', () => {
  it('keeps the section the student moved to while offline, for a reload', async () => {
    const server = fakeServer();
    online = false;
    const { result } = setup(server);
    act(() => result.current.setAnswer('why', 'offline'));
    act(() => void result.current.moveTo({ current_step: 0, current_section_index: 1 }));
    expect(server.save).not.toHaveBeenCalled();
    expect(await kept()).toMatchObject({
      dirty: true,
      answers: { why: 'offline' },
      position: { current_step: 0, current_section_index: 1 },
    });
    expect(await act(() => loadDeviceDraft(ID))).toMatchObject({ position: { current_section_index: 1 } });
  });

  it('moves a copy left in localStorage by an older version into IndexedDB, then removes it', async () => {
    localStorage.setItem(
      legacyDraftKey(ID),
      JSON.stringify({ answers: { why: 'from before' }, version: 3, dirty: true }),
    );
    const copy = await loadDeviceDraft(ID);
    expect(copy).toMatchObject({ id: ID, answers: { why: 'from before' }, version: 3, dirty: true, position: null });
    expect(localStorage.getItem(legacyDraftKey(ID))).toBeNull();
    expect(await kept()).toMatchObject({ answers: { why: 'from before' } });
    // Read again: the same copy, now from IndexedDB.
    expect(await loadDeviceDraft(ID)).toMatchObject({ answers: { why: 'from before' } });
  });

  it('reads no copy from an unreadable localStorage entry', async () => {
    localStorage.setItem(legacyDraftKey(ID), '{not json');
    await expect(loadDeviceDraft(ID)).resolves.toBeNull();
  });

  it('says when the device could not keep a change', async () => {
    const server = fakeServer();
    const { result } = setup(server);
    const put = vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(() => {
      throw new DOMException('Quota exceeded', 'QuotaExceededError');
    });
    online = false;
    act(() => result.current.setAnswer('why', 'too much'));
    await kept();
    put.mockRestore();
    expect(result.current.keptOnDevice).toBe(false);
    expect(result.current.status).toBe('offline');
  });
});
