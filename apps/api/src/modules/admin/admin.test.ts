import { randomBytes, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { auditLog, emailOutbox, partners, staff, students, submissions, users } from '../../db/schema/index.ts';
import { createTestApp, useTestApp } from '../../test/app.ts';
import { expectAccess, signInAs, type TestAccount } from '../../test/auth.ts';
import { createTestDatabase } from '../../test/database.ts';
import { insertTestCampus } from '../../test/setup-rows.ts';

type NewPartner = typeof partners.$inferInsert;
let admin: TestAccount;

function partner(overrides: Partial<NewPartner> = {}): NewPartner {
  const slug = overrides.slug ?? `inst-${randomBytes(5).toString('hex')}`;
  return {
    slug,
    name: slug,
    status: 'pending',
    address_city: 'Kigali',
    address_country: 'RW',
    institution_type: 'private',
    year_established: 2001,
    region: 'africa',
    size: 'medium',
    setting: 'urban',
    contact_email: `office@${slug}.example`,
    ...overrides,
  };
}

async function insertPartner(overrides: Partial<NewPartner> = {}) {
  const [row] = await testApp.db.insert(partners).values(partner(overrides)).returning();
  return row!;
}

/** A staff account of the institution, as institution sign-up makes its first one. */
async function insertContact(partnerId: string, values: { language: string; email?: string; primary?: boolean }) {
  const email = values.email ?? `contact-${randomBytes(5).toString('hex')}@uni.example`;
  const [user] = await testApp.db
    .insert(users)
    .values({ email, type: 'staff', partner_id: partnerId, contact_verified: true })
    .returning({ id: users.id });
  await testApp.db.insert(staff).values({
    user_id: user!.id,
    partner_id: partnerId,
    email,
    first_name: 'Claudine',
    last_name: 'Mukeshimana',
    phone: '+250788000111',
    language: values.language,
    role: 'Registrar',
    permissions: ['all'],
    primary_contact: values.primary ?? true,
  });
  return email;
}

async function insertStudent(first: string, last: string, email: string) {
  const [user] = await testApp.db
    .insert(users)
    .values({ email, type: 'student', contact_verified: true })
    .returning({ id: users.id });
  const [row] = await testApp.db
    .insert(students)
    .values({ user_id: user!.id, email, first_name: first, last_name: last })
    .returning({ id: students.id });
  return row!.id;
}

async function insertSubmission(values: Partial<typeof submissions.$inferInsert> & { partner_id: string }) {
  await testApp.db.insert(submissions).values({
    reference: `KZ-${randomBytes(4).toString('hex').toUpperCase()}`,
    campus_id: await insertTestCampus(testApp.db, values.partner_id),
    ...values,
  });
}

const inject = (method: 'GET' | 'POST', url: string, payload?: object) =>
  testApp.app.inject({ method, url, headers: admin.headers, ...(payload ? { payload } : {}) });

const testApp = useTestApp();

beforeAll(async () => {
  admin = await signInAs(testApp.app, 'admin');
});

describe('authorization', () => {
  const somePartner = randomUUID();
  it.each([
    { method: 'GET', url: '/api/v1/admin/institutions?status=pending' },
    { method: 'GET', url: '/api/v1/admin/universities' },
    { method: 'GET', url: '/api/v1/admin/applications' },
    { method: 'GET', url: '/api/v1/admin/analytics' },
    { method: 'GET', url: '/api/v1/admin/audit-log' },
    { method: 'GET', url: '/api/v1/admin/jobs' },
  ] as const)('$method $url: admins only', async (route) => {
    await expectAccess(testApp.app, route, { anonymous: 401, student: 403, staff: 403, admin: 200 });
  });

  it('approve and reject: admins only (an admin reaches the unknown id and gets 404)', async () => {
    await expectAccess(
      testApp.app,
      { method: 'POST', url: `/api/v1/admin/institutions/${somePartner}/approve` },
      { anonymous: 401, student: 403, staff: 403, admin: 404 },
    );
    await expectAccess(
      testApp.app,
      {
        method: 'POST',
        url: `/api/v1/admin/institutions/${somePartner}/reject`,
        payload: { reason: 'Accreditation documents are missing.' },
      },
      { anonymous: 401, student: 403, staff: 403, admin: 404 },
    );
  });

  it('retrying a job: admins only; an unknown job or queue is 404, a malformed one 400', async () => {
    await expectAccess(
      testApp.app,
      { method: 'POST', url: `/api/v1/admin/jobs/email.send/${randomUUID()}/retry` },
      { anonymous: 401, student: 403, staff: 403, admin: 404 },
    );
    const { headers } = await signInAs(testApp.app, 'admin');
    for (const url of [
      `/api/v1/admin/jobs/not.a.queue/${randomUUID()}/retry`,
      `/api/v1/admin/jobs/email.send/${randomUUID()}/retry`,
    ]) {
      expect((await testApp.app.inject({ method: 'POST', url, headers })).statusCode).toBe(404);
    }
    for (const url of [
      '/api/v1/admin/jobs/email.send/12/retry',
      `/api/v1/admin/jobs/DROP%20TABLE/${randomUUID()}/retry`,
    ]) {
      const response = await testApp.app.inject({ method: 'POST', url, headers });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.status).toBe('INVALID_ARGUMENT');
    }
    const page = await testApp.app.inject({ method: 'GET', url: '/api/v1/admin/jobs?page=0', headers });
    expect(page.statusCode).toBe(400);
  });

  it('refuses a student or staff member even with a valid decision, and changes nothing', async () => {
    const target = await insertPartner();
    for (const type of ['student', 'staff'] as const) {
      const { headers } = await signInAs(testApp.app, type);
      const response = await testApp.app.inject({
        method: 'POST',
        url: `/api/v1/admin/institutions/${target.id}/approve`,
        headers,
      });
      expect(response.statusCode).toBe(403);
    }
    const [row] = await testApp.db.select().from(partners).where(eq(partners.id, target.id));
    expect(row!.status).toBe('pending');
  });
});

