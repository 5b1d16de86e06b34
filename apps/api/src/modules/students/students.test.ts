import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { VALIDATION_MESSAGES as M, PROFILE_MESSAGES } from '@kaminuza/shared';
import { students, users } from '../../db/schema/index.ts';
import { seedSchools } from '../../seed/students.ts';
import { refreshProfileCompletion } from './students.service.ts';
import { useTestApp } from '../../test/app.ts';
import { expectAccess, signInAs, type TestAccount } from '../../test/auth.ts';

const testApp = useTestApp();

beforeAll(async () => {
  await seedSchools(testApp.db);
});

type Method = 'GET' | 'PUT' | 'POST' | 'PATCH';
const call = (account: TestAccount | null, method: Method, url: string, payload?: object) =>
  testApp.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: account?.headers ?? {},
    ...(payload ? { payload } : {}),
  });

const putStep = (account: TestAccount, step: number, body: object) =>
  call(account, 'PUT', `/students/me/onboarding/steps/${step}`, body);

const fieldMessages = (response: { json: () => unknown }) =>
  ((response.json() as { error: { details?: { path: string; message: string }[] } }).error.details ?? []).map(
    (detail) => [detail.path, detail.message],
  );

const yearsAgo = (years: number, days = 0) => {
  const date = new Date();
  date.setUTCFullYear(date.getUTCFullYear() - years);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
};

const STEPS: Record<number, object> = {
  0: { language: 'fr' },
  1: { first_name: 'Aline', last_name: 'Mukamana', preferred_name: '' },
  2: { date_of_birth: '2005-06-01', gender: 'female', nationality: 'RW' },
  3: { phone_country: 'RW', phone: '0788 123 456' },
  4: { country_of_residence: 'RW', address: 'KN 5 Road, Kiyovu', city: 'Kigali', postal_code: '' },
  5: {
    education_level: 'high_school',
    school: {
      name: 'Ecole Secondaire Test',
      city: 'Huye',
      state_province: 'Southern',
      country: 'RW',
      levels_offered: ['secondary'],
    },
  },
  6: {},
};

async function onboard(account: TestAccount, upTo = 6) {
  for (let step = 0; step <= upTo; step += 1) {
    const response = await putStep(account, step, STEPS[step] ?? {});
    expect(response.statusCode, `step ${step}: ${response.body}`).toBe(200);
  }
}

describe('who may call', () => {
  // A fresh student gets 200, or 400 where the body (or the unfinished profile) is incomplete.
  const routes = [
    [{ method: 'GET', url: '/api/v1/students/me/onboarding' }, 200],
    [{ method: 'PUT', url: '/api/v1/students/me/onboarding/steps/0', payload: { language: 'en' } }, 200],
    [{ method: 'POST', url: '/api/v1/students/me/onboarding/complete' }, 400],
    [{ method: 'GET', url: '/api/v1/students/me/profile' }, 200],
    [{ method: 'PATCH', url: '/api/v1/students/me/profile', payload: { section: 'personal', values: {} } }, 400],
    [{ method: 'GET', url: '/api/v1/schools?q=lycee' }, 200],
    [
      {
        method: 'POST',
        url: '/api/v1/schools',
        payload: { name: 'Access School', city: 'Kigali', country: 'RW', levels_offered: [] },
      },
      201,
    ],
  ] as const;
  for (const [route, student] of routes) {
    it(`${route.method} ${route.url}: students only`, async () => {
      await expectAccess(testApp.app, route, { anonymous: 401, student, staff: 403, admin: 403 });
    });
  }

  it('GET /geo/cities: any signed-in user, not visitors', async () => {
    await expectAccess(
      testApp.app,
      { method: 'GET', url: '/api/v1/geo/cities?q=kig' },
      { anonymous: 401, student: 200, staff: 200, admin: 200 },
    );
  });

  it("answers 'Profile not found' when the student has no student record", async () => {
    const account = await signInAs(testApp.app, 'student');
    await testApp.db.delete(students).where(eq(students.user_id, account.id));
    for (const [method, url, payload] of [
      ['GET', '/students/me/profile'],
      ['GET', '/students/me/onboarding'],
      ['PUT', '/students/me/onboarding/steps/0', { language: 'en' }],
      ['POST', '/students/me/onboarding/complete'],
    ] as const) {
      const response = await call(account, method, url, payload);
      expect(response.statusCode).toBe(404);
      expect(response.json().error.message).toBe(PROFILE_MESSAGES.not_found);
    }
  });
});

