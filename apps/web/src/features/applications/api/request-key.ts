import { outcomeUnknown } from '../../../lib/idempotency.ts';

/*
 * Idempotency keys of the requests that must happen once (a payment checkout, a submit). A key is made
 * on the first attempt and kept in the tab's session until the server has answered, so a retry after a
 * time-out or a reload sends the same key and gets the first answer back.
 */
const storageKey = (scope: string) => `kaminuza.request.${scope}`;

export function requestKey(scope: string, storage: Storage = sessionStorage): string {
  const kept = storage.getItem(storageKey(scope));
  if (kept) return kept;
  const key = crypto.randomUUID();
  storage.setItem(storageKey(scope), key);
  return key;
}

/**
 * Forgets the key once an answer arrived; a lost connection, a time-out or a first request still being
 * processed keeps it for the retry.
 */
export function answered(scope: string, error?: unknown, storage: Storage = sessionStorage): void {
  if (error !== undefined && outcomeUnknown(error)) return;
  storage.removeItem(storageKey(scope));
}
