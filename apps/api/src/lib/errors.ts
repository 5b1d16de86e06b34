import { httpFromStatus, type ErrorBody, type ErrorStatus } from '@kaminuza/shared';

/** The spec's generic texts (section 8) answered when a failure carries no message of its own. */
export const DEFAULT_MESSAGES: Readonly<Record<ErrorStatus, string>> = {
  INVALID_ARGUMENT: 'Please check your input and try again.',
  UNAUTHENTICATED: 'You are not authorized to perform this action.',
  PERMISSION_DENIED: 'You are not authorized to perform this action.',
  NOT_FOUND: 'Not found',
  ABORTED: 'Something went wrong. Please try again.',
  RESOURCE_EXHAUSTED: 'Something went wrong. Please try again.',
  CANCELLED: 'Something went wrong. Please try again.',
  INTERNAL: 'Something went wrong. Please try again.',
  UNIMPLEMENTED: 'Something went wrong. Please try again.',
  UNAVAILABLE: 'Something went wrong. Please try again.',
  DEADLINE_EXCEEDED: 'Something went wrong. Please try again.',
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
