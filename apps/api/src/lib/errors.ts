import { GENERIC_MESSAGES, httpFromStatus, type ErrorBody, type ErrorStatus } from '@kaminuza/shared';

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

/** A failure meant for the client: its status, message and details are answered as they are. */
export class AppError extends Error {
  readonly status: ErrorStatus;
  readonly details: unknown;

  constructor(status: ErrorStatus, message: string = DEFAULT_MESSAGES[status], details?: unknown) {
    super(message);
    this.name = 'AppError';
    this.status = status;
    this.details = details;
  }

  get httpStatus(): number {
    return httpFromStatus(this.status);
  }
}

export function errorBody(status: ErrorStatus, message: string, details?: unknown): ErrorBody {
  return { error: details === undefined ? { status, message } : { status, message, details } };
}