describe('onboarding step validation', () => {
  let account: TestAccount;
  beforeAll(async () => {
    account = await signInAs(testApp.app, 'student');
  });

  const cases: Array<[string, number, object, string, string]> = [
    ['language missing', 0, {}, 'language', M.language_required],
    ['language unknown', 0, { language: 'de' }, 'language', M.language_required],
    ['first name empty', 1, { first_name: '', last_name: 'Doe' }, 'first_name', M.first_name_required],
    ['first name short', 1, { first_name: 'A', last_name: 'Doe' }, 'first_name', M.first_name_too_short],
    ['first name long', 1, { first_name: 'A'.repeat(51), last_name: 'Doe' }, 'first_name', M.first_name_too_long],
    ['first name characters', 1, { first_name: 'J0hn', last_name: 'Doe' }, 'first_name', M.first_name_invalid],
    ['last name empty', 1, { first_name: 'John', last_name: ' ' }, 'last_name', M.last_name_required],
    ['last name short', 1, { first_name: 'John', last_name: 'D' }, 'last_name', M.last_name_too_short],
    ['last name long', 1, { first_name: 'John', last_name: 'D'.repeat(51) }, 'last_name', M.last_name_too_long],
    ['last name characters', 1, { first_name: 'John', last_name: 'Doe!' }, 'last_name', M.last_name_invalid],
    [
      'birth date empty',
      2,
      { date_of_birth: '', gender: 'male', nationality: 'RW' },
      'date_of_birth',
      M.date_of_birth_required,
    ],
    [
      'too young',
      2,
      { date_of_birth: yearsAgo(13, 1), gender: 'male', nationality: 'RW' },
      'date_of_birth',
      M.age_range,
    ],
    ['too old', 2, { date_of_birth: yearsAgo(101), gender: 'male', nationality: 'RW' }, 'date_of_birth', M.age_range],
    ['gender missing', 2, { date_of_birth: '2000-01-01', nationality: 'RW' }, 'gender', M.gender_required],
    [
      'nationality missing',
      2,
      { date_of_birth: '2000-01-01', gender: 'other', nationality: '' },
      'nationality',
      M.nationality_required,
    ],
    [
      'nationality unknown',
      2,
      { date_of_birth: '2000-01-01', gender: 'other', nationality: 'XX' },
      'nationality',
      M.country_invalid,
    ],
    ['phone empty', 3, { phone_country: 'RW', phone: '' }, 'phone', M.phone_required],
    ['phone invalid', 3, { phone_country: 'RW', phone: '12345' }, 'phone', M.phone_invalid],
    ['phone country missing', 3, { phone_country: '', phone: '0788123456' }, 'phone_country', M.country_required],
    [
      'residence missing',
      4,
      { address: 'KN 5 Road', city: 'Kigali', country_of_residence: '' },
      'country_of_residence',
      M.country_required,
    ],
    [
      'residence invalid',
      4,
      { address: 'KN 5 Road', city: 'Kigali', country_of_residence: 'ZZ' },
      'country_of_residence',
      M.country_invalid,
    ],
    ['address empty', 4, { address: '', city: 'Kigali', country_of_residence: 'RW' }, 'address', M.address_required],
    ['address short', 4, { address: 'KN', city: 'Kigali', country_of_residence: 'RW' }, 'address', M.address_too_short],
    [
      'address long',
      4,
      { address: 'K'.repeat(201), city: 'Kigali', country_of_residence: 'RW' },
      'address',
      M.address_too_long,
    ],
    ['city empty', 4, { address: 'KN 5 Road', city: '', country_of_residence: 'RW' }, 'city', M.city_required],
    ['city short', 4, { address: 'KN 5 Road', city: 'K', country_of_residence: 'RW' }, 'city', M.city_too_short],
    [
      'city long',
      4,
      { address: 'KN 5 Road', city: 'K'.repeat(86), country_of_residence: 'RW' },
      'city',
      M.city_too_long,
    ],
    [
      'city characters',
      4,
      { address: 'KN 5 Road', city: 'Kig@li', country_of_residence: 'RW' },
      'city',
      M.city_invalid,
    ],
    [
      'education level missing',
      5,
      { school: { name: 'A school', city: 'Huye', country: 'RW' } },
      'education_level',
      M.education_level_required,
    ],
    [
      'school name missing',
      5,
      { education_level: 'other', school: { name: '', city: 'Huye', country: 'RW' } },
      'school.name',
      M.school_required,
    ],
    [
      'school city missing',
      5,
      { education_level: 'other', school: { name: 'A school', city: '', country: 'RW' } },
      'school.city',
      M.school_required,
    ],
    [
      'school country missing',
      5,
      { education_level: 'other', school: { name: 'A school', city: 'Huye', country: '' } },
      'school.country',
      M.school_required,
    ],
  ];
  it.each(cases)('%s', async (_name, step, body, path, message) => {
    const response = await putStep(account, step, body);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe(M.general);
    expect(fieldMessages(response)).toContainEqual([path, message]);
  });

  it('refuses steps outside 0–6', async () => {
    expect((await putStep(account, 7, {})).statusCode).toBe(400);
    expect((await putStep(account, -1, {})).statusCode).toBe(400);
  });

  it('nothing invalid is saved', async () => {
    const response = await call(account, 'GET', '/students/me/onboarding');
    expect(response.json().data.step).toBe(0);
  });
});

