import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  SETUP_MESSAGES,
  VALIDATION_MESSAGES,
  type Campus,
  type CampusInput,
  type Program,
  type ProgramInput,
} from '@kaminuza/shared';
import { campuses, partners, programCampuses, programs, submissions } from '../../db/schema/index.ts';
import { useTestApp } from '../../test/app.ts';
import { expectAccess, signInAs, type TestAccount } from '../../test/auth.ts';

const testApp = useTestApp();

type ErrorAnswer = { error: { status: string; message: string; details?: { path: string; message: string }[] } };

const base = (partnerId: string) => `/api/v1/partners/${partnerId}`;

function campusInput(overrides: Partial<CampusInput> = {}): CampusInput {
  return {
    name: `Campus ${randomBytes(3).toString('hex')}`,
    address: 'KG 7 Ave',
    city: 'Kigali',
    country: 'RW',
    ...overrides,
  };
}

function programInput(campusIds: string[], overrides: Partial<ProgramInput> = {}): ProgramInput {
  return {
    name: `Software Engineering ${randomBytes(3).toString('hex')}`,
    entry_rules: { exams: [] },
    level: 'undergraduate',
    field: 'technology',
    duration_months: 48,
    language: 'en',
    tuition_amount: 1200,
    tuition_currency: 'USD',
    requirements: 'A2 in mathematics',
    seats: 60,
    campus_ids: campusIds,
    ...overrides,
  };
}

async function call(account: TestAccount, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
  return testApp.app.inject({ method, url, headers: account.headers, ...(payload ? { payload } : {}) });
}

async function addCampus(admin: TestAccount, overrides: Partial<CampusInput> = {}): Promise<Campus> {
  const response = await call(admin, 'POST', `${base(admin.partnerId!)}/campuses`, campusInput(overrides));
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as { data: Campus }).data;
}

async function addProgram(
  admin: TestAccount,
  campusIds: string[],
  overrides: Partial<ProgramInput> = {},
): Promise<Program> {
  const response = await call(admin, 'POST', `${base(admin.partnerId!)}/programs`, programInput(campusIds, overrides));
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as { data: Program }).data;
}

async function submitFor(partnerId: string, ids: { campus_id: string; program_id?: string }) {
  await testApp.database.db
    .insert(submissions)
    .values({ reference: `KZ-${randomBytes(4).toString('hex')}`, partner_id: partnerId, ...ids });
}

async function programCount(partnerId: string) {
  const [row] = await testApp.database.db
    .select({ count: partners.program_count })
    .from(partners)
    .where(eq(partners.id, partnerId));
  return row?.count;
}

