import { useSyncExternalStore } from 'react';

/*
 * Which api answers the screens show came from the device's cache rather than the server, and when the
 * server gave them (the service worker stamps what it stores). A fresh answer for the same path clears
 * the stamp. Kept beside the query data so the schemas the screens parse stay those of the api.
 */
const stamps = new Map<string, string>();
const listeners = new Set<() => void>();

/** Records how the answer for `path` (as passed to api(), e.g. `/applications`) arrived. */
export function recordCachedAt(path: string, cachedAt: string | null): void {
  const valid = cachedAt !== null && !Number.isNaN(Date.parse(cachedAt)) ? cachedAt : null;
  if ((stamps.get(path) ?? null) === valid) return;
  if (valid === null) stamps.delete(path);
  else stamps.set(path, valid);
  for (const listener of listeners) listener();
}

export function cachedAt(path: string): string | null {
  return stamps.get(path) ?? null;
}

/** Forgets every stamp: nothing shown after a sign-out may claim to be someone's saved copy. */
export function clearCachedAt(): void {
  stamps.clear();
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** When the answer for `path` on screen was fetched, if it came from the cache; null when it is fresh. */
export function useCachedAt(path: string | null): string | null {
  return useSyncExternalStore(
    subscribe,
    () => (path === null ? null : cachedAt(path)),
    () => null,
  );
}
