import 'fake-indexeddb/auto';
import { act, cleanup, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cachedAt, recordCachedAt } from './cached-at.ts';
import { deviceDb, type DeviceDraft } from './device-db.ts';
import { INSTALL_DISMISSED_KEY } from './install-prompt.ts';
import { READS_CACHE } from './offline-reads.ts';
import { SessionProvider, startSession, useSession } from './session.tsx';

const envelope = (data: unknown) =>
  new Response(JSON.stringify({ data }), { headers: { 'content-type': 'application/json' } });

/** Cache Storage as the page sees it, with the offline reads of the person signed in. */
let stored: Set<string>;

beforeEach(() => {
  stored = new Set([READS_CACHE, 'workbox-precache-v2']);
  vi.stubGlobal('caches', { delete: vi.fn(async (name: string) => stored.delete(name)) });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => envelope(url.endsWith('/auth/session') ? null : { ok: true })),
  );
  recordCachedAt('/applications', '2026-11-27T08:15:00.000Z');
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

function wrapper(client: QueryClient) {
  return ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>
      <SessionProvider>{children}</SessionProvider>
    </QueryClientProvider>
  );
}

describe('offline reads and the session', () => {
  it('are emptied at sign-out, keeping the app shell and the device preferences', async () => {
    localStorage.setItem(INSTALL_DISMISSED_KEY, '1764230400000');
    localStorage.setItem('someone.else', 'x');
    const client = new QueryClient();
    const { result } = renderHook(() => useSession(), { wrapper: wrapper(client) });
    await act(() => result.current.signOut());
    expect(stored).toEqual(new Set(['workbox-precache-v2']));
    expect(cachedAt('/applications')).toBeNull();
    expect(localStorage.getItem(INSTALL_DISMISSED_KEY)).toBe('1764230400000');
    expect(localStorage.getItem('someone.else')).toBeNull();
  });

  it('take the drafts as saved with them at sign-out, and leave what was never sent', async () => {
    const copy = (id: string, dirty: boolean): DeviceDraft => ({
      id,
      answers: { why: id },
      version: 2,
      dirty,
      position: null,
      updated_at: '2026-11-27T08:15:00.000Z',
    });
    const db = await deviceDb();
    await db.put('drafts', copy('saved', false));
    await db.put('drafts', copy('unsent', true));
    const client = new QueryClient();
    const { result } = renderHook(() => useSession(), { wrapper: wrapper(client) });
    await act(() => result.current.signOut());
    expect(await db.getAllKeys('drafts')).toEqual(['unsent']);
  });

  it('are emptied when a session starts, whoever was signed in before', async () => {
    const client = new QueryClient();
    await startSession(client, { id: 'u1' } as Parameters<typeof startSession>[1]);
    expect(stored.has(READS_CACHE)).toBe(false);
    expect(cachedAt('/applications')).toBeNull();
  });
});
