import { outcomeUnknown } from '../../../lib/idempotency.ts';

/*
 * Idempotency keys of the requests that must happen once (a payment checkout, a submit). A key is made
 * on the first attempt and kept in the tab's session until the server has answered, so a retry after a
 * time-out or a reload sends the same key and gets the first answer back.
 */
const storageKey = (scope: string) => `kaminuza.request.${scope}`;

/** FNV-1a: a short digest of what a request sends, to tell one body from another. */
function digest(payload: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < payload.length; i += 1) {
    hash ^= payload.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16);
}

/**
 * The key for the request in `scope`. A kept key is reused only for the same payload: the server answers
 * a key sent with another body 422, so a request changed since (answers edited after a lost answer) gets a
 * key of its own and the server's real answer (the submission, or "already submitted").
 */
export function requestKey(
  scope: string,
  { payload = '', storage = sessionStorage }: { payload?: string; storage?: Storage } = {},
): string {
  const wanted = digest(payload);
  const [kept, keptFor] = (storage.getItem(storageKey(scope)) ?? '').split(' ');
  if (kept && keptFor === wanted) return kept;
  const key = crypto.randomUUID();
  storage.setItem(storageKey(scope), `${key} ${wanted}`);
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