describe('onboarding progress', () => {
  it('saves each step, resumes at the next one and completes with is_complete and profile_completion', async () => {
    const account = await signInAs(testApp.app, 'student');
    const before = await call(account, 'GET', '/students/me/onboarding');
    expect(before.json().data).toMatchObject({ step: 0, is_complete: false, profile: { profile_completion: 25 } });

    await onboard(account, 2);
    const resumed = (await call(account, 'GET', '/students/me/onboarding')).json().data;
    expect(resumed.step).toBe(3);
    expect(resumed.profile).toMatchObject({
      language: 'fr',
      first_name: 'Aline',
      last_name: 'Mukamana',
      date_of_birth: '2005-06-01',
      gender: 'female',
      nationality: 'RW',
    });

    // Going back to an earlier step keeps the resume point.
    expect((await putStep(account, 1, STEPS[1] ?? {})).json().data.step).toBe(3);

    const early = await call(account, 'POST', '/students/me/onboarding/complete');
    expect(early.statusCode).toBe(400);
    expect(fieldMessages(early)).toContainEqual(['address', M.address_required]);

    await onboard(account);
    const [row] = await testApp.db.select().from(students).where(eq(students.user_id, account.id));
    expect(row?.phone).toBe('+250788123456');
    expect(row?.last_activity).not.toBeNull();

    const done = await call(account, 'POST', '/students/me/onboarding/complete');
    expect(done.statusCode).toBe(200);
    expect(done.json().data.is_complete).toBe(true);
    expect(done.json().data.profile.profile_completion).toBeGreaterThan(25);
    const [saved] = await testApp.db.select().from(students).where(eq(students.user_id, account.id));
    expect(saved).toMatchObject({ is_complete: true, profile_completion: done.json().data.profile.profile_completion });

    const session = await testApp.app.inject({ method: 'GET', url: '/api/v1/auth/session', headers: account.headers });
    expect(session.json().data.onboarding_complete).toBe(true);
  });

  it('profile completion is recomputed when a change is made elsewhere (a picture)', async () => {
    const account = await signInAs(testApp.app, 'student');
    const before = (await call(account, 'GET', '/students/me/profile')).json().data.profile_completion;
    await testApp.db.update(students).set({ profile_picture: 'stored-key' }).where(eq(students.user_id, account.id));
    const after = await refreshProfileCompletion(testApp.db, account.id);
    expect(after).toBeGreaterThan(before);
    const read = (await call(account, 'GET', '/students/me/profile')).json().data;
    expect(read).toMatchObject({
      profile_completion: after,
      profile_picture: expect.stringMatching(/^\/api\/v1\/students\/me\/profile-picture\?v=/),
    });
  });

  it('a new student is not onboarded in the session; staff and admins are', async () => {
    for (const type of ['student', 'staff', 'admin'] as const) {
      const account = await signInAs(testApp.app, type);
      const session = await testApp.app.inject({
        method: 'GET',
        url: '/api/v1/auth/session',
        headers: account.headers,
      });
      expect(session.json().data.onboarding_complete).toBe(type !== 'student');
    }
  });
});

