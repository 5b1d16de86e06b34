import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  AUTH_MESSAGES,
  defaultPartnerSettings,
  PARTNER_MESSAGES,
  StoredPartnerSettingsSchema,
  VALIDATION_MESSAGES,
  type PartnerSignUpInput,
  GENERIC_MESSAGES,
} from '@kaminuza/shared';
import { emailOutbox, partners, partnerSettings, staff, users, verifications } from '../../db/schema/index.ts';
import { useTestApp } from '../../test/app.ts';
import { cookieHeader, expectAccess, signInAs } from '../../test/auth.ts';

const testApp = useTestApp();

const PASSWORD = 'Str0ng#Password';
const newIp = () => `10.${randomBytes(3).join('.')}`;
const uniqueEmail = (label: string) => `${label}-${randomBytes(4).toString('hex')}@example.com`;
const errorOf = (response: { json(): unknown }) =>
  (response.json() as { error: { status: string; message: string; details?: { path: string; message: string }[] } })
    .error;

function institution(overrides: Partial<PartnerSignUpInput> = {}): PartnerSignUpInput {
  return {
    email: uniqueEmail('registrar'),
    password: PASSWORD,
    institution_name: `Lake Kivu Institute ${randomBytes(3).toString('hex')}`,
    institution_type: 'private',
    year_established: 1998,
    contact_first_name: 'Diane',
    contact_last_name: 'Mukeshimana',
    job_title: 'Registrar',
    work_email: 'Admissions@LakeKivu.example',
    phone_country: 'RW',
    phone: '0788123456',
    city: 'Rubavu',
    country: 'RW',
    accept_terms: true,
    website: 'https://lakekivu.example',
    accreditation_body: 'Higher Education Council',
    accreditation_number: 'HEC-042',
    program_count: 12,
    ...overrides,
  };
}

const signUp = (payload: object, ip = newIp()) =>
  testApp.app.inject({ method: 'POST', url: '/api/v1/auth/sign-up/partner', payload, remoteAddress: ip });

async function staffOf(email: string) {
  const [row] = await testApp.database.db
    .select({ staff, partner: partners, user: users })
    .from(users)
    .innerJoin(staff, eq(staff.user_id, users.id))
    .innerJoin(partners, eq(partners.id, staff.partner_id))
    .where(eq(users.email, email.toLowerCase()));
  return row;
}

/** Verifies the address through its emailed link and signs in; returns the session cookie. */
async function verifyAndSignIn(email: string): Promise<string> {
  const [mail] = await testApp.database.db
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.to, email.toLowerCase()), eq(emailOutbox.template, 'email_verification')));
  const code = new URL(String(mail!.data.link)).searchParams.get('code');
  const verified = await testApp.app.inject({ method: 'POST', url: '/api/v1/auth/verify-email', payload: { code } });
  expect(verified.statusCode).toBe(200);
  return cookieHeader(verified.headers['set-cookie']);
}

async function approvedPartner(): Promise<string> {
  const admin = await signInAs(testApp.app, 'staff');
  return admin.partnerId!;
}

