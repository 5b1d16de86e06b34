import { randomBytes, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { SETUP_MESSAGES, type ApiKeyScope, type PartnerApiSubmissionPage } from '@kaminuza/shared';
import {
  campuses,
  decisions,
  partnerApiKeys,
  partners,
  programCampuses,
  programs,
  rateLimits,
  submissions,
} from '../../db/schema/index.ts';
import { useTestApp } from '../../test/app.ts';
import { signInAs, type TestAccount } from '../../test/auth.ts';
import { API_KEY_LIMIT } from './partner-api.service.ts';
import { insertTestCampus, insertTestCycle } from '../../test/setup-rows.ts';

let adminA: TestAccount;
let adminB: TestAccount;

const testApp = useTestApp();

beforeAll(async () => {
  adminA = await signInAs(testApp.app, 'staff');
  adminB = await signInAs(testApp.app, 'staff');
});

const errorOf = (response: { json(): unknown }) =>
  (response.json() as { error: { status: string; message: string } }).error;

async function newKey(owner: TestAccount, scopes: ApiKeyScope[]): Promise<{ key: string; id: string }> {
  const response = await testApp.app.inject({
    method: 'POST',
    url: `/api/v1/partners/${owner.partnerId}/api-keys`,
    headers: owner.headers,
    payload: { name: 'Integration', scopes },
  });
  expect(response.statusCode).toBe(201);
  const { data } = response.json() as { data: { key: string; api_key: { id: string } } };
  return { key: data.key, id: data.api_key.id };
}

const call = (url: string, key?: string, headers: Record<string, string> = {}) =>
  testApp.app.inject({
    method: 'GET',
    url: `/api/v1/partner-api${url}`,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
  });

/** Submissions stay empty until applying lands (issue 7), so tests write them directly. */
async function insertSubmission(partnerId: string, values: Partial<typeof submissions.$inferInsert> = {}) {
  const [row] = await testApp.db
    .insert(submissions)
    .values({
      reference: `KZ-${randomBytes(5).toString('hex').toUpperCase()}`,
      partner_id: partnerId,
      campus_id: await insertTestCampus(testApp.db, partnerId),
      answers: { motivation: 'I love engineering.' },
      ...values,
    })
    .returning();
  return row!;
}

describe('authentication by key', () => {
  it('refuses a call without a key, with a malformed or unknown key, and ignores session cookies', async () => {
    for (const response of [
      await call('/submissions'),
      await call('/submissions', 'not-a-key'),
      await call('/submissions', `kz_abcdefgh_${'A'.repeat(43)}`),
      await call('/submissions', undefined, adminA.headers),
    ]) {
      expect(response.statusCode).toBe(401);
      expect(errorOf(response)).toEqual({ status: 'UNAUTHENTICATED', message: SETUP_MESSAGES.api_key_invalid });
    }
  });

  it('answers with a created key, and refuses it once revoked', async () => {
    const { key, id } = await newKey(adminA, ['submissions:read']);
    const before = await call('/submissions', key);
    expect(before.statusCode).toBe(200);
    expect(before.headers['cache-control']).toBe('no-store');

    const revoke = await testApp.app.inject({
      method: 'DELETE',
      url: `/api/v1/partners/${adminA.partnerId}/api-keys/${id}`,
      headers: adminA.headers,
    });
    expect(revoke.statusCode).toBe(200);
    const after = await call('/submissions', key);
    expect(after.statusCode).toBe(401);
    expect(errorOf(after).message).toBe(SETUP_MESSAGES.api_key_invalid);
  });

  it('stops answering a key once its institution is suspended', async () => {
    const owner = await signInAs(testApp.app, 'staff');
    const { key } = await newKey(owner, ['programs:read']);
    expect((await call('/programs', key)).statusCode).toBe(200);
    await testApp.db.update(partners).set({ status: 'suspended' }).where(eq(partners.id, owner.partnerId!));
    expect((await call('/programs', key)).statusCode).toBe(401);
  });

  it('refuses a key without the scope with 403', async () => {
    const { key } = await newKey(adminA, ['programs:read']);
    for (const url of ['/submissions', '/decisions', `/submissions/${randomUUID()}`]) {
      const response = await call(url, key);
      expect(response.statusCode, url).toBe(403);
      expect(errorOf(response).message).toBe(SETUP_MESSAGES.api_key_scope_denied);
    }
    expect((await call('/programs', key)).statusCode).toBe(200);
  });

  it('records the last use at most once a minute', async () => {
    const { key, id } = await newKey(adminA, ['programs:read']);
    const lastUsed = async () =>
      (await testApp.db.select().from(partnerApiKeys).where(eq(partnerApiKeys.id, id)))[0]!.last_used_at;
    expect(await lastUsed()).toBeNull();
    await call('/programs', key);
    const first = await lastUsed();
    expect(first).not.toBeNull();
    await call('/programs', key);
    expect(await lastUsed()).toBe(first);
  });

  it('limits each key to its calls per minute, with Retry-After', async () => {
    const { key, id } = await newKey(adminA, ['programs:read']);
    // Fills the window without making 120 calls.
    await testApp.db.insert(rateLimits).values({
      key: `${API_KEY_LIMIT.name}:${id}`,
      count: API_KEY_LIMIT.max,
      reset_at: sql`now() + interval '1 minute'`,
    });
    const response = await call('/programs', key);
    expect(response.statusCode).toBe(429);
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    // Another key of the same institution is not held back.
    expect((await call('/programs', (await newKey(adminA, ['programs:read'])).key)).statusCode).toBe(200);
  });
});

describe('submissions', () => {
  it("lists only the key's institution's submissions, newest first, paged and filtered", async () => {
    const { key } = await newKey(adminA, ['submissions:read']);
    const cycleId = await insertTestCycle(testApp.db, adminA.partnerId!);
    const oldest = await insertSubmission(adminA.partnerId!, { created_at: '2026-01-01T00:00:00Z' });
    const middle = await insertSubmission(adminA.partnerId!, {
      created_at: '2026-02-01T00:00:00Z',
      status: 'under_review',
      cycle_id: cycleId,
    });
    const newest = await insertSubmission(adminA.partnerId!, { created_at: '2026-03-01T00:00:00Z' });
    const foreign = await insertSubmission(adminB.partnerId!);

    const first = (await call('/submissions?limit=2', key)).json() as { data: PartnerApiSubmissionPage };
    expect(first.data.items.map((s) => s.id)).toEqual([newest.id, middle.id]);
    expect(first.data.next_cursor).not.toBeNull();
    const second = (
      await call(`/submissions?limit=2&cursor=${encodeURIComponent(first.data.next_cursor!)}`, key)
    ).json() as { data: PartnerApiSubmissionPage };
    expect(second.data.items.map((s) => s.id)).toEqual([oldest.id]);
    expect(second.data.next_cursor).toBeNull();
    expect(JSON.stringify([first, second])).not.toContain(foreign.id);

    const filtered = (await call(`/submissions?status=under_review&cycle_id=${cycleId}`, key)).json() as {
      data: PartnerApiSubmissionPage;
    };
    expect(filtered.data.items.map((s) => s.id)).toEqual([middle.id]);
    expect(filtered.data.items[0]?.answers).toEqual({ motivation: 'I love engineering.' });
  });

  it('filters by last change', async () => {
    const { key } = await newKey(adminB, ['submissions:read']);
    await insertSubmission(adminB.partnerId!, { updated_at: '2020-01-01T00:00:00Z' });
    const recent = await insertSubmission(adminB.partnerId!, { updated_at: '2030-01-01T00:00:00Z' });
    const page = (await call('/submissions?updated_since=2029-06-01T00:00:00Z', key)).json() as {
      data: PartnerApiSubmissionPage;
    };
    expect(page.data.items.map((s) => s.id)).toEqual([recent.id]);
  });

  it("answers one submission, and 404 for another institution's", async () => {
    const { key } = await newKey(adminA, ['submissions:read']);
    const mine = await insertSubmission(adminA.partnerId!);
    const theirs = await insertSubmission(adminB.partnerId!);
    const response = await call(`/submissions/${mine.id}`, key);
    expect(response.statusCode).toBe(200);
    expect((response.json() as { data: { reference: string } }).data.reference).toBe(mine.reference);
    expect((await call(`/submissions/${theirs.id}`, key)).statusCode).toBe(404);
    expect((await call(`/submissions/${randomUUID()}`, key)).statusCode).toBe(404);
  });

  it('refuses bad paging and filters with 400', async () => {
    const { key } = await newKey(adminA, ['submissions:read']);
    for (const query of [
      'limit=0',
      'limit=500',
      'status=lost',
      'cycle_id=x',
      'updated_since=yesterday',
      'cursor=abc',
    ]) {
      expect((await call(`/submissions?${query}`, key)).statusCode, query).toBe(400);
    }
  });
});

describe('decisions and programs', () => {
  it("lists the key's institution's decisions only", async () => {
    const { key } = await newKey(adminA, ['decisions:read']);
    const submission = await insertSubmission(adminA.partnerId!);
    const foreignSubmission = await insertSubmission(adminB.partnerId!);
    const [decision] = await testApp.db
      .insert(decisions)
      .values({
        submission_id: submission.id,
        partner_id: adminA.partnerId!,
        state: 'accepted',
        program_name: 'BSc Computer Science',
        university_name: 'Test Institution',
        released_at: '2026-04-01T00:00:00Z',
      })
      .returning();
    await testApp.db.insert(decisions).values({
      submission_id: foreignSubmission.id,
      partner_id: adminB.partnerId!,
      state: 'rejected',
      program_name: 'BA Law',
      university_name: 'Other',
    });
    const response = await call('/decisions', key);
    expect(response.statusCode).toBe(200);
    const { data } = response.json() as { data: { items: { id: string; state: string; released_at: string }[] } };
    expect(data.items).toEqual([
      expect.objectContaining({ id: decision!.id, state: 'accepted', released_at: '2026-04-01T00:00:00.000Z' }),
    ]);
  });

  it("lists the key's institution's programs with their campuses", async () => {
    const { key } = await newKey(adminA, ['programs:read']);
    const [campus] = await testApp.db
      .insert(campuses)
      .values({ partner_id: adminA.partnerId!, name: 'Main campus', city: 'Kigali', country: 'RW' })
      .returning();
    const [program] = await testApp.db
      .insert(programs)
      .values({
        partner_id: adminA.partnerId!,
        name: 'BSc Computer Science',
        level: 'undergraduate',
        field: 'technology',
        duration_months: 48,
        language: 'en',
      })
      .returning();
    await testApp.db.insert(programCampuses).values({ program_id: program!.id, campus_id: campus!.id });
    await testApp.db.insert(programs).values({
      partner_id: adminB.partnerId!,
      name: 'BA Law',
      level: 'undergraduate',
      field: 'law',
      duration_months: 36,
      language: 'fr',
    });
    const response = await call('/programs', key);
    expect(response.statusCode).toBe(200);
    const { data } = response.json() as { data: { id: string; campus_ids: string[] }[] };
    expect(data).toEqual([expect.objectContaining({ id: program!.id, campus_ids: [campus!.id] })]);
  });
});

describe('documentation', () => {
  it('documents the partner API with its bearer scheme', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/docs/json' });
    const doc = response.json() as {
      components: { securitySchemes: Record<string, { scheme: string }> };
      paths: Record<string, { get: { security: object[]; tags: string[] } }>;
    };
    expect(doc.components.securitySchemes.partnerApiKey?.scheme).toBe('bearer');
    const route = doc.paths['/api/v1/partner-api/submissions']!.get;
    expect(route.tags).toEqual(['partner-api']);
    expect(route.security).toEqual([{ partnerApiKey: [] }]);
  });
});