describe('who may call the campus and program routes', () => {
  it('answers 401 anonymous, 403 students and admins, 404 staff of another institution', async () => {
    const admin = await signInAs(testApp.app, 'staff');
    const campus = await addCampus(admin);
    const program = await addProgram(admin, [campus.id]);
    const p = base(admin.partnerId!);
    const routes = [
      { method: 'GET', url: `${p}/campuses` },
      { method: 'POST', url: `${p}/campuses`, payload: campusInput() },
      { method: 'PUT', url: `${p}/campuses/${campus.id}`, payload: campusInput() },
      { method: 'DELETE', url: `${p}/campuses/${campus.id}` },
      { method: 'GET', url: `${p}/programs` },
      { method: 'GET', url: `${p}/programs/${program.id}` },
      { method: 'POST', url: `${p}/programs`, payload: programInput([campus.id]) },
      { method: 'PUT', url: `${p}/programs/${program.id}`, payload: programInput([campus.id]) },
      { method: 'DELETE', url: `${p}/programs/${program.id}` },
    ] as const;
    for (const route of routes) {
      await expectAccess(testApp.app, route, { anonymous: 401, student: 403, admin: 403, staff: 404 });
    }
    // Nothing was changed by any of those callers.
    const list = await call(admin, 'GET', `${p}/programs`);
    expect((list.json() as { data: Program[] }).data).toEqual([program]);
  });

  it('lets any member read, and only members with manage_programs (or all) write', async () => {
    const admin = await signInAs(testApp.app, 'staff');
    const partnerId = admin.partnerId!;
    const campus = await addCampus(admin);
    const program = await addProgram(admin, [campus.id]);
    const reader = await signInAs(testApp.app, 'staff', { partnerId, permissions: ['review_applications'] });
    const p = base(partnerId);

    expect((await call(reader, 'GET', `${p}/campuses`)).statusCode).toBe(200);
    expect((await call(reader, 'GET', `${p}/programs`)).statusCode).toBe(200);
    expect((await call(reader, 'GET', `${p}/programs/${program.id}`)).statusCode).toBe(200);
    const writes = [
      ['POST', `${p}/campuses`, campusInput()],
      ['PUT', `${p}/campuses/${campus.id}`, campusInput()],
      ['DELETE', `${p}/campuses/${campus.id}`],
      ['POST', `${p}/programs`, programInput([campus.id])],
      ['PUT', `${p}/programs/${program.id}`, programInput([campus.id])],
      ['DELETE', `${p}/programs/${program.id}`],
    ] as const;
    for (const [method, url, payload] of writes) {
      const response = await call(reader, method, url, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(403);
    }

    const manager = await signInAs(testApp.app, 'staff', { partnerId, permissions: ['manage_programs'] });
    const created = await call(manager, 'POST', `${p}/campuses`, campusInput({ name: 'Musanze' }));
    expect(created.statusCode).toBe(201);
    const campusesNow = (await call(reader, 'GET', `${p}/campuses`)).json() as { data: Campus[] };
    expect(campusesNow.data.map((c) => c.name)).toContain('Musanze');
    expect((await call(reader, 'GET', `${p}/programs/${program.id}`)).json()).toEqual({ data: program });
  });
});

describe('campuses', () => {
  it('adds, lists by name with program counts, and changes campuses', async () => {
    const admin = await signInAs(testApp.app, 'staff');
    const p = base(admin.partnerId!);
    const rubavu = await addCampus(admin, { name: 'Rubavu', city: 'Rubavu' });
    const huye = await addCampus(admin, { name: 'huye', city: 'Huye' });
    expect(rubavu).toMatchObject({ name: 'Rubavu', city: 'Rubavu', country: 'RW', program_count: 0 });
    await addProgram(admin, [rubavu.id, huye.id]);
    await addProgram(admin, [rubavu.id]);

    const list = (await call(admin, 'GET', `${p}/campuses`)).json() as { data: Campus[] };
    expect(list.data.map((c) => [c.name, c.program_count])).toEqual([
      ['huye', 1],
      ['Rubavu', 2],
    ]);

    const changed = await call(admin, 'PUT', `${p}/campuses/${huye.id}`, campusInput({ name: 'Huye', city: 'Butare' }));
    expect(changed.statusCode).toBe(200);
    expect(changed.json().data).toMatchObject({ id: huye.id, name: 'Huye', city: 'Butare', program_count: 1 });
  });

  it('refuses bad input with the schema messages and writes nothing', async () => {
    const admin = await signInAs(testApp.app, 'staff');
    const p = base(admin.partnerId!);
    const response = await call(admin, 'POST', `${p}/campuses`, { name: '  ', address: '', city: '', country: 'rw' });
    expect(response.statusCode).toBe(400);
    const { error } = response.json() as ErrorAnswer;
    expect(error.status).toBe('INVALID_ARGUMENT');
    expect(error.details).toEqual(
      expect.arrayContaining([
        { path: 'name', message: SETUP_MESSAGES.name_required },
        { path: 'city', message: VALIDATION_MESSAGES.city_required },
      ]),
    );
    expect(error.details?.some((d) => d.path === 'country')).toBe(true);
    const rows = await testApp.database.db.select().from(campuses).where(eq(campuses.partner_id, admin.partnerId!));
    expect(rows).toEqual([]);
  });

  it('keeps names unique per institution, ignoring case (409), on create and on change', async () => {
    const admin = await signInAs(testApp.app, 'staff');
    const p = base(admin.partnerId!);
    await addCampus(admin, { name: 'Kigali Main' });
    const other = await addCampus(admin, { name: 'Nyagatare' });
    const duplicate = await call(admin, 'POST', `${p}/campuses`, campusInput({ name: 'kigali main' }));
    expect(duplicate.statusCode).toBe(409);
    expect((duplicate.json() as ErrorAnswer).error).toMatchObject({
      status: 'ABORTED',
      message: SETUP_MESSAGES.campus_exists,
    });
    const renamed = await call(admin, 'PUT', `${p}/campuses/${other.id}`, campusInput({ name: 'KIGALI MAIN' }));
    expect(renamed.statusCode).toBe(409);

    // Another institution may use the same name.
    const elsewhere = await signInAs(testApp.app, 'staff');
    await addCampus(elsewhere, { name: 'Kigali Main' });
  });

  it('answers 404 for an unknown campus', async () => {
    const admin = await signInAs(testApp.app, 'staff');
    const p = base(admin.partnerId!);
    const put = await call(admin, 'PUT', `${p}/campuses/${randomUUID()}`, campusInput());
    expect(put.statusCode).toBe(404);
    expect((put.json() as ErrorAnswer).error.message).toBe(SETUP_MESSAGES.campus_not_found);
    expect((await call(admin, 'DELETE', `${p}/campuses/${randomUUID()}`)).statusCode).toBe(404);
  });

  it("refuses to delete a program's only campus or one applications were submitted for", async () => {
    const admin = await signInAs(testApp.app, 'staff');
    const p = base(admin.partnerId!);
    const main = await addCampus(admin);
    const second = await addCampus(admin);
    const program = await addProgram(admin, [main.id]);

    const onlyOne = await call(admin, 'DELETE', `${p}/campuses/${main.id}`);
    expect(onlyOne.statusCode).toBe(409);
    expect((onlyOne.json() as ErrorAnswer).error.message).toBe(SETUP_MESSAGES.campus_only_one_of_program);

    // Offered at a second campus too, the first may go; the program keeps the second.
    await call(admin, 'PUT', `${p}/programs/${program.id}`, programInput([main.id, second.id], { name: program.name }));
    await submitFor(admin.partnerId!, { campus_id: second.id });
    const used = await call(admin, 'DELETE', `${p}/campuses/${second.id}`);
    expect(used.statusCode).toBe(409);
    expect((used.json() as ErrorAnswer).error.message).toBe(SETUP_MESSAGES.in_use);

    const removed = await call(admin, 'DELETE', `${p}/campuses/${main.id}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ data: { ok: true } });
    const after = (await call(admin, 'GET', `${p}/programs/${program.id}`)).json() as { data: Program };
    expect(after.data.campus_ids).toEqual([second.id]);
  });
});

describe('programs', () => {
  it('adds, reads, changes and deletes a program, keeping the institution’s program count', async () => {
    const admin = await signInAs(testApp.app, 'staff');
    const partnerId = admin.partnerId!;
    const p = base(partnerId);
    const a = await addCampus(admin, { name: 'Alpha' });
    const b = await addCampus(admin, { name: 'Beta' });

    const program = await addProgram(admin, [b.id, a.id], { seats: null, name: 'Nursing', field: 'medicine' });
    expect(program).toMatchObject({
      name: 'Nursing',
      level: 'undergraduate',
      field: 'medicine',
      duration_months: 48,
      seats: null,
      campus_ids: [a.id, b.id],
    });
    expect(await programCount(partnerId)).toBe(1);
    await addProgram(admin, [a.id]);
    expect(await programCount(partnerId)).toBe(2);

    const changed = await call(
      admin,
      'PUT',
      `${p}/programs/${program.id}`,
      programInput([b.id], { name: 'Nursing', level: 'graduate', duration_months: 18, language: 'fr' }),
    );
    expect(changed.statusCode).toBe(200);
    expect(changed.json().data).toMatchObject({
      level: 'graduate',
      duration_months: 18,
      language: 'fr',
      campus_ids: [b.id],
    });

    const removed = await call(admin, 'DELETE', `${p}/programs/${program.id}`);
    expect(removed.statusCode).toBe(200);
    expect(await programCount(partnerId)).toBe(1);
    expect((await call(admin, 'GET', `${p}/programs/${program.id}`)).statusCode).toBe(404);
    const links = await testApp.database.db
      .select()
      .from(programCampuses)
      .where(eq(programCampuses.program_id, program.id));
    expect(links).toEqual([]);
  });

  it('lists by name and filters by search text (case and accents ignored), level and field', async () => {
    const admin = await signInAs(testApp.app, 'staff');
    const p = base(admin.partnerId!);
    const campus = await addCampus(admin);
    await addProgram(admin, [campus.id], { name: 'Génie civil', field: 'engineering' });
    await addProgram(admin, [campus.id], { name: 'Business Administration', field: 'business', level: 'graduate' });
    await addProgram(admin, [campus.id], { name: 'Accounting', field: 'business' });

    const names = async (query: string) =>
      ((await call(admin, 'GET', `${p}/programs${query}`)).json() as { data: Program[] }).data.map((x) => x.name);
    expect(await names('')).toEqual(['Accounting', 'Business Administration', 'Génie civil']);
    expect(await names('?q=genie')).toEqual(['Génie civil']);
    expect(await names('?q=%25')).toEqual([]);
    expect(await names('?field=business')).toEqual(['Accounting', 'Business Administration']);
    expect(await names('?field=business&level=graduate')).toEqual(['Business Administration']);
    expect((await call(admin, 'GET', `${p}/programs?level=doctorate`)).statusCode).toBe(400);
  });

  it('refuses bad input with the schema messages and writes nothing', async () => {
    const admin = await signInAs(testApp.app, 'staff');
    const p = base(admin.partnerId!);
    const campus = await addCampus(admin);
    const response = await call(
      admin,
      'POST',
      `${p}/programs`,
      programInput([], { name: '', duration_months: 0, tuition_amount: -5, tuition_currency: 'usd' }),
    );
    expect(response.statusCode).toBe(400);
    const { error } = response.json() as ErrorAnswer;
    expect(error.details).toEqual(
      expect.arrayContaining([
        { path: 'name', message: SETUP_MESSAGES.name_required },
        { path: 'duration_months', message: SETUP_MESSAGES.number_invalid },
        { path: 'tuition_amount', message: SETUP_MESSAGES.amount_invalid },
        { path: 'tuition_currency', message: SETUP_MESSAGES.currency_invalid },
        { path: 'campus_ids', message: SETUP_MESSAGES.campus_required },
      ]),
    );
    expect(campus.program_count).toBe(0);
    expect(await testApp.database.db.select().from(programs).where(eq(programs.partner_id, admin.partnerId!))).toEqual(
      [],
    );
  });

  it('keeps entry rules per examination, and refuses rules that do not fit their examination', async () => {
    const admin = await signInAs(testApp.app, 'staff');
    const p = base(admin.partnerId!);
    const campus = await addCampus(admin);
    const entry_rules = {
      exams: [
        {
          exam: 'waec_wassce',
          min_standing: { standing: 'credit' as const, count: 5 },
          subjects: [{ any_of: ['mathematics', 'further_mathematics'], min_grade: 'C6' }],
          min_aggregate: 24,
          max_sittings: 2,
        },
        { exam: 'knec_kcse', subjects: [], min_class: 'C+' },
      ],
    };
    const program = await addProgram(admin, [campus.id], { entry_rules });
    expect(program.entry_rules).toEqual(entry_rules);
    const read = await call(admin, 'GET', `${p}/programs/${program.id}`);
    expect((read.json() as { data: Program }).data.entry_rules).toEqual(entry_rules);

    const bad: ProgramInput['entry_rules'] = {
      exams: [
        { exam: 'waec_wassce', subjects: [{ any_of: ['kiswahili'], min_grade: 'C6' }], min_aggregate: 80 },
        { exam: 'waec_wassce', subjects: [{ any_of: ['mathematics'], min_grade: 'B+' }] },
        {
          exam: 'knec_kcse',
          subjects: [],
          min_class: 'First class',
          min_standing: { standing: 'principal', count: 2 },
        },
        { exam: 'moon_certificate', subjects: [] },
      ],
    };
    const refused = await call(
      admin,
      'PUT',
      `${p}/programs/${program.id}`,
      programInput([campus.id], { entry_rules: bad }),
    );
    expect(refused.statusCode).toBe(400);
    expect((refused.json() as ErrorAnswer).error.details).toEqual([
      { path: 'entry_rules.exams.0.subjects.0.any_of', message: SETUP_MESSAGES.exam_subject_unknown },
      { path: 'entry_rules.exams.0.min_aggregate', message: SETUP_MESSAGES.exam_aggregate_range },
      { path: 'entry_rules.exams.1.exam', message: SETUP_MESSAGES.exam_repeated },
      { path: 'entry_rules.exams.1.subjects.0.min_grade', message: SETUP_MESSAGES.exam_grade_unknown },
      { path: 'entry_rules.exams.2.min_standing.standing', message: SETUP_MESSAGES.exam_standing_unknown },
      { path: 'entry_rules.exams.2.min_class', message: SETUP_MESSAGES.exam_class_unknown },
      { path: 'entry_rules.exams.3.exam', message: SETUP_MESSAGES.exam_unknown },
    ]);
    const created = await call(admin, 'POST', `${p}/programs`, programInput([campus.id], { entry_rules: bad }));
    expect(created.statusCode).toBe(400);
    // Nothing changed: the program keeps its rules, and no other program was added.
    const after = await call(admin, 'GET', `${p}/programs`);
    expect((after.json() as { data: Program[] }).data).toEqual([program]);
  });

  it("refuses another institution's campus (404) and writes nothing", async () => {
    const admin = await signInAs(testApp.app, 'staff');
    const other = await signInAs(testApp.app, 'staff');
    const p = base(admin.partnerId!);
    const mine = await addCampus(admin);
    const theirs = await addCampus(other);

    const created = await call(admin, 'POST', `${p}/programs`, programInput([mine.id, theirs.id]));
    expect(created.statusCode).toBe(404);
    expect((created.json() as ErrorAnswer).error.message).toBe(SETUP_MESSAGES.campus_not_found);
    expect(await testApp.database.db.select().from(programs).where(eq(programs.partner_id, admin.partnerId!))).toEqual(
      [],
    );
    expect(await programCount(admin.partnerId!)).toBe(0);

    const program = await addProgram(admin, [mine.id]);
    const changed = await call(
      admin,
      'PUT',
      `${p}/programs/${program.id}`,
      programInput([theirs.id], { name: 'Renamed' }),
    );
    expect(changed.statusCode).toBe(404);
    expect((await call(admin, 'GET', `${p}/programs/${program.id}`)).json()).toEqual({ data: program });

    // Their campus and program are unknown here too.
    expect((await call(admin, 'PUT', `${p}/campuses/${theirs.id}`, campusInput())).statusCode).toBe(404);
    expect((await call(admin, 'DELETE', `${p}/campuses/${theirs.id}`)).statusCode).toBe(404);
    const theirProgram = await addProgram(other, [theirs.id]);
    expect((await call(admin, 'GET', `${p}/programs/${theirProgram.id}`)).statusCode).toBe(404);
    expect((await call(admin, 'DELETE', `${p}/programs/${theirProgram.id}`)).statusCode).toBe(404);
  });

  it('keeps name and level unique per institution (409)', async () => {
    const admin = await signInAs(testApp.app, 'staff');
    const p = base(admin.partnerId!);
    const campus = await addCampus(admin);
    const program = await addProgram(admin, [campus.id], { name: 'Law', level: 'undergraduate' });
    const same = await call(
      admin,
      'POST',
      `${p}/programs`,
      programInput([campus.id], { name: 'LAW', level: 'undergraduate' }),
    );
    expect(same.statusCode).toBe(409);
    expect((same.json() as ErrorAnswer).error.message).toBe(SETUP_MESSAGES.program_exists);
    expect(await programCount(admin.partnerId!)).toBe(1);
    // The same name at another level is another program.
    const master = await addProgram(admin, [campus.id], { name: 'Law', level: 'graduate' });
    const clash = await call(admin, 'PUT', `${p}/programs/${master.id}`, programInput([campus.id], { name: 'law' }));
    expect(clash.statusCode).toBe(409);
    expect((await call(admin, 'GET', `${p}/programs/${program.id}`)).json()).toEqual({ data: program });
  });

  it('refuses to delete a program applications were submitted for', async () => {
    const admin = await signInAs(testApp.app, 'staff');
    const p = base(admin.partnerId!);
    const campus = await addCampus(admin);
    const program = await addProgram(admin, [campus.id]);
    await submitFor(admin.partnerId!, { campus_id: campus.id, program_id: program.id });
    const response = await call(admin, 'DELETE', `${p}/programs/${program.id}`);
    expect(response.statusCode).toBe(409);
    expect((response.json() as ErrorAnswer).error.message).toBe(SETUP_MESSAGES.in_use);
    expect(await programCount(admin.partnerId!)).toBe(1);
  });
});

describe('the OpenAPI document', () => {
  it('describes the campus, program and cycle routes under their tags', async () => {
    const doc = (await testApp.app.inject({ url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, { tags?: string[]; summary?: string }>>;
    };
    const route = (path: string, method: string) => doc.paths[`/api/v1/partners/{partnerId}${path}`]?.[method];
    expect(route('/campuses', 'post')).toMatchObject({ tags: ['programs'], summary: 'Add a campus' });
    expect(route('/programs/{programId}', 'delete')).toMatchObject({ tags: ['programs'], summary: 'Delete a program' });
    expect(route('/cycles/{cycleId}', 'put')).toMatchObject({ tags: ['cycles'], summary: 'Change an admission cycle' });
  });
});
