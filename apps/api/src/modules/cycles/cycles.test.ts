import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  defaultPartnerSettings,
  SETUP_MESSAGES,
  type Campus,
  type Cycle,
  type CycleInput,
  type Program,
} from '@kaminuza/shared';
import { cyclePrograms, cycles, partnerSettings, submissions } from '../../db/schema/index.ts';
import { useTestApp } from '../../test/app.ts';
import { expectAccess, signInAs, type TestAccount } from '../../test/auth.ts';
import { listCycles } from './cycles.service.ts';
import { insertTestCampus } from '../../test/setup-rows.ts';

const testApp = useTestApp();

type ErrorAnswer = { error: { status: string; message: string; details?: { path: string; message: string }[] } };

const base = (partnerId: string) => `/api/v1/partners/${partnerId}`;
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

function cycleInput(programIds: string[], overrides: Partial<CycleInput> = {}): CycleInput {
  return {
    name: `Intake ${randomBytes(3).toString('hex')}`,
    opens_on: day(-10),
    closes_on: day(30),
    decision_release_on: day(60),
    status: 'open',
    program_ids: programIds,
    ...overrides,
  };
}

async function call(account: TestAccount, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
  return testApp.app.inject({ method, url, headers: account.headers, ...(payload ? { payload } : {}) });
}

/** An institution's Admin with one campus and `count` programs offered there. */
async function institutionWithPrograms(count = 2) {
  const admin = await signInAs(testApp.app, 'staff');
  const p = base(admin.partnerId!);
  const campus = (
    await call(admin, 'POST', `${p}/campuses`, { name: 'Main', address: '', city: 'Kigali', country: 'RW' })
  ).json() as { data: Campus };
  const programs: Program[] = [];
  for (let i = 0; i < count; i += 1) {
    const response = await call(admin, 'POST', `${p}/programs`, {
      name: `Program ${i} ${randomBytes(2).toString('hex')}`,
      level: 'undergraduate',
      field: 'technology',
      duration_months: 36,
      language: 'en',
      tuition_amount: 900,
      tuition_currency: 'RWF',
      requirements: '',
      seats: null,
      campus_ids: [campus.data.id],
    });
    programs.push((response.json() as { data: Program }).data);
  }
  return { admin, p, programs };
}

async function addCycle(admin: TestAccount, input: CycleInput): Promise<Cycle> {
  const response = await call(admin, 'POST', `${base(admin.partnerId!)}/cycles`, input);
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as { data: Cycle }).data;
}

/** What the settings' current-cycle endpoint writes (test institutions start without a settings row). */
async function makeCurrent(partnerId: string, cycleId: string | null, timezone = 'UTC') {
  const settings = defaultPartnerSettings();
  const general = { ...settings.general, timezone, current_cycle_id: cycleId };
  await testApp.database.db
    .insert(partnerSettings)
    .values({ partner_id: partnerId, ...settings, general })
    .onConflictDoUpdate({ target: partnerSettings.partner_id, set: { general } });
}

async function storedCycles(partnerId: string) {
  return testApp.database.db.select().from(cycles).where(eq(cycles.partner_id, partnerId));
}

describe('who may call the cycle routes', () => {
  it('answers 401 anonymous, 403 students and admins, 404 staff of another institution', async () => {
    const { admin, p, programs } = await institutionWithPrograms(1);
    const cycle = await addCycle(admin, cycleInput([programs[0]!.id]));
    const routes = [
      { method: 'GET', url: `${p}/cycles` },
      { method: 'GET', url: `${p}/cycles/${cycle.id}` },
      { method: 'POST', url: `${p}/cycles`, payload: cycleInput([]) },
      { method: 'PUT', url: `${p}/cycles/${cycle.id}`, payload: cycleInput([]) },
      { method: 'DELETE', url: `${p}/cycles/${cycle.id}` },
    ] as const;
    for (const route of routes) {
      await expectAccess(testApp.app, route, { anonymous: 401, student: 403, admin: 403, staff: 404 });
    }
    expect((await call(admin, 'GET', `${p}/cycles`)).json()).toEqual({ data: [cycle] });
  });

  it('lets any member read, and only members with manage_programs write', async () => {
    const { admin, p, programs } = await institutionWithPrograms(1);
    const cycle = await addCycle(admin, cycleInput([programs[0]!.id]));
    const reader = await signInAs(testApp.app, 'staff', { partnerId: admin.partnerId!, permissions: ['manage_forms'] });
    expect((await call(reader, 'GET', `${p}/cycles`)).statusCode).toBe(200);
    expect((await call(reader, 'GET', `${p}/cycles/${cycle.id}`)).statusCode).toBe(200);
    expect((await call(reader, 'POST', `${p}/cycles`, cycleInput([]))).statusCode).toBe(403);
    expect((await call(reader, 'PUT', `${p}/cycles/${cycle.id}`, cycleInput([]))).statusCode).toBe(403);
    expect((await call(reader, 'DELETE', `${p}/cycles/${cycle.id}`)).statusCode).toBe(403);
    expect(await storedCycles(admin.partnerId!)).toHaveLength(1);

    const manager = await signInAs(testApp.app, 'staff', {
      partnerId: admin.partnerId!,
      permissions: ['manage_programs'],
    });
    expect(
      (await call(manager, 'PUT', `${p}/cycles/${cycle.id}`, cycleInput([], { name: 'Renamed' }))).statusCode,
    ).toBe(200);
  });
});