describe('GET /admin/institutions', () => {
  it('lists institutions of a status with their submitted details and primary contact, newest first', async () => {
    const older = await insertPartner({
      name: 'Older Pending Institute',
      created_at: '2026-01-01T00:00:00Z',
      contact_website: 'https://older.example',
      accreditation_body: 'Higher Education Council',
      accreditation_number: 'HEC-42',
      program_count: 12,
      year_established: 1999,
    });
    await insertContact(older.id, { language: 'fr', email: 'registrar@older.example' });
    // A second staff member who is not the primary contact is never shown as the contact.
    await insertContact(older.id, { language: 'en', email: 'staff@older.example', primary: false });
    const newer = await insertPartner({ name: 'Newer Pending Institute', created_at: '2026-02-01T00:00:00Z' });
    await insertPartner({ name: 'Approved Elsewhere', status: 'approved' });

    const response = await inject('GET', '/api/v1/admin/institutions?status=pending&q=pending%20institute');
    expect(response.statusCode).toBe(200);
    const { data } = response.json();
    expect(data.total).toBe(2);
    expect(data.items.map((i: { id: string }) => i.id)).toEqual([newer.id, older.id]);
    expect(data.items[1]).toEqual({
      id: older.id,
      name: 'Older Pending Institute',
      institution_type: 'private',
      year_established: 1999,
      city: 'Kigali',
      country: 'RW',
      website: 'https://older.example',
      contact_email: older.contact_email,
      contact_phone: null,
      accreditation_body: 'Higher Education Council',
      accreditation_number: 'HEC-42',
      program_count: 12,
      status: 'pending',
      published: false,
      review_reason: null,
      reviewed_at: null,
      created_at: expect.stringMatching(/^2026-01-01/),
      primary_contact: {
        name: 'Claudine Mukeshimana',
        job_title: 'Registrar',
        email: 'registrar@older.example',
        phone: '+250788000111',
      },
    });
    expect(data.items[0].primary_contact).toBeNull();
  });

  it('rejects an unknown status', async () => {
    expect((await inject('GET', '/api/v1/admin/institutions?status=sleeping')).statusCode).toBe(400);
  });
});

