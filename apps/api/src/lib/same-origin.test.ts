import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope } from './envelope.ts';
import { sameOriginGuard } from './same-origin.ts';

const app = Fastify();

beforeAll(async () => {
  await app.register(envelope);
  app.addHook('onRequest', sameOriginGuard('https://kaminuza.example'));
  app.post('/api/v1/thing', async () => ({ data: 'done' }));
  app.post('/elsewhere', async () => ({ data: 'done' }));
  app.get('/api/v1/thing', async () => ({ data: 'read' }));
  await app.ready();
});
afterAll(() => app.close());

const post = (url: string, headers: Record<string, string>) =>
  app.inject({ method: 'POST', url, headers: { host: 'lan-box:3000', ...headers } });

describe('sameOriginGuard', () => {
  it.each([
    ['no browser headers (curl, server to server)', {}],
    ['the public origin', { origin: 'https://kaminuza.example', 'sec-fetch-site': 'same-origin' }],
    ['the host the request was sent to', { origin: 'http://lan-box:3000' }],
  ])('lets through %s', async (_label, headers) => {
    expect((await post('/api/v1/thing', headers)).statusCode).toBe(200);
  });

  it.each([
    ['cross-site fetch metadata', { 'sec-fetch-site': 'cross-site' }],
    ['a foreign origin', { origin: 'https://kaminuza.example.evil.com' }],
    ['the public host on another port', { origin: 'https://kaminuza.example:8443' }],
    ['an opaque origin', { origin: 'null' }],
  ])('rejects %s with 403', async (_label, headers) => {
    const response = await post('/api/v1/thing', headers);
    expect(response.statusCode).toBe(403);
    expect(response.json().error.status).toBe('PERMISSION_DENIED');
  });

  it('leaves reads and non-API paths alone', async () => {
    const crossSite = { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' };
    expect((await app.inject({ url: '/api/v1/thing', headers: crossSite })).statusCode).toBe(200);
    expect((await post('/elsewhere', crossSite)).statusCode).toBe(200);
  });
});
