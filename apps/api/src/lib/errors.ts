import { GENERIC_MESSAGES, httpFromStatus, type ErrorBody, type ErrorReason, type ErrorStatus } from '@kaminuza/shared';

/** The spec's generic texts (section 8) answered when a failure carries no message of its own. */
export const DEFAULT_MESSAGES: Readonly<Record<ErrorStatus, string>> = {
  INVALID_ARGUMENT: GENERIC_MESSAGES.check_input,
  UNAUTHENTICATED: GENERIC_MESSAGES.not_authorized,
  PERMISSION_DENIED: GENERIC_MESSAGES.not_authorized,
  NOT_FOUND: GENERIC_MESSAGES.not_found,
  ABORTED: GENERIC_MESSAGES.generic,
  RESOURCE_EXHAUSTED: GENERIC_MESSAGES.generic,
  CANCELLED: GENERIC_MESSAGES.generic,
  INTERNAL: GENERIC_MESSAGES.generic,
  UNIMPLEMENTED: GENERIC_MESSAGES.generic,
  UNAVAILABLE: GENERIC_MESSAGES.generic,
  DEADLINE_EXCEEDED: GENERIC_MESSAGES.generic,
};

export interface AppErrorOptions {
  /**
   * An HTTP status other than the code's own, for the few answers a standard fixes (422 for an
   * Idempotency-Key reused with another request); the envelope's code stays one of the spec's.
   */
  http?: number;
  /** Sent as Retry-After: when the same request may succeed if tried again. */
  retryAfterSeconds?: number;
  /** What a client acts on, when it must tell this failure from others of its status. */
  reason?: ErrorReason;
}

/** A failure meant for the client: its status, message and details are answered as they are. */
export class AppError extends Error {
  readonly status: ErrorStatus;
  readonly details: unknown;
  readonly options: AppErrorOptions;

  constructor(
    status: ErrorStatus,
    message: string = DEFAULT_MESSAGES[status],
    details?: unknown,
    options: AppErrorOptions = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.status = status;
    this.details = details;
    this.options = options;
  }

  get httpStatus(): number {
    return this.options.http ?? httpFromStatus(this.status);
  }
}

export function errorBody(status: ErrorStatus, message: string, details?: unknown, reason?: ErrorReason): ErrorBody {
  return {
    error: {
      status,
      message,
      ...(details === undefined ? {} : { details }),
      ...(reason === undefined ? {} : { reason }),
    },
  };
}
