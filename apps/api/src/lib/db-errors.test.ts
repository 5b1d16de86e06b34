import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { sql, type SQL } from 'drizzle-orm';
import { GENERIC_MESSAGES } from '@kaminuza/shared';
import type { Database } from '../db/client.ts';
import { createTestDatabase } from '../test/database.ts';
import { inputRejection, uniqueViolation } from './db-errors.ts';
import { envelope } from './envelope.ts';

let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.execute(sql`create table value_probe (short varchar(10), indexed text)`);
  await database.db.execute(sql`create index value_probe_indexed on value_probe (indexed)`);
});

afterAll(async () => {
  await database.close();
});

/** The error a statement fails with, as the api sees it (Drizzle's, with the driver's as its cause). */
async function failureOf(statement: SQL): Promise<unknown> {
  return database.db.execute(statement).then(
    () => expect.unreachable('the statement succeeded'),
    (error: unknown) => error,
  );
}

describe('inputRejection', () => {
  it("names the SQLSTATE of values the database cannot take (PostgreSQL's data exceptions)", async () => {
    const cases: Array<[SQL, string]> = [
      [sql`select ${'abc'}::integer`, '22P02'],
      [sql`select ${'99999999999'}::integer`, '22003'],
      [sql`insert into value_probe (short) values (${'x'.repeat(20)})`, '22001'],
      [sql`select ${'ab\u0000cd'}::text`, '22021'],
      [sql`select ${'{"a":'}::jsonb`, '22P02'],
      [sql`select ${'2024-02-30'}::date`, '22008'],
      [sql`select 1 / ${0}::integer`, '22012'],
      // Too large for a b-tree index entry, even compressed.
      [sql`insert into value_probe (indexed) values (${randomBytes(16_000).toString('base64')})`, '54000'],
    ];
    for (const [statement, code] of cases) {
      const error = await failureOf(statement);
      expect(inputRejection(error), code).toBe(code);
      expect(uniqueViolation(error)).toBeNull();
    }
  });

  it('leaves the faults of the service alone', async () => {
    expect(inputRejection(await failureOf(sql`select * from no_such_table`))).toBeNull();
    expect(inputRejection(await failureOf(sql`selec 1`))).toBeNull();
    expect(inputRejection(new Error('connection terminated'))).toBeNull();
    expect(inputRejection(Object.assign(new Error('spawn'), { code: 'E2BIG' }))).toBeNull();
    expect(inputRejection('22P02')).toBeNull();
  });
});

describe('the error envelope', () => {
  let app: FastifyInstance;
  const logged: Array<{ level: number; msg: string; sqlState?: string }> = [];

  beforeAll(async () => {
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logged.push(JSON.parse(chunk.toString()));
        done();
      },
    });
    app = Fastify({ logger: { level: 'warn', stream } });
    await app.register(envelope);
    app.get('/out-of-range', async () => database.db.execute(sql`select ${'99999999999'}::integer`));
    app.get('/broken', async () => database.db.execute(sql`select * from no_such_table`));
  });

  afterAll(() => app.close());

  it('answers 400 with the spec’s message to a value the database refused, and warns the operator', async () => {
    const response = await app.inject({ method: 'GET', url: '/out-of-range' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: { status: 'INVALID_ARGUMENT', message: GENERIC_MESSAGES.check_input } });
    expect(logged).toContainEqual(
      expect.objectContaining({ level: 40, msg: 'input refused by the database', sqlState: '22003' }),
    );
  });

  it('still answers 500 to a fault of the service', async () => {
    const response = await app.inject({ method: 'GET', url: '/broken' });
    expect(response.statusCode).toBe(500);
    expect(response.json().error.status).toBe('INTERNAL');
  });
});