describe('profile', () => {
  const personal = {
    first_name: 'Eric',
    last_name: 'Niyonzima',
    preferred_name: 'Rick',
    phone_country: 'KE',
    phone: '0712 345678',
    date_of_birth: '2004-02-29',
    gender: 'male',
    nationality: 'RW',
    address: 'Moi Avenue 12',
    city: 'Nairobi',
    country: 'KE',
    country_of_residence: 'KE',
    postal_code: '00100',
  };

  it('reads and edits the personal and education tabs', async () => {
    const account = await signInAs(testApp.app, 'student');
    const read = await call(account, 'GET', '/students/me/profile');
    expect(read.statusCode).toBe(200);
    expect(read.json().data).toMatchObject({ email: account.email, first_name: 'Test', is_complete: false });

    const saved = await call(account, 'PATCH', '/students/me/profile', { section: 'personal', values: personal });
    expect(saved.statusCode).toBe(200);
    const { phone_country: _country, ...stored } = personal;
    expect(saved.json().data).toMatchObject({ ...stored, phone: '+254712345678' });

    const education = {
      education_level: 'bachelor',
      school: { name: 'Alliance High School', city: 'Kikuyu', country: 'KE' },
      graduation_year: 2022,
      gpa: 'A-',
      major: 'Biology',
      degree_type: 'KCSE',
    };
    const updated = await call(account, 'PATCH', '/students/me/profile', { section: 'education', values: education });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().data).toMatchObject({
      education_level: 'bachelor',
      graduation_year: 2022,
      school: { name: 'Alliance High School', city: 'Kikuyu', country: 'KE' },
    });
    expect(updated.json().data.profile_completion).toBeGreaterThan(read.json().data.profile_completion);
  });

  it('validates edits with the same rules as onboarding', async () => {
    const account = await signInAs(testApp.app, 'student');
    const cases: Array<[object, string, string]> = [
      [{ section: 'personal', values: { ...personal, first_name: 'A' } }, 'values.first_name', M.first_name_too_short],
      [{ section: 'personal', values: { ...personal, phone: '123' } }, 'values.phone', M.phone_invalid],
      [
        { section: 'personal', values: { ...personal, date_of_birth: yearsAgo(10) } },
        'values.date_of_birth',
        M.age_range,
      ],
      [
        {
          section: 'education',
          values: { education_level: 'other', school: { name: 'X', city: 'Y', country: 'KE' }, graduation_year: 1800 },
        },
        'values.graduation_year',
        M.graduation_year_invalid,
      ],
    ];
    for (const [payload, path, message] of cases) {
      const response = await call(account, 'PATCH', '/students/me/profile', payload);
      expect(response.statusCode).toBe(400);
      expect(fieldMessages(response)).toContainEqual([path, message]);
    }
  });

  it("never reaches another student's data: every route acts on the caller's own record", async () => {
    const alice = await signInAs(testApp.app, 'student');
    const bob = await signInAs(testApp.app, 'student');
    await call(alice, 'PATCH', '/students/me/profile', { section: 'personal', values: personal });
    const bobs = (await call(bob, 'GET', '/students/me/profile')).json().data;
    expect(bobs.first_name).toBe('Test');
    expect(bobs.email).toBe(bob.email);
    // Client-sent identity fields are ignored.
    const forged = await call(bob, 'PATCH', '/students/me/profile', {
      section: 'personal',
      values: { ...personal, first_name: 'Bobby', user_id: alice.id, email: alice.email, is_complete: true },
    });
    expect(forged.statusCode).toBe(200);
    const [aliceRow] = await testApp.db.select().from(students).where(eq(students.user_id, alice.id));
    expect(aliceRow?.first_name).toBe('Eric');
    const [bobRow] = await testApp.db.select().from(students).where(eq(students.user_id, bob.id));
    expect(bobRow).toMatchObject({ first_name: 'Bobby', email: bob.email, is_complete: false });
    const [bobUser] = await testApp.db.select().from(users).where(eq(users.id, bob.id));
    expect(bobUser?.email).toBe(bob.email);
  });
});

