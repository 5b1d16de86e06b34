import { parse, type core } from 'zod/mini';
import {
  FUNCTION_CALL_TIMEOUT_MS,
  RESPONSE_ERRORS,
  errorCode,
  isErrorReason,
  isErrorStatus,
  statusFromHttp,
  type ErrorCode,
  type ErrorReason,
  type ErrorStatus,
} from '@kaminuza/shared';
import { recordCachedAt } from './cached-at.ts';
import { CACHED_AT_HEADER } from './offline-reads.ts';

/** An API failure carrying the spec's error code (e.g. `invalid-argument`) and the server's message. */
export class ApiError extends Error {
  readonly status: ErrorStatus;
  readonly code: ErrorCode;
  readonly details: unknown;
  readonly httpStatus: number;
  /** Why it failed, where the api says (ERROR_REASONS): what the screens decide by, never the message. */
  readonly reason: ErrorReason | null;

  constructor(status: ErrorStatus, message: string, httpStatus: number, details?: unknown, reason?: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = errorCode(status);
    this.httpStatus = httpStatus;
    this.details = details;
    this.reason = isErrorReason(reason) ? reason : null;
  }
}

/** Whether a failure is the api's refusal for this reason: how screens tell refusals apart. */
export function hasReason(error: unknown, reason: ErrorReason): error is ApiError {
  return error instanceof ApiError && error.reason === reason;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON, except a Blob or File, sent as its bytes with the content type given in `headers`. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  timeoutMs?: number;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Calls `/api/v1{path}` and returns the `data` of the envelope, validated by `schema`.
 * Time-outs (70 s) answer deadline-exceeded, lost connections unavailable, malformed bodies the
 * spec's "Response is not valid JSON object." / "Response is missing data field.".
 */
export async function api<S extends core.$ZodType>(
  path: string,
  schema: S,
  { method = 'GET', body, headers, signal, timeoutMs = FUNCTION_CALL_TIMEOUT_MS }: RequestOptions = {},
): Promise<core.output<S>> {
  const timeout = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    response = await fetch(`/api/v1${path}`, {
      method,
      credentials: 'same-origin',
      headers: {
        accept: 'application/json',
        ...(body === undefined || body instanceof Blob ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      // A file goes as it is (its type in `headers`); anything else as JSON.
      body: body === undefined ? undefined : body instanceof Blob ? body : JSON.stringify(body),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch (cause) {
    if (timeout.aborted) throw new ApiError('DEADLINE_EXCEEDED', 'deadline-exceeded', 504);
    if (signal?.aborted) throw new ApiError('CANCELLED', 'cancelled', 499);
    throw new ApiError('UNAVAILABLE', cause instanceof Error ? cause.message : 'unavailable', 503);
  }

  // A deletion answers 204 with no body: the caller passes a schema of `undefined` (z.undefined()).
  if (response.status === 204) return parse(schema, undefined);

  let json: unknown;
  try {
    json = await response.json();
  } catch {
    json = undefined;
  }
  if (!isObject(json)) {
    if (!response.ok) throw new ApiError(statusFromHttp(response.status), response.statusText, response.status);
    throw new ApiError('INTERNAL', RESPONSE_ERRORS.notJsonObject, response.status);
  }
  if (!response.ok || 'error' in json) {
    const error = isObject(json.error) ? json.error : {};
    const status = isErrorStatus(error.status) ? error.status : statusFromHttp(response.status);
    const message = typeof error.message === 'string' ? error.message : status;
    throw new ApiError(status, message, response.status, error.details, error.reason);
  }
  if (!('data' in json)) throw new ApiError('INTERNAL', RESPONSE_ERRORS.missingData, response.status);
  const data = parse(schema, json.data);
  if (method === 'GET') recordCachedAt(path, response.headers.get(CACHED_AT_HEADER));
  return data;
}
