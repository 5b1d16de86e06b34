import { randomBytes, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  FormSectionsSchema,
  SETUP_MESSAGES,
  type Form,
  type FormSection,
  type FormSummary,
  type FormUpdate,
} from '@kaminuza/shared';
import { cycles, forms, partners, programs, submissions, users, staff } from '../../db/schema/index.ts';
import { useTestApp } from '../../test/app.ts';
import { expectAccess, signInAs, type TestAccount } from '../../test/auth.ts';
import { snapshotForm } from './forms.service.ts';
import { insertTestCampus } from '../../test/setup-rows.ts';

let admin: TestAccount;

const testApp = useTestApp();

beforeAll(async () => {
  admin = await signInAs(testApp.app, 'staff');
});

const base = (partnerId: string) => `/api/v1/partners/${partnerId}/forms`;
const errorOf = (response: { json(): unknown }) =>
  (response.json() as { error: { status: string; message: string; details?: { path: string; message: string }[] } })
    .error;
const dataOf = <T>(response: { json(): unknown }) => (response.json() as { data: T }).data;

function sections(): FormSection[] {
  return [
    {
      id: 'about',
      order: 0,
      title: { en: 'About you', fr: 'À propos de vous' },
      description: {},
      questions: [
        { id: 'name', order: 0, type: 'short_text', label: { en: 'Name' }, help: {}, required: true },
        {
          id: 'essay',
          order: 1,
          type: 'long_text',
          label: { en: 'Essay' },
          help: {},
          required: false,
          word_limit: 300,
        },
        {
          id: 'heard',
          order: 2,
          type: 'single_choice',
          label: { en: 'Heard from' },
          help: {},
          required: false,
          options: [
            { id: 'radio', label: { en: 'Radio' } },
            { id: 'friend', label: { en: 'Friend' } },
          ],
        },
      ],
    },
    {
      id: 'docs',
      order: 1,
      title: { en: 'Documents' },
      description: {},
      questions: [
        {
          id: 'passport',
          order: 0,
          type: 'file',
          label: { en: 'Passport' },
          help: {},
          required: true,
          document_type: 'passport',
        },
        { id: 'agree', order: 1, type: 'yes_no', label: { en: 'I agree' }, help: {}, required: true },
      ],
    },
  ];
}

async function createForm(account: TestAccount, body: object = {}) {
  const response = await testApp.app.inject({
    method: 'POST',
    url: base(account.partnerId!),
    headers: account.headers,
    payload: { name: 'Undergraduate 2027', description: '', cycle_id: null, program_id: null, ...body },
  });
  expect(response.statusCode, response.body).toBe(201);
  return dataOf<Form>(response);
}

const updateOf = (form: Form, changes: Partial<FormUpdate> = {}): FormUpdate => ({
  name: form.name,
  description: form.description,
  cycle_id: form.cycle_id,
  program_id: form.program_id,
  sections: form.sections,
  version: form.version,
  ...changes,
});

async function insertCycle(partnerId: string): Promise<string> {
  const [row] = await testApp.db
    .insert(cycles)
    .values({ partner_id: partnerId, name: 'Intake 2027', opens_on: '2027-01-01', closes_on: '2027-03-31' })
    .returning({ id: cycles.id });
  return row!.id;
}

async function insertProgram(partnerId: string): Promise<string> {
  const [row] = await testApp.db
    .insert(programs)
    .values({
      partner_id: partnerId,
      name: `Nursing ${randomBytes(3).toString('hex')}`,
      level: 'undergraduate',
      field: 'medicine',
      duration_months: 48,
      language: 'en',
    })
    .returning({ id: programs.id });
  return row!.id;
}

async function insertSubmission(partnerId: string, formId: string) {
  const snapshot = await snapshotForm(testApp.db, partnerId, formId);
  const [row] = await testApp.db
    .insert(submissions)
    .values({
      reference: `KZ-${randomBytes(4).toString('hex')}`,
      partner_id: partnerId,
      campus_id: await insertTestCampus(testApp.db, partnerId),
      form_id: formId,
      form_snapshot: snapshot,
    })
    .returning();
  return row!;
}

