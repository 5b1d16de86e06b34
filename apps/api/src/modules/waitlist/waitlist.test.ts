import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { waitlist } from '../../db/schema/index.ts';
import { TEST_PUBLIC_URL, useTestApp } from '../../test/app.ts';

const testApp = useTestApp();

const join = (payload: unknown, headers: Record<string, string> = {}) =>
  testApp.app.inject({ method: 'POST', url: '/api/v1/waitlist', payload: payload as object, headers });

async function rowsFor(email: string) {
  return testApp.db
    .select()
    .from(waitlist)
    .where(sql`lower(${waitlist.email}) = ${email.toLowerCase()}`);
}

describe('POST /api/v1/waitlist', () => {
  it('adds a new email with 201 and keeps the query and language', async () => {
    const response = await join({ email: 'ada@example.com', query: 'ref=abc', language: 'fr' });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      data: { id: expect.any(String), email: 'ada@example.com', already_joined: false },
    });
    const [row] = await rowsFor('ada@example.com');
    expect(row).toMatchObject({ query: 'ref=abc', language: 'fr' });
  });

  it('answers a repeat join in any case with 200 and changes nothing', async () => {
    const first = await join({ email: 'Grace@Example.com', query: 'ref=one' });
    expect(first.statusCode).toBe(201);
    const [before] = await rowsFor('grace@example.com');

    const again = await join({ email: 'GRACE@example.COM', query: 'ref=two', language: 'rw' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({
      data: { id: first.json().data.id, email: 'Grace@Example.com', already_joined: true },
    });
    const rows = await rowsFor('grace@example.com');
    expect(rows).toEqual([before]);
  });

  it('rejects an invalid email with 400 and stores nothing', async () => {
    const response = await join({ email: 'not-an-email' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({
      status: 'INVALID_ARGUMENT',
      message: 'Please check your input and try again.',
      details: [{ path: 'email', message: 'Invalid email address' }],
    });
    expect(await rowsFor('not-an-email')).toEqual([]);
  });

  it('accepts a same-origin browser request', async () => {
    const response = await join(
      { email: 'same@example.com' },
      { origin: TEST_PUBLIC_URL, 'sec-fetch-site': 'same-origin' },
    );
    expect(response.statusCode).toBe(201);
  });

  it.each([
    ['Sec-Fetch-Site cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['a foreign Origin', { origin: 'https://evil.example' }],
    ['an opaque Origin', { origin: 'null' }],
  ])('rejects %s with 403 and stores nothing', async (_label, headers) => {
    const email = `csrf-${Math.random().toString(36).slice(2)}@example.com`;
    const response = await join({ email }, headers);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      error: { status: 'PERMISSION_DENIED', message: 'You are not authorized to perform this action.' },
    });
    expect(await rowsFor(email)).toEqual([]);
  });
});
