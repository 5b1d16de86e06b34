import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { GENERIC_MESSAGES } from '@kaminuza/shared';
import type { App } from '../app.ts';
import type { Database } from '../db/client.ts';
import { createTestApp } from '../test/app.ts';
import { createTestDatabase } from '../test/database.ts';
import { envelope } from './envelope.ts';
import { isSafeText, safeInput, unsafeTextPaths } from './safe-input.ts';

const refused = (...paths: string[]) => ({
  error: {
    status: 'INVALID_ARGUMENT',
    message: GENERIC_MESSAGES.check_input,
    details: paths.map((path) => ({ path, message: GENERIC_MESSAGES.check_input })),
  },
});

describe('isSafeText', () => {
  it('refuses a NUL and lone surrogates, and keeps every real character', () => {
    for (const text of ['a\u0000b', '\u0000', '\ud800', 'x\udfff', '\udc00\ud800', '😀\ud83d']) {
      expect(isSafeText(text), JSON.stringify(text)).toBe(false);
    }
    for (const text of ['', 'Élodie', '😀👩🏽‍🎓🇷🇼', 'evil\u202egpj.exe', '\t\r\n', '\u0001\u007f', '\ufffd']) {
      expect(isSafeText(text), JSON.stringify(text)).toBe(true);
    }
  });
});

describe('unsafeTextPaths', () => {
  it('names the path of every unsafe string and key', () => {
    expect(
      unsafeTextPaths({
        name: 'ok',
        address: { city: 'Kig\u0000ali', lines: ['fine', 'x\ud800'] },
        ['ke\u0000y']: 'value',
      }).sort(),
    ).toEqual(['address.city', 'address.lines.1', 'ke\u0000y']);
    expect(unsafeTextPaths('\u0000')).toEqual(['']);
    expect(unsafeTextPaths({ n: 1, b: true, nothing: null, list: [] })).toEqual([]);
  });

  it('walks a value nested a hundred thousand levels deep without exhausting the stack', () => {
    let value: unknown = 'bottom\u0000';
    for (let level = 0; level < 100_000; level++) value = level % 2 ? [value] : { a: value };
    const started = performance.now();
    const [path] = unsafeTextPaths(value);
    expect(path?.split('.')).toHaveLength(100_000);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('leaves Buffers alone: raw bodies are checked where they are decoded', () => {
    expect(unsafeTextPaths(Buffer.from('a\u0000b'))).toEqual([]);
  });
});

describe('the safe-input hook', () => {
  let app: FastifyInstance;
  let handled = 0;

  beforeAll(async () => {
    app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    await app.register(envelope);
    await app.register(safeInput);
    // Registered in a plugin of its own, as every module is: the hook still applies.
    await app.register(async (scope) => {
      const typed = scope.withTypeProvider<ZodTypeProvider>();
      typed.post(
        '/things/:id',
        {
          schema: {
            params: z.object({ id: z.string() }),
            querystring: z.object({ q: z.string().optional() }),
            body: z.object({ name: z.string(), address: z.object({ city: z.string() }).optional() }),
          },
        },
        async () => {
          handled += 1;
          return { ok: true };
        },
      );
      // No schema at all: what reaches the handler is checked just the same.
      scope.post('/raw', async () => {
        handled += 1;
        return { ok: true };
      });
    });
  });

  afterAll(() => app.close());

  const send = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url,
      payload: JSON.stringify(payload),
      headers: { 'content-type': 'application/json', ...headers },
    });

  it('refuses unsafe text in the query, path, body, keys and headers before the schema or handler', async () => {
    const before = handled;
    const cases: Array<[Promise<{ statusCode: number; json(): unknown }>, string]> = [
      [send('/things/1?q=ab%00cd', { name: 'x' }), 'q'],
      [send('/things/a%00b', { name: 'x' }), 'id'],
      [send('/things/1', { name: 'x', address: { city: 'Kig\ud800ali' } }), 'address.city'],
      [send('/things/1', { name: 'x', ['ci\u0000ty']: 'y' }), 'ci\u0000ty'],
      [send('/things/1', { name: 'x' }, { 'x-note': 'a\u0000b' }), 'x-note'],
      [send('/raw', { deep: [{ text: '\udfff' }] }), 'deep.0.text'],
    ];
    for (const [answer, path] of cases) {
      const response = await answer;
      expect(response.statusCode, path).toBe(400);
      expect(response.json(), path).toEqual(refused(path));
    }
    expect(handled).toBe(before);
  });

  it('lets text with every real character through', async () => {
    const response = await send('/things/%C3%89lodie?q=%F0%9F%98%80', {
      name: 'Élodie 😀 \u202e',
      address: { city: 'Kigali' },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect((await send('/raw', { any: ['shape', 1, null] })).statusCode).toBe(200);
  });
});

describe('the api', () => {
  let database: Database;
  let api: App;

  beforeAll(async () => {
    database = await createTestDatabase();
    api = await createTestApp(database);
  });

  afterAll(async () => {
    await api.close();
    await database.close();
  });

  it('refuses unsafe text on its routes with the spec’s message', async () => {
    const response = await api.inject({
      method: 'POST',
      url: '/api/v1/waitlist',
      payload: { email: 'someone@example.com', query: 'ref=\u0000' },
    });
    expect(response.json()).toEqual(refused('query'));
    const search = await api.inject({ method: 'GET', url: '/api/v1/auth/sign-up/partner/institutions?q=%00' });
    expect(search.json()).toEqual(refused('q'));
  });
});
