/**
 * Error codes and their HTTP statuses (spec section 8). The API answers
 * `{ error: { status, message, details } }` where `status` is one of these codes in
 * SCREAMING_SNAKE_CASE; the web client maps them back to the spec's lower-case codes.
 */
export const ERROR_STATUS = {
  INVALID_ARGUMENT: 400,
  UNAUTHENTICATED: 401,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  ABORTED: 409,
  RESOURCE_EXHAUSTED: 429,
  CANCELLED: 499,
  INTERNAL: 500,
  UNIMPLEMENTED: 501,
  UNAVAILABLE: 503,
  DEADLINE_EXCEEDED: 504,
} as const;

export type ErrorStatus = keyof typeof ERROR_STATUS;

/** The spec's lower-case code for each status, e.g. `invalid-argument`. */
export type ErrorCode =
  Lowercase<ErrorStatus> extends infer C
    ? C extends string
      ? C extends `${infer A}_${infer B}`
        ? `${A}-${B}`
        : C
      : never
    : never;

export function errorCode(status: ErrorStatus): ErrorCode {
  return status.toLowerCase().replace('_', '-') as ErrorCode;
}

const BY_HTTP: ReadonlyMap<number, ErrorStatus> = new Map(
  Object.entries(ERROR_STATUS).map(([status, http]) => [http, status as ErrorStatus]),
);

/** Maps an HTTP status to its code; unknown 4xx are invalid-argument, unknown 5xx internal. */
export function statusFromHttp(http: number): ErrorStatus {
  const known = BY_HTTP.get(http);
  if (known) return known;
  return http >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT';
}

export function httpFromStatus(status: ErrorStatus): number {
  return ERROR_STATUS[status];
}

/**
 * Why a request failed, for the failures a client acts on (`{ error: { status, message, reason } }`): the
 * web decides by these, never by comparing the message, which may be reworded or translated. Each names
 * the status it comes with and when; the OpenAPI document lists them with these descriptions.
 */
export const ERROR_REASON_INFO = {
  idempotency_key_in_progress: {
    status: 'ABORTED',
    description: 'The first request with this Idempotency-Key is still being processed; send it again shortly.',
  },
  ticket_closed: { status: 'ABORTED', description: 'The support ticket was closed; nothing more can be sent to it.' },
  support_database_failed: {
    status: 'UNAVAILABLE',
    description: 'The support conversation could not be read or written.',
  },
  wrong_password: {
    status: 'INVALID_ARGUMENT',
    description: "The account's password was wrong where an action asks for it again.",
  },
  verify_first: {
    status: 'PERMISSION_DENIED',
    description: 'Sign-in with the right password, refused until the email address is verified.',
  },
  cycle_closed: {
    status: 'ABORTED',
    description:
      "The institution's admission cycle takes no applications today (starting, saving, paying or submitting).",
  },
  already_submitted: {
    status: 'ABORTED',
    description: 'The application was already submitted: its draft can no longer be saved, paid for or submitted.',
  },
  reference_link_expired: {
    status: 'NOT_FOUND',
    description: "A referee's link past its expiry (410): the applicant can send the referee a new one.",
  },
  reference_link_used: {
    status: 'NOT_FOUND',
    description: "A referee's link whose reference was already submitted (410): it cannot be used again.",
  },
  letters_missing: {
    status: 'ABORTED',
    description: "The form asks for its referees' letters before submitting, and some have not arrived.",
  },
  no_places_left: {
    status: 'ABORTED',
    description:
      'Releasing these offers would take more places than are left; `details.places` names each place short. Send `override_capacity: true` to go beyond.',
  },
  stale_draft: {
    status: 'ABORTED',
    description: "Another save of the draft came first; `details` carry the draft's current version.",
  },
  no_form: {
    status: 'ABORTED',
    description: "The institution's current cycle has no application form for the chosen program.",
  },
  already_paid: { status: 'ABORTED', description: "The application's fee is already paid." },
  not_paid: { status: 'ABORTED', description: 'The payment has not gone through: it has no receipt yet.' },
  fee_waived: { status: 'ABORTED', description: "The application's fee is waived: there is nothing to pay." },
  payment_pending: {
    status: 'ABORTED',
    description:
      'Another way of paying the fee is still waiting for its outcome (a prompt, a card checkout or a slip): nothing was recorded.',
  },
  form_stale: {
    status: 'ABORTED',
    description: 'The application form changed since the editor loaded it; reload it before saving.',
  },
  institution_unavailable: {
    status: 'PERMISSION_DENIED',
    description: 'The institution cannot be written to: it is unknown, not approved or not published.',
  },
  invitation_invalid: {
    status: 'INVALID_ARGUMENT',
    description:
      'The team invitation is unknown, no longer pending (accepted, revoked or expired) or its institution not approved.',
  },
} as const satisfies Record<string, { status: ErrorStatus; description: string }>;

export type ErrorReason = keyof typeof ERROR_REASON_INFO;
export const ERROR_REASONS = Object.keys(ERROR_REASON_INFO) as [ErrorReason, ...ErrorReason[]];

/** The reasons a failure of this status may carry: each reason comes only with the status declared above. */
export type ErrorReasonOf<S extends ErrorStatus> = {
  [R in ErrorReason]: (typeof ERROR_REASON_INFO)[R]['status'] extends S ? R : never;
}[ErrorReason];

export function isErrorReason(value: unknown): value is ErrorReason {
  return typeof value === 'string' && (ERROR_REASONS as readonly string[]).includes(value);
}

export function isErrorStatus(value: unknown): value is ErrorStatus {
  return typeof value === 'string' && Object.hasOwn(ERROR_STATUS, value);
}

/**
 * The one HTTP status outside the mapping above: an Idempotency-Key reused for a different request
 * answers 422 as the IETF idempotency draft says, with the code INVALID_ARGUMENT (statusFromHttp maps
 * 422 back to it), so clients that know only the spec's codes still read it as a bad request.
 */
export const IDEMPOTENCY_MISMATCH_HTTP = 422;

/** Texts the client raises for malformed responses, exactly as the spec words them. */
export const RESPONSE_ERRORS = {
  notJsonObject: 'Response is not valid JSON object.',
  missingData: 'Response is missing data field.',
} as const;
