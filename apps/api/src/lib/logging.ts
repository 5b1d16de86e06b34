import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyRequest, FastifyServerOptions } from 'fastify';
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

export function loggerOptions(env: Env): NonNullable<FastifyServerOptions['logger']> {
  return {
    level: env.LOG_LEVEL,
    serializers: {
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