describe('access', () => {
  it('lets any member read, only manage_forms write; other institutions get 404', async () => {
    const form = await createForm(admin);
    const reader = await signInAs(testApp.app, 'staff', {
      partnerId: admin.partnerId!,
      permissions: ['review_applications'],
    });
    const outsider = await signInAs(testApp.app, 'staff');
    const url = `${base(admin.partnerId!)}/${form.id}`;
    const routes = [
      { method: 'GET' as const, url: base(admin.partnerId!), read: true },
      { method: 'GET' as const, url, read: true },
      {
        method: 'POST' as const,
        url: base(admin.partnerId!),
        payload: { name: 'X', description: '', cycle_id: null, program_id: null },
      },
      { method: 'PUT' as const, url, payload: updateOf(form) },
      { method: 'POST' as const, url: `${url}/duplicate`, payload: { name: 'Copy' } },
      { method: 'DELETE' as const, url },
    ];
    for (const route of routes) {
      const call = (account: TestAccount) =>
        testApp.app.inject({
          method: route.method,
          url: route.url,
          headers: account.headers,
          ...(route.payload ? { payload: route.payload } : {}),
        });
      expect((await call(reader)).statusCode, `${route.method} ${route.url} reader`).toBe(route.read ? 200 : 403);
      // The outsider's own institution is not the one in the path: the form is unknown to them.
      const foreign = await call(outsider);
      expect(foreign.statusCode, `${route.method} ${route.url} outsider`).toBe(404);
      // A fresh staff account belongs to a fresh institution: another one, so 404 as well.
      await expectAccess(testApp.app, route, { anonymous: 401, student: 403, admin: 403, staff: 404 });
    }
    const after = await testApp.app.inject({ method: 'GET', url, headers: admin.headers });
    expect(dataOf<Form>(after).version).toBe(1);
  });

  it('answers 404 for an unknown form and for a form of another institution under your own path', async () => {
    const other = await signInAs(testApp.app, 'staff');
    const theirs = await createForm(other);
    for (const id of [randomUUID(), theirs.id]) {
      const url = `${base(admin.partnerId!)}/${id}`;
      const get = await testApp.app.inject({ method: 'GET', url, headers: admin.headers });
      expect(get.statusCode).toBe(404);
      expect(errorOf(get).message).toBe(SETUP_MESSAGES.form_not_found);
      const put = await testApp.app.inject({ method: 'PUT', url, headers: admin.headers, payload: updateOf(theirs) });
      expect(put.statusCode).toBe(404);
      const remove = await testApp.app.inject({ method: 'DELETE', url, headers: admin.headers });
      expect(remove.statusCode).toBe(404);
      const copy = await testApp.app.inject({
        method: 'POST',
        url: `${url}/duplicate`,
        headers: admin.headers,
        payload: { name: 'Mine' },
      });
      expect(copy.statusCode).toBe(404);
    }
    const [kept] = await testApp.db.select().from(forms).where(eq(forms.id, theirs.id));
    expect(kept?.partner_id).toBe(other.partnerId);
  });
});

