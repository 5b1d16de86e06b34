import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { httpFromStatus, statusFromHttp, type ErrorReason, type ErrorStatus } from '@kaminuza/shared';
import { databaseUnavailable, driverReason, inputRejection } from './db-errors.ts';
import { AppError, DEFAULT_MESSAGES, errorBody } from './errors.ts';

/**
 * Seconds a client is asked to wait before retrying a 503: the api serves again within a few seconds
 * of the database returning (ADR 021), so a retry sooner would most likely fail again.
 */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

interface Failure {
  status: ErrorStatus;
  message: string;
  details?: unknown;
  reason?: ErrorReason;
  /** The SQLSTATE of an input the database refused, logged for the operator. */
  sqlState?: string;
}

/** Field issues of a request that failed its Zod schema, as `{ path: 'address.city', message }`. */
function fieldIssues(validation: { instancePath: string; message?: string }[]) {
  return validation.map((issue) => ({
    path: issue.instancePath.split('/').filter(Boolean).join('.'),
    message: issue.message ?? 'Invalid value',
  }));
}

function describe(error: unknown): Failure {
  if (error instanceof AppError) {
    return { status: error.status, message: error.message, details: error.details, reason: error.options.reason };
  }
  // A value the database refused (out of range, too long, not valid text …) is the caller's to fix.
  const sqlState = inputRejection(error);
  if (sqlState) return { status: 'INVALID_ARGUMENT', message: DEFAULT_MESSAGES.INVALID_ARGUMENT, sqlState };
  if (hasZodFastifySchemaValidationErrors(error)) {
    return {
      status: 'INVALID_ARGUMENT',
      message: DEFAULT_MESSAGES.INVALID_ARGUMENT,
      details: fieldIssues(error.validation),
    };
  }
  if (databaseUnavailable(error)) return { status: 'UNAVAILABLE', message: DEFAULT_MESSAGES.UNAVAILABLE };
  // Fastify's own client errors (malformed JSON, unsupported media type, body too large …) keep their
  // class but get the spec's wording; anything else is a bug and says nothing about itself.
  const http = (error as { statusCode?: unknown }).statusCode;
  const status = typeof http === 'number' && http >= 400 && http < 500 ? statusFromHttp(http) : 'INTERNAL';
  return { status, message: DEFAULT_MESSAGES[status] };
}

/**
 * Every failure leaves as `{ error: { status, message, details? } }` with the HTTP status of the
 * shared mapping; unknown routes answer 404 the same way.
 */
export const envelope = fp(
  async (app) => {
    app.setErrorHandler((error, request, reply) => {
      const failure = describe(error);
      const http = error instanceof AppError ? error.httpStatus : httpFromStatus(failure.status);
      const retryAfter = error instanceof AppError ? error.options.retryAfterSeconds : undefined;
      if (retryAfter !== undefined) reply.header('retry-after', String(retryAfter));
      if (failure.status === 'UNAVAILABLE') {
        if (!reply.hasHeader('retry-after')) reply.header('retry-after', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
        // A database outage fails every request alike: one line each, the driver's reason without the
        // statement (whose parameters may be anyone's data) and without the stack.
        request.log.warn({ reason: driverReason(error) }, 'request failed: service unavailable');
      } else if (http >= 500) request.log.error({ err: error }, 'request failed');
      else if (failure.sqlState)
        request.log.warn({ err: error, sqlState: failure.sqlState }, 'input refused by the database');
      return reply.code(http).send(errorBody(failure.status, failure.message, failure.details, failure.reason));
    });

    app.setNotFoundHandler((_request, reply) =>
      reply.code(404).send(errorBody('NOT_FOUND', DEFAULT_MESSAGES.NOT_FOUND)),
    );
  },
  { name: 'envelope' },
);
