import {
  ERROR_REASON_INFO,
  ERROR_REASONS,
  ERROR_STATUS,
  GENERIC_MESSAGES,
  httpFromStatus,
  type ErrorBody,
  type ErrorReason,
  type ErrorReasonOf,
  type ErrorStatus,
} from '@kaminuza/shared';

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

/**
 * A failure meant for the client: its status, message and details are answered as they are. The status
 * is a type parameter only so that a reason is accepted with its own status alone (ERROR_REASON_INFO).
 */
export class AppError<S extends ErrorStatus = ErrorStatus> extends Error {
  readonly status: ErrorStatus;
  readonly details: unknown;
  readonly options: AppErrorOptions;

  constructor(
    status: S,
    message: string = DEFAULT_MESSAGES[status],
    details?: unknown,
    options: AppErrorOptions & { reason?: ErrorReasonOf<S> } = {},
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

/**
 * The error envelope for the OpenAPI document. OpenAPI 3.0 has no description per enum value, so each
 * reason is described in the property's text and in `x-enum-descriptions`, which several renderers show.
 */
export function errorBodyOpenApiSchema() {
  const reasonLines = ERROR_REASONS.map((reason) => {
    const { status, description } = ERROR_REASON_INFO[reason];
    return `- \`${reason}\` (${status}, ${httpFromStatus(status)}): ${description}`;
  });
  return {
    type: 'object' as const,
    description: 'Every failure answers this envelope with its HTTP status.',
    required: ['error'],
    properties: {
      error: {
        type: 'object' as const,
        required: ['status', 'message'],
        properties: {
          status: { type: 'string' as const, enum: Object.keys(ERROR_STATUS), description: 'The error code.' },
          message: {
            type: 'string' as const,
            description: 'A text for people; it may be reworded, so never decide by it.',
          },
          details: { description: 'Field problems of a 400 (`[{ path, message }]`) or facts about the failure.' },
          reason: {
            type: 'string' as const,
            enum: [...ERROR_REASONS],
            'x-enum-descriptions': ERROR_REASONS.map((reason) => ERROR_REASON_INFO[reason].description),
            description: `Why it failed, on the refusals a client tells apart; stable, unlike the message.\n\n${reasonLines.join('\n')}`,
          },
        },
      },
    },
  };
}