describe('schools', () => {
  it('finds listed schools by part of the name, without accents or case', async () => {
    const account = await signInAs(testApp.app, 'student');
    const plain = await call(account, 'GET', '/schools?q=lycee%20de%20kigali');
    expect(plain.statusCode).toBe(200);
    expect(plain.json().data.items[0]).toMatchObject({ name: 'Lycée de Kigali', country: 'RW' });

    const typo = await call(account, 'GET', '/schools?q=achimota');
    expect(typo.json().data.items.map((s: { name: string }) => s.name)).toContain('Achimota School');

    const byCountry = await call(account, 'GET', '/schools?q=high&country=KE');
    const items = byCountry.json().data.items as { country: string }[];
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((school) => school.country === 'KE')).toBe(true);
  });

  it('finds the Lycées whatever the case, accents, punctuation and order of the words typed', async () => {
    const account = await signInAs(testApp.app, 'student');
    const names = async (q: string) => {
      const response = await call(account, 'GET', `/schools?${new URLSearchParams({ q })}`);
      expect(response.statusCode).toBe(200);
      return (response.json().data.items as { name: string }[]).map((school) => school.name);
    };
    for (const q of ['Lycée', 'lycee', 'LYCÉE', 'Lyce\u0301e']) {
      expect(await names(q)).toEqual(expect.arrayContaining(['Lycée de Kigali', 'Lycée Notre-Dame de Cîteaux']));
    }
    expect(await names('lycee notre dame de citeaux')).toContain('Lycée Notre-Dame de Cîteaux');
    expect(await names('Notre Dame d’Afrique')).toContain('Lycée Notre-Dame d’Afrique Nyundo');
    expect(await names("notre-dame d'afrique")).toContain('Lycée Notre-Dame d’Afrique Nyundo');
    expect((await names('kigali lycee'))[0]).toBe('Lycée de Kigali');
  });

  it('answers an empty page for a school it does not know', async () => {
    const account = await signInAs(testApp.app, 'student');
    const response = await call(account, 'GET', '/schools?q=Zzyzx%20Qwv%20Academy');
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual({ items: [], page: 1, has_more: false });
  });

  it('pages with at most 20 a page', async () => {
    const account = await signInAs(testApp.app, 'student');
    const first = (await call(account, 'GET', '/schools?q=school')).json().data;
    expect(first.items).toHaveLength(20);
    expect(first.has_more).toBe(true);
    const second = (await call(account, 'GET', '/schools?q=school&page=2')).json().data;
    expect(second.items[0].id).not.toBe(first.items[0].id);
    expect((await call(account, 'GET', '/schools?limit=21')).statusCode).toBe(400);
  });

  it("a manual entry is saved with its author and found by another student's search", async () => {
    const author = await signInAs(testApp.app, 'student');
    const created = await call(author, 'POST', '/schools', {
      name: 'École Sainte-Thérèse de Gisenyi',
      city: 'Rubavu',
      state_province: 'Western Province',
      country: 'RW',
      levels_offered: ['primary', 'secondary'],
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().data).toMatchObject({ levels_offered: ['primary', 'secondary'] });

    const other = await signInAs(testApp.app, 'student');
    const found = await call(other, 'GET', '/schools?q=ecole%20sainte-therese');
    expect(found.json().data.items[0]).toMatchObject({
      id: created.json().data.id,
      state_province: 'Western Province',
    });

    const missing = await call(author, 'POST', '/schools', { name: '', city: '', country: '' });
    expect(missing.statusCode).toBe(400);
    expect(fieldMessages(missing)).toEqual(
      expect.arrayContaining([
        ['name', M.school_required],
        ['city', M.school_required],
        ['country', M.school_required],
      ]),
    );
  });
});

describe('cities', () => {
  it('finds cities offline, accent-insensitive, filtered by country', async () => {
    const account = await signInAs(testApp.app, 'student');
    const kigali = await call(account, 'GET', '/geo/cities?q=kigali');
    expect(kigali.statusCode).toBe(200);
    expect(kigali.json().data[0]).toMatchObject({ name: 'Kigali', country: 'RW' });

    const accented = await call(account, 'GET', '/geo/cities?q=sao%20paulo');
    expect(accented.json().data[0]).toMatchObject({ name: 'São Paulo', country: 'BR' });

    const inKenya = (await call(account, 'GET', '/geo/cities?q=na&country=KE')).json().data as { country: string }[];
    expect(inKenya.length).toBeGreaterThan(0);
    expect(inKenya.every((city) => city.country === 'KE')).toBe(true);

    expect((await call(account, 'GET', '/geo/cities?q=')).json().data).toEqual([]);
  });
});
