import { IDEMPOTENCY_RETRY_AFTER_SECONDS } from '@kaminuza/shared';
import { ApiError } from './api-client.ts';

/*
 * The client side of the Idempotency-Key (IETF draft, see the api's lib/idempotency.ts): a request that
 * must happen once carries a key; the same key is sent again only while the first attempt's outcome
 * is unknown, so a retry gets the first answer instead of a second effect.
 */

/** 409: the server is still processing the first request with this key; its answer is not known yet. */
export function keyInProgress(error: unknown): boolean {
  return error instanceof ApiError && error.reason === 'idempotency_key_in_progress';
}

/** Whether the request may have taken effect without its answer reaching us: the retry needs the same key. */
export function outcomeUnknown(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  return error.status === 'UNAVAILABLE' || error.status === 'DEADLINE_EXCEEDED' || keyInProgress(error);
}

/** How many times a request still being processed is waited for before the person is told so. */
export const IN_PROGRESS_RETRIES = 5;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Sends the request, and while the server answers that the key's first request is still running, waits
 * the Retry-After the server gives such answers and sends it again with the same key, so a double
 * click or a quick retry ends with the first request's own answer.
 */
export async function sendIdempotent<T>(
  send: () => Promise<T>,
  wait: (ms: number) => Promise<void> = pause,
): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await send();
    } catch (error) {
      if (!keyInProgress(error) || attempt >= IN_PROGRESS_RETRIES) throw error;
      await wait(IDEMPOTENCY_RETRY_AFTER_SECONDS * 1000);
    }
  }
}