describe('approving and rejecting', () => {
  it('approves a pending institution: review fields, an email in the contact’s language, an audit row', async () => {
    const target = await insertPartner({ name: 'Université des Collines' });
    const contactEmail = await insertContact(target.id, { language: 'fr' });

    const response = await inject('POST', `/api/v1/admin/institutions/${target.id}/approve`);
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({ id: target.id, status: 'approved', review_reason: null });

    const [row] = await testApp.db.select().from(partners).where(eq(partners.id, target.id));
    expect(row).toMatchObject({ status: 'approved', reviewed_by: admin.id, review_reason: null });
    expect(row!.reviewed_at).not.toBeNull();

    const mail = await testApp.db.select().from(emailOutbox).where(eq(emailOutbox.to, contactEmail));
    expect(mail).toHaveLength(1);
    expect(mail[0]).toMatchObject({ template: 'institution_approved', language: 'fr', from: 'info' });
    expect(mail[0]!.subject).not.toMatch(/^email\./);
    expect(mail[0]!.text).toContain('Université des Collines');
    expect(mail[0]!.text).toContain('http://localhost:3000/login');

    const audit = await testApp.db.select().from(auditLog).where(eq(auditLog.target_id, target.id));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actor_id: admin.id,
      action: 'institution.approved',
      target_type: 'partner',
      details: { name: 'Université des Collines', notified: contactEmail },
    });
  });

  it('rejects with a trimmed reason, emailed in the contact’s language and kept in the audit log', async () => {
    const target = await insertPartner({ name: 'Ishuri Rikuru' });
    const contactEmail = await insertContact(target.id, { language: 'rw' });
    const reason = 'The accreditation number could not be verified.';

    const response = await inject('POST', `/api/v1/admin/institutions/${target.id}/reject`, {
      reason: `  ${reason}  `,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({ status: 'rejected', review_reason: reason });

    const [row] = await testApp.db.select().from(partners).where(eq(partners.id, target.id));
    expect(row).toMatchObject({ status: 'rejected', reviewed_by: admin.id, review_reason: reason });

    const [mail] = await testApp.db.select().from(emailOutbox).where(eq(emailOutbox.to, contactEmail));
    expect(mail).toMatchObject({ template: 'institution_rejected', language: 'rw' });
    expect(mail!.text).toContain(reason);
    expect(mail!.text).toContain('http://localhost:3000/about/partner');

    const [audit] = await testApp.db.select().from(auditLog).where(eq(auditLog.target_id, target.id));
    expect(audit).toMatchObject({ action: 'institution.rejected', details: { reason, name: 'Ishuri Rikuru' } });
  });

  it('writes to the institution’s own address when it has no primary contact', async () => {
    const target = await insertPartner();
    expect((await inject('POST', `/api/v1/admin/institutions/${target.id}/approve`)).statusCode).toBe(200);
    const [mail] = await testApp.db.select().from(emailOutbox).where(eq(emailOutbox.to, target.contact_email!));
    expect(mail).toMatchObject({ template: 'institution_approved', language: 'en' });
  });

  it.each([
    [{}, 'A reason is required'],
    [{ reason: '    ' }, 'A reason is required'],
    [{ reason: ' too short ' }, 'The reason must be at least 10 characters'],
    [{ reason: 'x'.repeat(1001) }, 'The reason must be at most 1000 characters'],
  ])('refuses a rejection without a proper reason (%j) and changes nothing', async (payload, message) => {
    const target = await insertPartner();
    const response = await inject('POST', `/api/v1/admin/institutions/${target.id}/reject`, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({
      status: 'INVALID_ARGUMENT',
      details: [{ path: 'reason', message }],
    });
    const [row] = await testApp.db.select().from(partners).where(eq(partners.id, target.id));
    expect(row).toMatchObject({ status: 'pending', reviewed_at: null, reviewed_by: null, review_reason: null });
    expect(await testApp.db.$count(emailOutbox, eq(emailOutbox.to, target.contact_email!))).toBe(0);
    expect(await testApp.db.$count(auditLog, eq(auditLog.target_id, target.id))).toBe(0);
  });

  it('answers 409 to a second decision, whichever it is, and keeps the first', async () => {
    const target = await insertPartner();
    expect((await inject('POST', `/api/v1/admin/institutions/${target.id}/approve`)).statusCode).toBe(200);
    for (const attempt of [
      inject('POST', `/api/v1/admin/institutions/${target.id}/approve`),
      inject('POST', `/api/v1/admin/institutions/${target.id}/reject`, { reason: 'Changed my mind about it.' }),
    ]) {
      const response = await attempt;
      expect(response.statusCode).toBe(409);
      expect(response.json().error).toMatchObject({
        status: 'ABORTED',
        message: 'This institution has already been reviewed',
      });
    }
    const [row] = await testApp.db.select().from(partners).where(eq(partners.id, target.id));
    expect(row!.status).toBe('approved');
    expect(await testApp.db.$count(auditLog, eq(auditLog.target_id, target.id))).toBe(1);
    expect(await testApp.db.$count(emailOutbox, eq(emailOutbox.to, target.contact_email!))).toBe(1);
  });

  it('lets only one of two simultaneous decisions win', async () => {
    const target = await insertPartner();
    const [first, second] = await Promise.all([
      inject('POST', `/api/v1/admin/institutions/${target.id}/approve`),
      inject('POST', `/api/v1/admin/institutions/${target.id}/reject`, { reason: 'Incomplete application data.' }),
    ]);
    expect([first!.statusCode, second!.statusCode].sort()).toEqual([200, 409]);
    expect(await testApp.db.$count(auditLog, eq(auditLog.target_id, target.id))).toBe(1);
  });

  it('does not decide a rejected or suspended institution', async () => {
    for (const status of ['rejected', 'suspended'] as const) {
      const target = await insertPartner({ status });
      expect((await inject('POST', `/api/v1/admin/institutions/${target.id}/approve`)).statusCode).toBe(409);
    }
  });

  it('answers 400 to an id that is not a uuid', async () => {
    expect((await inject('POST', '/api/v1/admin/institutions/not-a-uuid/approve')).statusCode).toBe(400);
  });
});

describe('GET /admin/universities', () => {
  let tag: string;
  beforeAll(async () => {
    tag = randomBytes(3).toString('hex');
    const rows = Array.from({ length: 25 }, (_, i) =>
      partner({
        name: `Zebra ${tag} College ${String(i).padStart(2, '0')}`,
        status: i % 5 === 0 ? 'pending' : 'approved',
      }),
    );
    rows.push(partner({ name: `Université de Zébré ${tag}`, status: 'approved' }));
    await testApp.db.insert(partners).values(rows);
  });

  it('searches by name (accent- and case-blind), pages, and counts every match', async () => {
    const first = (await inject('GET', `/api/v1/admin/universities?q=ZEBRA%20${tag}&page=1&page_size=10`)).json().data;
    expect(first.total).toBe(26);
    expect(first.items).toHaveLength(10);
    const third = (await inject('GET', `/api/v1/admin/universities?q=zebra%20${tag}&page=3&page_size=10`)).json().data;
    expect(third.items).toHaveLength(6);
    expect(third).toMatchObject({ total: 26, page: 3, page_size: 10 });
    const seen = new Set<string>();
    for (const page of [1, 2, 3]) {
      const { data } = (
        await inject('GET', `/api/v1/admin/universities?q=zebra%20${tag}&page=${page}&page_size=10`)
      ).json();
      for (const item of data.items) seen.add(item.id);
    }
    expect(seen.size).toBe(26);

    const accented = (await inject('GET', `/api/v1/admin/universities?q=universite%20de%20zebre`)).json().data;
    expect(accented.items.map((i: { name: string }) => i.name)).toContain(`Université de Zébré ${tag}`);
  });

  it('filters by status', async () => {
    const { data } = (await inject('GET', `/api/v1/admin/universities?q=zebra%20${tag}&status=pending`)).json();
    expect(data.total).toBe(5);
    expect(data.items.every((i: { status: string }) => i.status === 'pending')).toBe(true);
  });

  it('treats LIKE wildcards in the search as plain characters', async () => {
    const { data } = (await inject('GET', `/api/v1/admin/universities?q=%25%25%25`)).json();
    expect(data.total).toBe(0);
  });

  it('refuses a page size above 100', async () => {
    expect((await inject('GET', '/api/v1/admin/universities?page_size=101')).statusCode).toBe(400);
  });
});

describe('GET /admin/applications', () => {
  let tag: string;
  beforeAll(async () => {
    tag = randomBytes(3).toString('hex');
    const uni = await insertPartner({ name: `Lakeside ${tag} University`, status: 'approved' });
    const other = await insertPartner({ name: `Hillside ${tag} Polytechnic`, status: 'approved' });
    const amani = await insertStudent('Amani', `Uwase${tag}`, `amani.${tag}@example.com`);
    const eric = await insertStudent('Éric', `Niyonzima${tag}`, `eric.${tag}@example.com`);
    await insertSubmission({ partner_id: uni.id, student_id: amani, reference: `KZ-${tag}-A1`, paid: true });
    await insertSubmission({ partner_id: other.id, student_id: amani, reference: `KZ-${tag}-A2`, status: 'accepted' });
    await insertSubmission({ partner_id: uni.id, student_id: eric, reference: `KZ-${tag}-E1` });
    // Submitted by staff for an applicant without a student account: the profile snapshot names them.
    await insertSubmission({
      partner_id: other.id,
      reference: `KZ-${tag}-S1`,
      submitted_by_staff: true,
      profile: { fullName: `Walk-in ${tag}`, email: `walkin.${tag}@example.com` },
    });
  });

  it('lists submissions with applicant, university, status and payment', async () => {
    const { data } = (await inject('GET', `/api/v1/admin/applications?q=KZ-${tag}-A1`)).json();
    expect(data.total).toBe(1);
    expect(data.items[0]).toEqual({
      id: expect.any(String),
      reference: `KZ-${tag}-A1`,
      applicant_name: `Amani Uwase${tag}`,
      applicant_email: `amani.${tag}@example.com`,
      partner_id: expect.any(String),
      university: `Lakeside ${tag} University`,
      status: 'submitted',
      paid: true,
      created_at: expect.any(String),
    });
  });

  it.each([
    ['reference', (t: string) => `kz-${t}-`, 4],
    ['applicant name, accents folded', (t: string) => `eric niyonzima${t}`, 1],
    ['applicant email', (t: string) => `amani.${t}@`, 2],
    ['university name', (t: string) => `hillside ${t}`, 2],
    ['a staff-submitted applicant', (t: string) => `walk-in ${t}`, 1],
  ])('searches by %s', async (_, query, expected) => {
    const { data } = (await inject('GET', `/api/v1/admin/applications?q=${encodeURIComponent(query(tag))}`)).json();
    expect(data.total).toBe(expected);
  });

  it('filters by status and pages with the total', async () => {
    const accepted = (await inject('GET', `/api/v1/admin/applications?q=kz-${tag}&status=accepted`)).json().data;
    expect(accepted.items.map((i: { reference: string }) => i.reference)).toEqual([`KZ-${tag}-A2`]);
    const paged = (await inject('GET', `/api/v1/admin/applications?q=kz-${tag}&page=2&page_size=3`)).json().data;
    expect(paged).toMatchObject({ total: 4, page: 2, page_size: 3 });
    expect(paged.items).toHaveLength(1);
  });
});

describe('GET /admin/analytics', () => {
  it('counts institutions, students and applications, and submissions per UTC day for 30 days', async () => {
    // A database of its own, so the counts are exactly the rows inserted here.
    const own = await createTestDatabase();
    const ownApp = await createTestApp(own);
    try {
      const ownAdmin = await signInAs(ownApp, 'admin');
      const statuses = ['pending', 'pending', 'approved', 'approved', 'approved', 'rejected', 'suspended'] as const;
      const rows = await own.db
        .insert(partners)
        .values(statuses.map((status) => partner({ status })))
        .returning({ id: partners.id });
      await signInAs(ownApp, 'student');
      const [studentRow] = await own.db.select({ id: students.id }).from(students).limit(1);
      const at = (daysAgo: number) => sql`now() - ${daysAgo} * interval '1 day'`;
      const values = [
        { days: 0, status: 'submitted' },
        { days: 0, status: 'accepted' },
        { days: 2, status: 'submitted' },
        { days: 29, status: 'rejected' },
        // Older than the 30 days: counted by status, not in the chart.
        { days: 45, status: 'waitlisted' },
      ] as const;
      for (const value of values) {
        await own.db.insert(submissions).values({
          reference: `KZ-AN-${randomBytes(3).toString('hex')}`,
          campus_id: await insertTestCampus(own.db, rows[0]!.id),
          partner_id: rows[0]!.id,
          student_id: studentRow!.id,
          status: value.status,
          created_at: at(value.days) as unknown as string,
        });
      }

      const response = await ownApp.inject({ url: '/api/v1/admin/analytics', headers: ownAdmin.headers });
      expect(response.statusCode).toBe(200);
      const { data } = response.json();
      expect(data.institutions_by_status).toEqual({ pending: 2, approved: 3, rejected: 1, suspended: 1 });
      expect(data.students).toBe(1);
      expect(data.applications_by_status).toEqual({
        submitted: 2,
        under_review: 0,
        accepted: 1,
        rejected: 1,
        waitlisted: 1,
      });
      expect(data.submissions_per_day).toHaveLength(30);
      const today = new Date().toISOString().slice(0, 10);
      const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
      expect(data.submissions_per_day.at(-1)).toEqual({ date: today, count: 2 });
      expect(data.submissions_per_day.at(-3)).toEqual({ date: day(2), count: 1 });
      expect(data.submissions_per_day[0]).toEqual({ date: day(29), count: 1 });
      expect(data.submissions_per_day.reduce((sum: number, d: { count: number }) => sum + d.count, 0)).toBe(4);
      const dates = data.submissions_per_day.map((d: { date: string }) => d.date);
      expect([...dates].sort()).toEqual(dates);
    } finally {
      await ownApp.close();
      await own.close();
    }
  });
});

describe('GET /admin/audit-log', () => {
  it('shows recent admin actions newest first with the actor’s email, paged', async () => {
    const first = await insertPartner({ name: 'Audit First' });
    const second = await insertPartner({ name: 'Audit Second' });
    await inject('POST', `/api/v1/admin/institutions/${first.id}/approve`);
    await inject('POST', `/api/v1/admin/institutions/${second.id}/reject`, {
      reason: 'Not an accredited institution.',
    });

    const { data } = (await inject('GET', '/api/v1/admin/audit-log?page=1&page_size=2')).json();
    expect(data.total).toBeGreaterThanOrEqual(2);
    expect(data.items).toHaveLength(2);
    expect(data.items[0]).toMatchObject({
      action: 'institution.rejected',
      target_type: 'partner',
      target_id: second.id,
      actor_email: admin.email,
      details: { name: 'Audit Second', reason: 'Not an accredited institution.' },
    });
    expect(data.items[1]).toMatchObject({ action: 'institution.approved', target_id: first.id });
  });
});
