import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ERROR_REASON_INFO, ERROR_REASONS } from '@kaminuza/shared';
import { AppError } from './lib/errors.ts';
import { useTestApp } from './test/app.ts';

const testApp = useTestApp();

beforeAll(async () => {
  // Routes that exist only to drive the error envelope.
  testApp.app.post(
    '/api/v1/test/echo',
    { schema: { body: z.object({ name: z.string().min(2), address: z.object({ city: z.string() }) }) } },
    (request) => ({ data: request.body }),
  );
  testApp.app.get('/api/v1/test/forbidden', () => {
    throw new AppError('PERMISSION_DENIED', undefined, { reason: 'test' });
  });
  testApp.app.get('/api/v1/test/crash', () => {
    throw new Error('secret connection string postgres://user:pw@db');
  });
  await testApp.app.ready();
});

describe('error envelope', () => {
  it('answers a request that fails its schema with 400 and the field issues', async () => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/test/echo',
      payload: { name: 'x', address: {} },
    });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.error.status).toBe('INVALID_ARGUMENT');
    expect(body.error.message).toBe('Please check your input and try again.');
    expect(body.error.details).toEqual(
      expect.arrayContaining([
        { path: 'name', message: expect.any(String) },
        { path: 'address.city', message: expect.any(String) },
      ]),
    );
  });

  it('answers malformed JSON with 400 in the same shape', async () => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: { status: 'INVALID_ARGUMENT', message: 'Please check your input and try again.' },
    });
  });

  it('passes an AppError through with its HTTP status and details', async () => {
    const response = await testApp.app.inject({ url: '/api/v1/test/forbidden' });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      error: {
        status: 'PERMISSION_DENIED',
        message: 'You are not authorized to perform this action.',
        details: { reason: 'test' },
      },
    });
  });

  it('answers unknown API routes with 404 for any method', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const response = await testApp.app.inject({ method, url: '/api/v1/nope' });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: { status: 'NOT_FOUND', message: 'Not found' } });
    }
  });

  it('answers unexpected errors with 500 and leaks nothing', async () => {
    const response = await testApp.app.inject({ url: '/api/v1/test/crash' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      error: { status: 'INTERNAL', message: 'Something went wrong. Please try again.' },
    });
    expect(response.body).not.toMatch(/secret|postgres|stack|at /);
  });
});

describe('request ids', () => {
  it('echoes a sane incoming x-request-id', async () => {
    const response = await testApp.app.inject({ url: '/health', headers: { 'x-request-id': 'lb-1234.abc' } });
    expect(response.headers['x-request-id']).toBe('lb-1234.abc');
  });

  it('replaces a missing or unsafe id with a uuid', async () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    const missing = await testApp.app.inject({ url: '/health' });
    expect(missing.headers['x-request-id']).toMatch(uuid);
    const unsafe = await testApp.app.inject({ url: '/health', headers: { 'x-request-id': 'bad id\n{"x":1}' } });
    expect(unsafe.headers['x-request-id']).toMatch(uuid);
  });

  it('is set on error answers too', async () => {
    const response = await testApp.app.inject({ url: '/api/v1/nope', headers: { 'x-request-id': 'trace-42' } });
    expect(response.headers['x-request-id']).toBe('trace-42');
  });
});

describe('security headers and docs', () => {
  it('sends the strict policy on API answers', async () => {
    const response = await testApp.app.inject({ url: '/health' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(response.headers['strict-transport-security']).toContain('max-age=31536000');
    expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('serves the OpenAPI document and the Swagger UI with its own relaxed policy', async () => {
    const json = await testApp.app.inject({ url: '/api/docs/json' });
    expect(json.statusCode).toBe(200);
    expect(Object.keys(json.json().paths)).toEqual(
      expect.arrayContaining(['/health', '/api/v1/catalogue/summary', '/api/v1/waitlist']),
    );
    // The error envelope documents every reason a client may branch on, each with its status and meaning.
    const reason = json.json().components.schemas.ErrorBody.properties.error.properties.reason;
    expect(reason.enum).toEqual([...ERROR_REASONS]);
    expect(reason['x-enum-descriptions']).toHaveLength(ERROR_REASONS.length);
    for (const name of ERROR_REASONS)
      expect(reason.description).toContain(`\`${name}\` (${ERROR_REASON_INFO[name].status}`);
    const ui = await testApp.app.inject({ url: '/api/docs' });
    expect(ui.statusCode).toBe(200);
    expect(ui.headers['content-type']).toContain('text/html');
    expect(String(ui.headers['content-security-policy'])).toContain("style-src 'self' 'unsafe-inline'");
  });

  it('compresses with brotli or gzip as the client asks', async () => {
    const br = await testApp.app.inject({ url: '/api/docs/json', headers: { 'accept-encoding': 'br' } });
    expect(br.headers['content-encoding']).toBe('br');
    const gzip = await testApp.app.inject({ url: '/api/docs/json', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
  });
});