describe('POST /auth/sign-up/partner (new institution)', () => {
  it('creates a pending, unpublished institution with default settings and its Admin, and sends both emails', async () => {
    const input = institution();
    const response = await signUp(input);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ data: { email: input.email, verification_sent: true } });
    expect(response.headers['set-cookie']).toBeUndefined();

    const row = await staffOf(input.email);
    expect(row?.user).toMatchObject({ type: 'staff', contact_verified: false, terms_accepted: true });
    expect(row?.user.partner_id).toBe(row?.partner.id);
    expect(row?.partner).toMatchObject({
      name: input.institution_name,
      status: 'pending',
      published: false,
      institution_type: 'private',
      year_established: 1998,
      address_city: 'Rubavu',
      address_country: 'RW',
      region: 'africa',
      contact_email: 'admissions@lakekivu.example',
      contact_phone: '0788123456',
      contact_website: 'https://lakekivu.example',
      accreditation_body: 'Higher Education Council',
      accreditation_number: 'HEC-042',
      program_count: 12,
      reviewed_at: null,
    });
    expect(row?.staff).toMatchObject({
      role: 'Admin',
      permissions: ['all'],
      primary_contact: true,
      approval_status: 'approved',
      active: true,
      first_name: 'Diane',
      last_name: 'Mukeshimana',
      job_title: 'Registrar',
      work_email: 'admissions@lakekivu.example',
      language: 'en',
      currency: 'USD',
      timezone: 'UTC',
    });

    const [settings] = await testApp.database.db
      .select()
      .from(partnerSettings)
      .where(eq(partnerSettings.partner_id, row!.partner.id));
    const { general, theme, admissions } = settings!;
    expect(StoredPartnerSettingsSchema.parse({ general, theme, admissions })).toEqual(defaultPartnerSettings());
    expect(general).toEqual({
      default_language: 'en',
      supported_languages: ['en'],
      default_currency: 'USD',
      timezone: 'UTC',
      current_cycle_id: null,
    });
    expect(admissions).toMatchObject({
      auto_accept_enabled: false,
      auto_accept_threshold: 90,
      auto_reject_enabled: false,
      auto_reject_threshold: 30,
      application_fee: 100,
      application_fee_currency: 'USD',
      admission_letter: { template: '', signature_name: '', signature_title: '', signature_image: null },
      custom_stages: [],
    });
    expect(Object.keys(theme).sort()).toEqual(['borderRadius', 'colors', 'effects', 'layout', 'spacing', 'typography']);

    const sent = await testApp.database.db.select().from(emailOutbox).where(eq(emailOutbox.to, input.email));
    expect(sent.map((e) => e.template).sort()).toEqual(['email_verification', 'welcome']);
    expect(sent[0]?.data.name).toBe('Diane');
  });

  it('derives the region from the country and gives two institutions of one name distinct slugs', async () => {
    const name = `Twin College ${randomBytes(3).toString('hex')}`;
    const first = institution({
      institution_name: name,
      country: 'FR',
      city: 'Lyon',
      phone_country: 'FR',
      phone: '0612345678',
    });
    const second = institution({ institution_name: name, country: 'BR', city: 'Recife', phone: '+250788123456' });
    expect((await signUp(first)).statusCode).toBe(201);
    expect((await signUp(second)).statusCode).toBe(201);
    const a = (await staffOf(first.email))!.partner;
    const b = (await staffOf(second.email))!.partner;
    expect([a.region, b.region]).toEqual(['europe', 'south_america']);
    expect(a.slug).not.toBe(b.slug);
  });

  it('signs in only after verification, and the session tells the institution and membership state', async () => {
    const input = institution();
    await signUp(input);
    const early = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/auth/sign-in',
      payload: { email: input.email, password: PASSWORD },
      remoteAddress: newIp(),
    });
    expect(early.statusCode).toBe(403);
    expect(errorOf(early)).toMatchObject({ message: AUTH_MESSAGES.verify_first, reason: 'verify_first' });

    const cookie = await verifyAndSignIn(input.email);
    const session = await testApp.app.inject({ method: 'GET', url: '/api/v1/auth/session', headers: { cookie } });
    expect(session.json().data).toMatchObject({
      type: 'staff',
      first_name: 'Diane',
      partner_name: input.institution_name,
      partner_status: 'pending',
      partner_review_reason: null,
      staff_approval_status: 'approved',
    });

    // A pending institution's staff cannot use the partner routes yet.
    const partnerId = (await staffOf(input.email))!.partner.id;
    const profile = await testApp.app.inject({
      method: 'GET',
      url: `/api/v1/partners/${partnerId}/profile`,
      headers: { cookie },
    });
    expect(profile.statusCode).toBe(403);
    expect(errorOf(profile).message).toBe(PARTNER_MESSAGES.institution_not_approved);
  });

  it('answers the student sign-up messages for a taken email, and creates nothing', async () => {
    const input = institution();
    expect((await signUp(input)).statusCode).toBe(201);
    const again = await signUp({ ...input, email: input.email.toUpperCase(), institution_name: 'Other' });
    expect(again.statusCode).toBe(409);
    expect(errorOf(again)).toEqual({ status: 'ABORTED', message: AUTH_MESSAGES.email_taken });
    expect(await testApp.database.db.$count(partners, eq(partners.name, 'Other'))).toBe(0);
  });

  it('refuses a common password that meets the rule, and creates nothing', async () => {
    const input = institution({ password: 'Welcome@123' });
    const response = await signUp(input);
    expect(response.statusCode).toBe(400);
    expect(errorOf(response)).toEqual({
      status: 'INVALID_ARGUMENT',
      message: AUTH_MESSAGES.weak_password,
      details: [{ path: 'password', message: AUTH_MESSAGES.weak_password }],
    });
    expect(await testApp.database.db.$count(partners, eq(partners.name, input.institution_name!))).toBe(0);
  });

  it('answers 400 with the field messages (weak password, invalid email, phone per country) and creates nothing', async () => {
    const input = institution({
      email: 'not-an-email',
      password: 'weakpass',
      phone_country: 'US',
      phone: '0788123456',
      institution_name: '',
      institution_type: '' as 'public',
      year_established: 3000,
      city: '',
      accept_terms: false as true,
      website: 'lakekivu',
    });
    const response = await signUp(input);
    expect(response.statusCode).toBe(400);
    expect(errorOf(response).details).toEqual(
      expect.arrayContaining([
        { path: 'email', message: VALIDATION_MESSAGES.email_invalid },
        { path: 'password', message: VALIDATION_MESSAGES.password_uppercase },
        { path: 'accept_terms', message: VALIDATION_MESSAGES.terms_required },
        { path: 'website', message: PARTNER_MESSAGES.website_invalid },
      ]),
    );
    // The phone (read in its country) and the fields a new institution needs.
    const second = await signUp({
      ...input,
      email: uniqueEmail('x'),
      password: PASSWORD,
      accept_terms: true,
      website: '',
    });
    expect(errorOf(second).details).toEqual(
      expect.arrayContaining([
        { path: 'phone', message: VALIDATION_MESSAGES.phone_invalid },
        { path: 'institution_name', message: PARTNER_MESSAGES.institution_name_required },
        { path: 'institution_type', message: PARTNER_MESSAGES.institution_type_required },
        { path: 'year_established', message: PARTNER_MESSAGES.year_established_invalid },
        { path: 'city', message: VALIDATION_MESSAGES.city_required },
      ]),
    );
    expect(await testApp.database.db.$count(users, eq(users.email, input.email))).toBe(0);
  });
});

