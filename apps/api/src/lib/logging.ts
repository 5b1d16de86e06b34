import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { LogController, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { stdSerializers } from 'pino';
import type { Env } from './env.ts';

/** Ids a proxy or client may hand us; anything else could forge or bloat log lines, so it is replaced. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestId(request: IncomingMessage): string {
  const incoming = request.headers['x-request-id'];
  return typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** Query parameters that carry a single-use secret: emailed links (verification, reset, invitation). */
const SECRET_PARAMS = ['code', 'token'];

/** The request path as logged: the values of secret-bearing query parameters are replaced. */
export function loggableUrl(url: string): string {
  const queryAt = url.indexOf('?');
  if (queryAt === -1) return url;
  const query = new URLSearchParams(url.slice(queryAt + 1));
  for (const name of SECRET_PARAMS) if (query.has(name)) query.set(name, 'redacted');
  return `${url.slice(0, queryAt)}?${query.toString()}`;
}

/**
 * Drizzle writes a failed statement's parameters into its error's message (and so into its stack), and
 * they can be session tokens or anyone's personal data: logged errors keep the statement and lose them,
 * along the whole cause chain.
 */
export function withoutStatementParameters(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error) || depth > 8) return error;
  const cause = withoutStatementParameters(error.cause, depth + 1);
  if (!('params' in error)) {
    if (cause === error.cause) return error;
    const copy = Object.create(Object.getPrototypeOf(error) as object) as Error;
    return Object.assign(copy, error, { message: error.message, stack: error.stack, cause });
  }
  const { params: _params, ...rest } = error as Error & { params: unknown };
  const message = error.message.replace(/\nparams: [\s\S]*$/, '');
  const frames = error.stack?.indexOf('\n    at ') ?? -1;
  const copy = new Error(message, { cause });
  return Object.assign(copy, rest, {
    name: error.name,
    message,
    cause,
    stack: `${error.name}: ${message}${frames >= 0 ? error.stack!.slice(frames) : ''}`,
  });
}

export function loggerOptions(env: Env): NonNullable<FastifyServerOptions['logger']> {
  return {
    level: env.LOG_LEVEL,
    serializers: {
      err: (error: Error) => stdSerializers.err(withoutStatementParameters(error) as Error),
      // Fastify's own request fields, but the links' secrets stay out of the logs (the pages they open
      // are requested with them in the address).
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: loggableUrl(request.url),
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
      censor: '[redacted]',
    },
    // Readable lines for someone running it in a terminal; JSON everywhere else (log collectors).
    ...(env.NODE_ENV === 'development' && process.stdout.isTTY
      ? { transport: { target: 'pino-pretty', options: { ignore: 'pid,hostname' } } }
      : {}),
  };
}

/**
 * Requests logged in one line, once answered: Fastify's default is two ("incoming request", then
 * "request completed"), which at deadline-day rates doubles the logging for nothing — the request, its
 * status and how long it took are all known at the end.
 */
export class OneLineRequestLogs extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
