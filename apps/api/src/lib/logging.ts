import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyServerOptions } from 'fastify';
import type { Env } from './env.ts';

/** Ids a proxy or client may hand us; anything else could forge or bloat log lines, so it is replaced. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestId(request: IncomingMessage): string {
  const incoming = request.headers['x-request-id'];
  return typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

export function loggerOptions(env: Env): NonNullable<FastifyServerOptions['logger']> {
  return {
    level: env.LOG_LEVEL,
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
