import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * False while the server renders a page and while the browser hydrates that HTML, true afterwards (and
 * at once for a screen the browser renders itself). A prerendered page was rendered without what only
 * the visitor's browser knows — the query string, history state, session storage, the browser's own
 * Intl data — so what depends on those waits for this, or hydration would not match the HTML (React
 * error #418). React re-renders with the browser's value right after hydrating.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
