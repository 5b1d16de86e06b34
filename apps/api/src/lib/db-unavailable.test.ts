import { createServer, type Server, type Socket } from 'node:net';
import Fastify from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable } from './db-errors.ts';
import { envelope, UNAVAILABLE_RETRY_AFTER_SECONDS } from './envelope.ts';
import { AppError } from './errors.ts';
import { freePort } from '../test/server-process.ts';

/** A PostgreSQL error as node-postgres raises it (its SQLSTATE in `code`). */
function serverError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code, severity: 'FATAL' });
}

/** As Drizzle throws it: its own error, the driver's in `cause`. */
function wrapped(cause: Error): Error {
  return new Error('Failed query: select 1\nparams: ', { cause });
}

describe('databaseUnavailable', () => {
  it.each([
    [
      'the server shutting down (57P01 admin shutdown)',
      serverError('57P01', 'terminating connection due to administrator command'),
    ],
    [
      'a crashed server (57P02)',
      serverError('57P02', 'terminating connection because of crash of another server process'),
    ],
    ['a server starting or stopping (57P03)', serverError('57P03', 'the database system is shutting down')],
    ['no connection slot left (53300)', serverError('53300', 'sorry, too many clients already')],
    ['a connection failure (class 08)', serverError('08006', 'connection failure')],
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['a reset connection', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })],
    ['the server closing the connection', new Error('Connection terminated unexpectedly')],
    ['the pool giving up waiting', new Error('timeout exceeded when trying to connect')],
    ['a lost client used again', new Error('Client has encountered a connection error and is not queryable')],
    ['the embedded engine closed', new Error('PGlite is closed')],
  ])('is true for %s, bare or wrapped by Drizzle', (_label, error) => {
    expect(databaseUnavailable(error)).toBe(true);
    expect(databaseUnavailable(wrapped(error))).toBe(true);
  });

  it('is true for a refused connect to every address of a name (an AggregateError)', () => {
    const refused = (address: string) =>
      Object.assign(new Error(`connect ECONNREFUSED ${address}`), { code: 'ECONNREFUSED' });
    expect(databaseUnavailable(new AggregateError([refused('::1:5432'), refused('127.0.0.1:5432')]))).toBe(true);
  });

  it.each([
    ['a unique violation', serverError('23505', 'duplicate key value violates unique constraint')],
    ['invalid text from a request', serverError('22021', 'invalid byte sequence for encoding "UTF8": 0x00')],
    ['a missing table (a bug)', serverError('42P01', 'relation "nope" does not exist')],
    ['a serialization failure', serverError('40001', 'could not serialize access')],
    ['any other error', new Error('boom')],
  ])('is false for %s', (_label, error) => {
    expect(databaseUnavailable(error)).toBe(false);
    expect(databaseUnavailable(wrapped(error))).toBe(false);
  });

  it('is false for values that are not errors, and for an AggregateError with one other failure', () => {
    expect(databaseUnavailable('ECONNREFUSED')).toBe(false);
    expect(databaseUnavailable(null)).toBe(false);
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    expect(databaseUnavailable(new AggregateError([refused, new Error('boom')]))).toBe(false);
  });
});

describe('the errors node-postgres really raises when the server cannot be reached', () => {
  let silent: Server;
  let silentPort: number;
  const accepted: Socket[] = [];

  beforeAll(async () => {
    // Accepts connections and never answers: a server that hangs.
    silent = createServer((socket) => accepted.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentPort = (silent.address() as { port: number }).port;
  });
  afterAll(async () => {
    for (const socket of accepted) socket.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  it('classifies a refused connection', async () => {
    const pool = new pg.Pool({ connectionString: `postgres://postgres@127.0.0.1:${await freePort()}/postgres` });
    const failure = await pool.query('select 1').catch((error: unknown) => error);
    expect(databaseUnavailable(failure)).toBe(true);
    await pool.end();
  });

  it('classifies a server that never answers once the connect timeout passes', async () => {
    const pool = new pg.Pool({
      connectionString: `postgres://postgres@127.0.0.1:${silentPort}/postgres`,
      connectionTimeoutMillis: 200,
    });
    const failure = await pool.query('select 1').catch((error: unknown) => error);
    expect(databaseUnavailable(failure)).toBe(true);
    await pool.end();
  });
});

describe('the envelope of an unavailable database', () => {
  async function appThrowing(error: Error, retryAfter?: string) {
    const app = Fastify({ logger: false });
    await app.register(envelope);
    app.get('/fails', async (_request, reply) => {
      if (retryAfter) reply.header('retry-after', retryAfter);
      throw error;
    });
    return app;
  }

  it('answers 503 UNAVAILABLE with the generic text and Retry-After', async () => {
    const app = await appThrowing(
      wrapped(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })),
    );
    const response = await app.inject({ url: '/fails' });
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe(String(UNAVAILABLE_RETRY_AFTER_SECONDS));
    expect(response.json()).toEqual({
      error: { status: 'UNAVAILABLE', message: 'Something went wrong. Please try again.' },
    });
    await app.close();
  });

  it('keeps a Retry-After already set, and leaves other failures as they were', async () => {
    const unavailable = await appThrowing(new AppError('UNAVAILABLE'), '30');
    expect((await unavailable.inject({ url: '/fails' })).headers['retry-after']).toBe('30');
    await unavailable.close();

    const bug = await appThrowing(wrapped(serverError('42P01', 'relation "nope" does not exist')));
    const response = await bug.inject({ url: '/fails' });
    expect(response.statusCode).toBe(500);
    expect(response.headers['retry-after']).toBeUndefined();
    expect(response.json().error.status).toBe('INTERNAL');
    await bug.close();
  });
});