describe('cycles', () => {
  it('adds, lists (latest opening first), reads, changes and deletes cycles', async () => {
    const { admin, p, programs } = await institutionWithPrograms(2);
    const [first, second] = programs.map((x) => x.id) as [string, string];
    const older = await addCycle(
      admin,
      cycleInput([first], { name: 'January intake', opens_on: '2025-01-01', closes_on: '2025-02-01' }),
    );
    const newer = await addCycle(admin, cycleInput([first, second, first], { name: 'September intake' }));
    expect(newer).toMatchObject({
      name: 'September intake',
      status: 'open',
      current: false,
      accepting_applications: true,
    });
    expect([...newer.program_ids].sort()).toEqual([first, second].sort());
    expect(older.accepting_applications).toBe(false);

    const list = (await call(admin, 'GET', `${p}/cycles`)).json() as { data: Cycle[] };
    expect(list.data.map((c) => c.name)).toEqual(['September intake', 'January intake']);

    const changed = await call(
      admin,
      'PUT',
      `${p}/cycles/${newer.id}`,
      cycleInput([second], { name: 'September intake', status: 'closed', decision_release_on: null }),
    );
    expect(changed.statusCode).toBe(200);
    expect(changed.json().data).toMatchObject({
      status: 'closed',
      decision_release_on: null,
      program_ids: [second],
      accepting_applications: false,
    });
    expect((await call(admin, 'GET', `${p}/cycles/${newer.id}`)).json()).toEqual(changed.json());

    expect((await call(admin, 'DELETE', `${p}/cycles/${older.id}`)).json()).toEqual({ data: { ok: true } });
    expect((await call(admin, 'GET', `${p}/cycles/${older.id}`)).statusCode).toBe(404);
    expect(await testApp.database.db.select().from(cyclePrograms).where(eq(cyclePrograms.cycle_id, older.id))).toEqual(
      [],
    );
  });

  it('marks the current cycle and judges "accepting" in the institution’s time zone', async () => {
    const { admin, p } = await institutionWithPrograms(0);
    const cycle = await addCycle(
      admin,
      cycleInput([], { opens_on: '2026-09-01', closes_on: '2026-09-30', decision_release_on: null }),
    );
    await makeCurrent(admin.partnerId!, cycle.id, 'Africa/Kigali');
    const read = (await call(admin, 'GET', `${p}/cycles/${cycle.id}`)).json() as { data: Cycle };
    expect(read.data.current).toBe(true);
    // 22:30 UTC on 31 August is already 1 September in Kigali (UTC+2); 22:30 UTC on 30 September is not.
    const at = async (iso: string) =>
      (await listCycles(testApp.database.db, admin.partnerId!, { now: new Date(iso) }))[0]?.accepting_applications;
    expect(await at('2026-08-31T21:59:00Z')).toBe(false);
    expect(await at('2026-08-31T22:30:00Z')).toBe(true);
    expect(await at('2026-09-30T21:59:00Z')).toBe(true);
    expect(await at('2026-09-30T22:30:00Z')).toBe(false);
  });

  it('refuses closing before opening and decisions before closing (400), writing nothing', async () => {
    const { admin, p } = await institutionWithPrograms(0);
    const early = await call(
      admin,
      'POST',
      `${p}/cycles`,
      cycleInput([], { opens_on: '2026-03-10', closes_on: '2026-03-01' }),
    );
    expect(early.statusCode).toBe(400);
    expect((early.json() as ErrorAnswer).error.details).toContainEqual({
      path: 'closes_on',
      message: SETUP_MESSAGES.cycle_dates_order,
    });
    const decisions = await call(
      admin,
      'POST',
      `${p}/cycles`,
      cycleInput([], { opens_on: '2026-03-01', closes_on: '2026-04-01', decision_release_on: '2026-03-15' }),
    );
    expect(decisions.statusCode).toBe(400);
    expect((decisions.json() as ErrorAnswer).error.details).toContainEqual({
      path: 'decision_release_on',
      message: SETUP_MESSAGES.decision_date_order,
    });
    const blank = await call(admin, 'POST', `${p}/cycles`, {
      ...cycleInput([]),
      name: ' ',
      opens_on: '2026-02-30',
      status: 'paused',
    });
    expect(blank.statusCode).toBe(400);
    const paths = (blank.json() as ErrorAnswer).error.details?.map((d) => d.path);
    expect(paths).toEqual(expect.arrayContaining(['name', 'opens_on', 'status']));
    expect(await storedCycles(admin.partnerId!)).toEqual([]);
  });

  it("refuses another institution's programs (404) and writes nothing", async () => {
    const { admin, p, programs } = await institutionWithPrograms(1);
    const other = await institutionWithPrograms(1);
    const theirs = other.programs[0]!.id;
    const created = await call(admin, 'POST', `${p}/cycles`, cycleInput([programs[0]!.id, theirs]));
    expect(created.statusCode).toBe(404);
    expect((created.json() as ErrorAnswer).error.message).toBe(SETUP_MESSAGES.program_not_found);
    expect(await storedCycles(admin.partnerId!)).toEqual([]);

    const cycle = await addCycle(admin, cycleInput([programs[0]!.id]));
    const changed = await call(admin, 'PUT', `${p}/cycles/${cycle.id}`, cycleInput([theirs], { name: 'Changed' }));
    expect(changed.statusCode).toBe(404);
    expect((await call(admin, 'GET', `${p}/cycles/${cycle.id}`)).json()).toEqual({ data: cycle });

    const theirCycle = await addCycle(other.admin, cycleInput([]));
    for (const method of ['GET', 'DELETE'] as const) {
      expect((await call(admin, method, `${p}/cycles/${theirCycle.id}`)).statusCode).toBe(404);
    }
    expect((await call(admin, 'PUT', `${p}/cycles/${theirCycle.id}`, cycleInput([]))).statusCode).toBe(404);
    expect((await call(admin, 'PUT', `${p}/cycles/${randomUUID()}`, cycleInput([]))).statusCode).toBe(404);
  });

  it('refuses to delete a cycle applications were submitted in, or the current cycle', async () => {
    const { admin, p } = await institutionWithPrograms(0);
    const used = await addCycle(admin, cycleInput([]));
    await testApp.database.db.insert(submissions).values({
      reference: `KZ-${randomBytes(4).toString('hex')}`,
      partner_id: admin.partnerId!,
      campus_id: await insertTestCampus(testApp.database.db, admin.partnerId!),
      cycle_id: used.id,
    });
    const inUse = await call(admin, 'DELETE', `${p}/cycles/${used.id}`);
    expect(inUse.statusCode).toBe(409);
    expect((inUse.json() as ErrorAnswer).error.message).toBe(SETUP_MESSAGES.in_use);

    const current = await addCycle(admin, cycleInput([]));
    await makeCurrent(admin.partnerId!, current.id);
    const refused = await call(admin, 'DELETE', `${p}/cycles/${current.id}`);
    expect(refused.statusCode).toBe(409);
    expect((refused.json() as ErrorAnswer).error.message).toBe(SETUP_MESSAGES.cycle_is_current);
    expect(await storedCycles(admin.partnerId!)).toHaveLength(2);

    // Once no longer current, it may go.
    await makeCurrent(admin.partnerId!, null);
    expect((await call(admin, 'DELETE', `${p}/cycles/${current.id}`)).statusCode).toBe(200);
  });

  it('drops a deleted program from the cycles that opened it', async () => {
    const { admin, p, programs } = await institutionWithPrograms(2);
    const cycle = await addCycle(admin, cycleInput(programs.map((x) => x.id)));
    expect((await call(admin, 'DELETE', `${p}/programs/${programs[0]!.id}`)).statusCode).toBe(200);
    const read = (await call(admin, 'GET', `${p}/cycles/${cycle.id}`)).json() as { data: Cycle };
    expect(read.data.program_ids).toEqual([programs[1]!.id]);
  });
});