describe('partner sign-up limits', () => {
  it('shares the student sign-up limit per client address', async () => {
    const ip = newIp();
    for (let i = 0; i < 20; i++) await signUp({ email: 'invalid' }, ip);
    const limited = await signUp(institution(), ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    const student = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/auth/sign-up/student',
      payload: { email: 'invalid' },
      remoteAddress: ip,
    });
    expect(student.statusCode).toBe(429);
  });
});

describe('POST /auth/sign-up/partner (joining an institution)', () => {
  it('makes a pending Staff member of the approved institution, without creating one', async () => {
    const partnerId = await approvedPartner();
    const before = await testApp.database.db.$count(partners);
    const input = institution({
      existing_institution_id: partnerId,
      institution_name: '',
      institution_type: undefined,
      year_established: undefined,
      city: '',
      country: '',
    });
    const response = await signUp(input);
    expect(response.statusCode).toBe(201);
    expect(await testApp.database.db.$count(partners)).toBe(before);
    const row = await staffOf(input.email);
    expect(row?.partner.id).toBe(partnerId);
    expect(row?.staff).toMatchObject({
      role: 'Staff',
      permissions: [],
      primary_contact: false,
      approval_status: 'pending',
    });

    const cookie = await verifyAndSignIn(input.email);
    const session = await testApp.app.inject({ method: 'GET', url: '/api/v1/auth/session', headers: { cookie } });
    expect(session.json().data).toMatchObject({ partner_status: 'approved', staff_approval_status: 'pending' });
    const profile = await testApp.app.inject({
      method: 'GET',
      url: `/api/v1/partners/${partnerId}/profile`,
      headers: { cookie },
    });
    expect(profile.statusCode).toBe(403);
    expect(errorOf(profile).message).toBe(PARTNER_MESSAGES.membership_not_approved);
  });

  it('refuses an unknown or unapproved institution id clearly and creates nothing', async () => {
    const [pending] = await testApp.database.db
      .insert(partners)
      .values({
        slug: `pending-${randomBytes(4).toString('hex')}`,
        name: 'Pending College',
        address_city: 'Huye',
        address_country: 'RW',
        institution_type: 'public',
        year_established: 2001,
        region: 'africa',
        size: 'small',
        setting: 'rural',
      })
      .returning({ id: partners.id });
    for (const id of ['7d4f9a52-0f0e-4c3e-9d55-3f1b0c9b1a11', pending!.id]) {
      const input = institution({ existing_institution_id: id });
      const response = await signUp(input);
      expect(response.statusCode).toBe(404);
      expect(errorOf(response)).toEqual({ status: 'NOT_FOUND', message: PARTNER_MESSAGES.institution_not_found });
      expect(await testApp.database.db.$count(users, eq(users.email, input.email))).toBe(0);
      expect(await testApp.database.db.$count(verifications)).toBeGreaterThanOrEqual(0);
    }
  });

  it('lists approved institutions by name for the join search, a page at a time', async () => {
    const partnerId = await approvedPartner();
    const [row] = await testApp.database.db
      .select({ name: partners.name })
      .from(partners)
      .where(eq(partners.id, partnerId));
    const q = row!.name.slice(-8);
    const response = await testApp.app.inject({
      method: 'GET',
      url: `/api/v1/auth/sign-up/partner/institutions?q=${q}`,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual({
      items: [{ id: partnerId, name: row!.name, city: 'Kigali' }],
      page: 1,
      has_more: false,
    });
    const pendingOnly = await testApp.app.inject({
      method: 'GET',
      url: '/api/v1/auth/sign-up/partner/institutions?q=Pending%20College',
    });
    expect(pendingOnly.json().data.items).toEqual([]);
  });

  it('answers 400 to a sign-up body that is not an object', async () => {
    for (const payload of ['null', '[]', '"college"', '7']) {
      const response = await testApp.app.inject({
        method: 'POST',
        url: '/api/v1/auth/sign-up/partner',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expect(response.statusCode, payload).toBe(400);
      expect(errorOf(response)).toMatchObject({ status: 'INVALID_ARGUMENT' });
    }
  });

  it('refuses a NUL in the join search with 400, and keeps serving', async () => {
    for (const q of ['ab%00cd', 'Kig%00', '%00']) {
      const response = await testApp.app.inject({
        method: 'GET',
        url: `/api/v1/auth/sign-up/partner/institutions?q=${q}`,
      });
      expect(response.statusCode, q).toBe(400);
      expect(errorOf(response)).toMatchObject({ status: 'INVALID_ARGUMENT', message: GENERIC_MESSAGES.check_input });
    }
    const after = await testApp.app.inject({
      method: 'GET',
      url: '/api/v1/auth/sign-up/partner/institutions?q=Kigali',
    });
    expect(after.statusCode).toBe(200);
  });
});

describe('partner profile and join requests', () => {
  it('lets the institution read and edit its profile; clients cannot set status or review fields', async () => {
    const member = await signInAs(testApp.app, 'staff');
    const url = `/api/v1/partners/${member.partnerId}/profile`;
    const got = await testApp.app.inject({ method: 'GET', url, headers: member.headers });
    expect(got.statusCode).toBe(200);
    expect(got.json().data).toMatchObject({ id: member.partnerId, status: 'approved', published: false });

    const patched = await testApp.app.inject({
      method: 'PATCH',
      url,
      headers: member.headers,
      payload: {
        description: 'A lakeside campus.',
        published: true,
        contact_website: '',
        fields: ['law', 'business'],
        tuition_min_usd: 1000,
        tuition_max_usd: 5000,
        sat_min: null,
        sat_max: null,
        application_deadline: '2026-09-30',
        status: 'rejected',
        review_reason: 'x',
        reviewed_by: member.id,
        slug: 'taken-over',
        is_demo: true,
      },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().data).toMatchObject({
      description: 'A lakeside campus.',
      published: true,
      contact_website: null,
      fields: ['law', 'business'],
      tuition_min_usd: 1000,
      tuition_max_usd: 5000,
      application_deadline: '2026-09-30',
      status: 'approved',
      review_reason: null,
    });
    const [row] = await testApp.database.db.select().from(partners).where(eq(partners.id, member.partnerId!));
    expect(row).toMatchObject({ status: 'approved', review_reason: null, reviewed_by: null, is_demo: false });
    expect(row?.slug).not.toBe('taken-over');
  });

  it('rejects invalid values and unordered ranges, also against the stored values', async () => {
    const member = await signInAs(testApp.app, 'staff');
    const url = `/api/v1/partners/${member.partnerId}/profile`;
    const bad = await testApp.app.inject({
      method: 'PATCH',
      url,
      headers: member.headers,
      payload: { acceptance_rate: 140, sat_min: 1200, sat_max: null, tuition_min_usd: 9, tuition_max_usd: 1 },
    });
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad).details).toEqual(
      expect.arrayContaining([
        { path: 'acceptance_rate', message: PARTNER_MESSAGES.rate_invalid },
        { path: 'sat_max', message: PARTNER_MESSAGES.sat_invalid },
        { path: 'tuition_max_usd', message: PARTNER_MESSAGES.range_invalid },
      ]),
    );
    const merged = await testApp.app.inject({
      method: 'PATCH',
      url,
      headers: member.headers,
      payload: { tuition_min_usd: 500 },
    });
    expect(merged.statusCode).toBe(400);
    expect(errorOf(merged).message).toBe(PARTNER_MESSAGES.range_invalid);
  });

  it('answers 404 to staff of another institution, for the profile and the join requests', async () => {
    const a = await signInAs(testApp.app, 'staff');
    const b = await signInAs(testApp.app, 'staff');
    for (const request of [
      { method: 'GET' as const, url: `/api/v1/partners/${b.partnerId}/profile` },
      {
        method: 'PATCH' as const,
        url: `/api/v1/partners/${b.partnerId}/profile`,
        payload: { description: 'Mine now' },
      },
      { method: 'GET' as const, url: `/api/v1/partners/${b.partnerId}/staff/requests` },
    ]) {
      const response = await testApp.app.inject({ ...request, headers: a.headers });
      expect(response.statusCode, request.url).toBe(404);
    }
    const [row] = await testApp.database.db.select().from(partners).where(eq(partners.id, b.partnerId!));
    expect(row?.description).toBe('');
  });

  it('denies students, admins and visitors on every partner route', async () => {
    const partnerId = await approvedPartner();
    const staffId = '7d4f9a52-0f0e-4c3e-9d55-3f1b0c9b1a11';
    // A staff member of another institution gets 404: the institution is not theirs to know.
    const denied = { anonymous: 401, student: 403, staff: 404, admin: 403 };
    await expectAccess(testApp.app, { method: 'GET', url: `/api/v1/partners/${partnerId}/profile` }, denied);
    await expectAccess(
      testApp.app,
      { method: 'PATCH', url: `/api/v1/partners/${partnerId}/profile`, payload: { description: 'x' } },
      denied,
    );
    await expectAccess(testApp.app, { method: 'GET', url: `/api/v1/partners/${partnerId}/staff/requests` }, denied);
    await expectAccess(
      testApp.app,
      { method: 'POST', url: `/api/v1/partners/${partnerId}/staff/${staffId}/approve` },
      denied,
    );
    await expectAccess(
      testApp.app,
      { method: 'POST', url: `/api/v1/partners/${partnerId}/staff/${staffId}/decline` },
      denied,
    );
  });

  it("lets an institution's Admin approve or decline join requests; members without 'all' cannot", async () => {
    const admin = await signInAs(testApp.app, 'staff');
    const partnerId = admin.partnerId!;
    const first = institution({ existing_institution_id: partnerId });
    const second = institution({ existing_institution_id: partnerId });
    await signUp(first);
    await signUp(second);
    const base = `/api/v1/partners/${partnerId}/staff`;

    const listed = await testApp.app.inject({ method: 'GET', url: `${base}/requests`, headers: admin.headers });
    expect(listed.statusCode).toBe(200);
    const requests = listed.json().data as { id: string; email: string; job_title: string }[];
    expect(requests.map((r) => r.email).sort()).toEqual([first.email, second.email].sort());
    expect(requests[0]?.job_title).toBe('Registrar');
    const idOf = (email: string) => requests.find((r) => r.email === email)!.id;

    const approved = await testApp.app.inject({
      method: 'POST',
      url: `${base}/${idOf(first.email)}/approve`,
      headers: admin.headers,
    });
    expect(approved.json().data).toEqual({ id: idOf(first.email), approval_status: 'approved' });
    const declined = await testApp.app.inject({
      method: 'POST',
      url: `${base}/${idOf(second.email)}/decline`,
      headers: admin.headers,
    });
    expect(declined.json().data.approval_status).toBe('declined');
    const twice = await testApp.app.inject({
      method: 'POST',
      url: `${base}/${idOf(second.email)}/approve`,
      headers: admin.headers,
    });
    expect(twice.statusCode).toBe(404);
    expect(errorOf(twice).message).toBe(PARTNER_MESSAGES.request_not_found);

    // The approved member reaches the profile now, but holds no permission to edit it or decide requests.
    const cookie = await verifyAndSignIn(first.email);
    const read = await testApp.app.inject({
      method: 'GET',
      url: `/api/v1/partners/${partnerId}/profile`,
      headers: { cookie },
    });
    expect(read.statusCode).toBe(200);
    const edit = await testApp.app.inject({
      method: 'PATCH',
      url: `/api/v1/partners/${partnerId}/profile`,
      headers: { cookie },
      payload: { description: 'x' },
    });
    expect(edit.statusCode).toBe(403);
    const list = await testApp.app.inject({ method: 'GET', url: `${base}/requests`, headers: { cookie } });
    expect(list.statusCode).toBe(403);

    // A request of another institution is not found from here.
    const other = await signInAs(testApp.app, 'staff');
    const foreign = await testApp.app.inject({
      method: 'POST',
      url: `/api/v1/partners/${other.partnerId}/staff/${idOf(first.email)}/approve`,
      headers: admin.headers,
    });
    expect(foreign.statusCode).toBe(404);
  });
});