describe('building a form', () => {
  it('starts a new form with one section', async () => {
    const form = await createForm(admin);
    expect(form.version).toBe(1);
    expect(form.sections).toHaveLength(1);
    expect(form.sections[0]?.questions).toEqual([]);
  });

  it('keeps the order of sections and questions exactly through save and load', async () => {
    const form = await createForm(admin, { sections: sections() });
    const reordered = sections().reverse();
    reordered[1]!.questions.reverse();
    // The order values sent are stale on purpose: the array order is what counts.
    const saved = await testApp.app.inject({
      method: 'PUT',
      url: `${base(admin.partnerId!)}/${form.id}`,
      headers: admin.headers,
      payload: updateOf(form, { sections: reordered }),
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(dataOf<Form>(saved).version).toBe(2);
    const loaded = dataOf<Form>(
      await testApp.app.inject({ method: 'GET', url: `${base(admin.partnerId!)}/${form.id}`, headers: admin.headers }),
    );
    expect(loaded.sections.map((section) => section.id)).toEqual(['docs', 'about']);
    expect(loaded.sections[1]!.questions.map((question) => question.id)).toEqual(['heard', 'essay', 'name']);
    expect(loaded.sections.map((section) => section.order)).toEqual([0, 1]);
    expect(loaded.sections[1]!.questions.map((question) => question.order)).toEqual([0, 1, 2]);
  });

  it('refuses a stale save with 409 and changes nothing', async () => {
    const form = await createForm(admin);
    const url = `${base(admin.partnerId!)}/${form.id}`;
    const first = await testApp.app.inject({
      method: 'PUT',
      url,
      headers: admin.headers,
      payload: updateOf(form, { name: 'First' }),
    });
    expect(first.statusCode).toBe(200);
    const second = await testApp.app.inject({
      method: 'PUT',
      url,
      headers: admin.headers,
      payload: updateOf(form, { name: 'Second' }),
    });
    expect(second.statusCode).toBe(409);
    expect(errorOf(second)).toMatchObject({
      status: 'ABORTED',
      message: SETUP_MESSAGES.form_stale,
      reason: 'form_stale',
    });
    const loaded = dataOf<Form>(await testApp.app.inject({ method: 'GET', url, headers: admin.headers }));
    expect(loaded).toMatchObject({ name: 'First', version: 2 });
  });

  it.each([
    [
      'duplicate ids',
      (s: FormSection[]) => {
        s[1]!.questions[0]!.id = 'name';
      },
      SETUP_MESSAGES.ids_unique,
    ],
    [
      'a choice with one option',
      (s: FormSection[]) => {
        const heard = s[0]!.questions[2]!;
        if (heard.type === 'single_choice') heard.options = heard.options.slice(0, 1);
      },
      SETUP_MESSAGES.options_required,
    ],
    [
      'a question without a label',
      (s: FormSection[]) => {
        s[0]!.questions[0]!.label = { en: '  ', fr: '' };
      },
      SETUP_MESSAGES.question_label_required,
    ],
    [
      'no section',
      (s: FormSection[]) => {
        s.splice(0, s.length);
      },
      SETUP_MESSAGES.section_required,
    ],
  ])('refuses %s with 400 and its message, changing nothing', async (_, spoil, message) => {
    const form = await createForm(admin, { sections: sections() });
    const broken = sections();
    spoil(broken);
    const url = `${base(admin.partnerId!)}/${form.id}`;
    const response = await testApp.app.inject({
      method: 'PUT',
      url,
      headers: admin.headers,
      payload: updateOf(form, { sections: broken }),
    });
    expect(response.statusCode).toBe(400);
    expect(errorOf(response).status).toBe('INVALID_ARGUMENT');
    expect(errorOf(response).details?.map((detail) => detail.message)).toContain(message);
    const created = await testApp.app.inject({
      method: 'POST',
      url: base(admin.partnerId!),
      headers: admin.headers,
      payload: { name: 'Broken', description: '', cycle_id: null, program_id: null, sections: broken },
    });
    expect(created.statusCode).toBe(400);
    const loaded = dataOf<Form>(await testApp.app.inject({ method: 'GET', url, headers: admin.headers }));
    expect(loaded.version).toBe(1);
    expect(loaded.sections).toEqual(sections());
  });

  it('refuses a form without a name', async () => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: base(admin.partnerId!),
      headers: admin.headers,
      payload: { name: ' ', description: '', cycle_id: null, program_id: null },
    });
    expect(response.statusCode).toBe(400);
    expect(errorOf(response).details).toContainEqual({ path: 'name', message: SETUP_MESSAGES.name_required });
  });

  it('attaches its own cycle and program, and refuses another institution’s with 404', async () => {
    const cycleId = await insertCycle(admin.partnerId!);
    const programId = await insertProgram(admin.partnerId!);
    const form = await createForm(admin, { cycle_id: cycleId, program_id: programId });
    expect(form).toMatchObject({ cycle_id: cycleId, program_id: programId });

    const other = await signInAs(testApp.app, 'staff');
    const foreignCycle = await insertCycle(other.partnerId!);
    const foreignProgram = await insertProgram(other.partnerId!);
    const url = `${base(admin.partnerId!)}/${form.id}`;
    for (const [changes, message] of [
      [{ cycle_id: foreignCycle }, SETUP_MESSAGES.cycle_not_found],
      [{ program_id: foreignProgram }, SETUP_MESSAGES.program_not_found],
    ] as const) {
      const put = await testApp.app.inject({
        method: 'PUT',
        url,
        headers: admin.headers,
        payload: updateOf(form, changes),
      });
      expect(put.statusCode).toBe(404);
      expect(errorOf(put).message).toBe(message);
      const post = await testApp.app.inject({
        method: 'POST',
        url: base(admin.partnerId!),
        headers: admin.headers,
        payload: { name: 'Foreign', description: '', cycle_id: null, program_id: null, ...changes },
      });
      expect(post.statusCode).toBe(404);
    }
    const loaded = dataOf<Form>(await testApp.app.inject({ method: 'GET', url, headers: admin.headers }));
    expect(loaded).toMatchObject({ cycle_id: cycleId, program_id: programId, version: 1 });
  });

  it('lists forms by name with their counts', async () => {
    const owner = await signInAs(testApp.app, 'staff');
    await createForm(owner, { name: 'Masters', sections: sections() });
    await createForm(owner, { name: 'Diploma' });
    const list = dataOf<FormSummary[]>(
      await testApp.app.inject({ method: 'GET', url: base(owner.partnerId!), headers: owner.headers }),
    );
    expect(list.map((form) => [form.name, form.section_count, form.question_count])).toEqual([
      ['Diploma', 1, 0],
      ['Masters', 2, 5],
    ]);
  });

  it('duplicates a form under a new name', async () => {
    const form = await createForm(admin, { sections: sections() });
    const response = await testApp.app.inject({
      method: 'POST',
      url: `${base(admin.partnerId!)}/${form.id}/duplicate`,
      headers: admin.headers,
      payload: { name: 'Copy of Undergraduate' },
    });
    expect(response.statusCode).toBe(201);
    const copy = dataOf<Form>(response);
    expect(copy).toMatchObject({ name: 'Copy of Undergraduate', version: 1, sections: sections() });
    expect(copy.id).not.toBe(form.id);
  });
});

