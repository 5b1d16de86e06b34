import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestDatabase } from '../test/database.ts';
import { Writable } from 'node:stream';
import { createTestApp, testEnv } from '../test/app.ts';
import { loggableUrl, loggerOptions } from './logging.ts';

describe('loggableUrl', () => {
  it('keeps the secrets of emailed links out of the logs', () => {
    expect(loggableUrl('/signup/partner/invitation?token=abc123')).toBe('/signup/partner/invitation?token=redacted');
    expect(loggableUrl('/auth/verify-email?code=xyz&lang=fr')).toBe('/auth/verify-email?code=redacted&lang=fr');
    expect(loggableUrl('/reset-password?token=t&token=u')).toBe('/reset-password?token=redacted');
  });

  it('leaves other addresses as they are', () => {
    expect(loggableUrl('/api/v1/catalogue?q=kigali&page=2')).toBe('/api/v1/catalogue?q=kigali&page=2');
    expect(loggableUrl('/partners')).toBe('/partners');
  });
});

describe('logged errors', () => {
  const serialize = (error: unknown) => {
    const serializers = loggerOptions(testEnv()) as { serializers: { err: (error: unknown) => unknown } };
    return JSON.stringify(serializers.serializers.err(error));
  };

  it("keep a failed statement but not its parameters, which may be a session token or anyone's data", async () => {
    const database = await createTestDatabase();
    try {
      const failure = await database.db
        .execute(sql`select ${'session-token-5f2a'}::text where 1 / 0 = 1`)
        .then(() => null)
        .catch((error: unknown) => error);
      expect(String((failure as Error).message)).toContain('session-token-5f2a');
      const logged = serialize(failure);
      expect(logged).toContain('Failed query: select $1::text where 1 / 0 = 1');
      expect(logged).toContain('division by zero');
      expect(logged).not.toContain('session-token-5f2a');
      // Wrapped in an error of ours, the statement's error is the cause: the parameters go there too.
      const wrapped = serialize(new Error('request failed', { cause: failure }));
      expect(wrapped).toContain('Failed query');
      expect(wrapped).not.toContain('session-token-5f2a');
    } finally {
      await database.close();
    }
  });

  it('leaves other errors as they are', () => {
    const logged = JSON.parse(serialize(Object.assign(new Error('boom'), { code: 'E1' }))) as Record<string, unknown>;
    expect(logged).toMatchObject({ type: 'Error', message: 'boom', code: 'E1' });
  });
});

describe('request logs', () => {
  it('are one line per request, with the method, the address without secrets, the status and the time', async () => {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    });
    const database = await createTestDatabase();
    const app = await createTestApp(database, testEnv(), {
      logger: {
        ...(loggerOptions(testEnv()) as Exclude<ReturnType<typeof loggerOptions>, boolean>),
        level: 'info',
        stream,
      },
    });
    try {
      await app.inject({ url: '/api/v1/auth/session', headers: { cookie: 'kaminuza.session_token=x' } });
      await app.inject({ url: '/auth/verify-email?code=secret-code' });
      const requests = lines.filter((line) => line.req !== undefined);
      expect(requests).toHaveLength(2);
      expect(requests[0]).toMatchObject({
        msg: 'request completed',
        req: { method: 'GET', url: '/api/v1/auth/session' },
        res: { statusCode: 200 },
      });
      expect(typeof requests[0]!.responseTime).toBe('number');
      expect(JSON.stringify(requests[1])).not.toContain('secret-code');
      expect(JSON.stringify(lines)).not.toContain('session_token=x');
    } finally {
      await app.close();
      await database.close();
    }
  });
});