describe('deleting and submissions', () => {
  it('deletes an unanswered form', async () => {
    const form = await createForm(admin);
    const url = `${base(admin.partnerId!)}/${form.id}`;
    expect((await testApp.app.inject({ method: 'DELETE', url, headers: admin.headers })).statusCode).toBe(200);
    expect((await testApp.app.inject({ method: 'GET', url, headers: admin.headers })).statusCode).toBe(404);
  });

  it('keeps a form submissions refer to, and the snapshot they stored through later edits', async () => {
    const form = await createForm(admin, { sections: sections() });
    const submission = await insertSubmission(admin.partnerId!, form.id);
    const url = `${base(admin.partnerId!)}/${form.id}`;

    const refused = await testApp.app.inject({ method: 'DELETE', url, headers: admin.headers });
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused).message).toBe(SETUP_MESSAGES.in_use);

    const edited = await testApp.app.inject({
      method: 'PUT',
      url,
      headers: admin.headers,
      payload: updateOf(form, { name: 'Renamed', sections: sections().slice(1) }),
    });
    expect(edited.statusCode).toBe(200);
    expect(dataOf<Form>(edited).submission_count).toBe(1);
    const [stored] = await testApp.db.select().from(submissions).where(eq(submissions.id, submission.id));
    expect(stored?.form_snapshot).toEqual({
      id: form.id,
      name: 'Undergraduate 2027',
      version: 1,
      sections: sections(),
    });
  });

  it('snapshots only a form of the institution, else "Form {id} not found"', async () => {
    const other = await signInAs(testApp.app, 'staff');
    const theirs = await createForm(other);
    await expect(snapshotForm(testApp.db, admin.partnerId!, theirs.id)).rejects.toMatchObject({
      status: 'NOT_FOUND',
      message: `Form ${theirs.id} not found`,
    });
  });
});

describe('default form', () => {
  it('is created with a new institution, valid and in three languages', async () => {
    const email = `registrar-${randomBytes(4).toString('hex')}@example.com`;
    const signUp = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/auth/sign-up/partner',
      remoteAddress: `10.${randomBytes(3).join('.')}`,
      payload: {
        email,
        password: 'Str0ng#Password',
        institution_name: `Lake Kivu Institute ${randomBytes(3).toString('hex')}`,
        institution_type: 'private',
        year_established: 1998,
        contact_first_name: 'Diane',
        contact_last_name: 'Mukeshimana',
        job_title: 'Registrar',
        work_email: 'admissions@lakekivu.example',
        phone_country: 'RW',
        phone: '0788123456',
        city: 'Rubavu',
        country: 'RW',
        accept_terms: true,
        program_count: 3,
      },
    });
    expect(signUp.statusCode, signUp.body).toBeLessThan(300);
    const [row] = await testApp.db
      .select({ partnerId: partners.id })
      .from(users)
      .innerJoin(staff, eq(staff.user_id, users.id))
      .innerJoin(partners, eq(partners.id, staff.partner_id))
      .where(eq(users.email, email));
    const stored = await testApp.db.select().from(forms).where(eq(forms.partner_id, row!.partnerId));
    expect(stored).toHaveLength(1);
    const sectionsOfDefault = FormSectionsSchema.parse(stored[0]!.sections);
    expect(sectionsOfDefault.map((section) => section.title.en)).toEqual([
      'Your programme choice & motivation',
      'About you',
      'Academic background',
      'Documents',
      'Declaration',
    ]);
    const questions = sectionsOfDefault.flatMap((section) => section.questions);
    expect(new Set(questions.map((question) => question.type))).toEqual(
      new Set(['long_text', 'single_choice', 'phone', 'number', 'date', 'country', 'file', 'yes_no']),
    );
    // The questions asking for profile details are prefilled from the applicant's profile.
    expect(questions.filter((question) => question.profile_field).map((question) => question.profile_field)).toEqual([
      'phone',
      'nationality',
    ]);
    for (const text of [...sectionsOfDefault.map((section) => section.title), ...questions.map((q) => q.label)]) {
      expect(Object.keys(text).sort()).toEqual(['en', 'fr', 'rw']);
    }
  });
});
