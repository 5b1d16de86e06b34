import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { FormSectionsSchema, QUESTION_TYPES } from '@kaminuza/shared';
import {
  campuses,
  cyclePrograms,
  cycles,
  forms,
  partnerSettings,
  partners,
  programCampuses,
  programs,
  staff,
  students,
  users,
} from '../db/schema/index.ts';
import { createTestApp } from '../test/app.ts';
import { createTestDatabase } from '../test/database.ts';
import { demoAccountsTable, DEMO_PASSWORD, seedDemoAccounts } from './accounts.ts';
import { DEMO_CAMPUSES, DEMO_PROGRAMS } from './admissions.data.ts';
import { DEMO_FEES } from './admissions.ts';
import { seedIfEmpty } from './index.ts';

let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database.close();
});

describe('demo accounts', () => {
  it('creates a verified student, staff member and admin in an empty database, once', async () => {
    await seedIfEmpty(database.db);
    const accounts = await seedDemoAccounts(database.db);
    expect(accounts.map((a) => [a.type, a.email])).toEqual([
      ['student', 'demo.student@kaminuza.example'],
      ['staff', 'demo.staff@kaminuza.example'],
      ['admin', 'demo.admin@kaminuza.example'],
    ]);
    expect(accounts[1]?.partner).toEqual(expect.any(String));
    expect(await seedDemoAccounts(database.db)).toEqual(accounts);
    expect(await database.db.$count(users)).toBe(3);

    const [member] = await database.db.select().from(staff);
    expect(member).toMatchObject({
      role: 'Admin',
      permissions: ['all'],
      primary_contact: true,
      active: true,
      approval_status: 'approved',
    });
    const [institution] = await database.db.select().from(partners).where(eq(partners.id, member!.partner_id));
    expect(institution).toMatchObject({ name: accounts[1]?.partner, status: 'approved', published: true });
    expect(await database.db.$count(partnerSettings, eq(partnerSettings.partner_id, member!.partner_id))).toBe(1);
    expect(await database.db.$count(students)).toBe(1);
    const verified = await database.db.select().from(users).where(eq(users.contact_verified, true));
    expect(verified).toHaveLength(3);
    expect(demoAccountsTable(accounts)).toContain(DEMO_PASSWORD);
  });

  it('sets the demo institution up to receive applications, once', async () => {
    const [member] = await database.db.select().from(staff);
    const partnerId = member!.partner_id;
    const campusRows = await database.db.select().from(campuses).where(eq(campuses.partner_id, partnerId));
    const programRows = await database.db.select().from(programs).where(eq(programs.partner_id, partnerId));
    expect(campusRows.map((c) => c.name).sort()).toEqual(DEMO_CAMPUSES.map((c) => c.name).sort());
    expect(programRows).toHaveLength(DEMO_PROGRAMS.length);
    expect(new Set(programRows.map((p) => p.level))).toEqual(new Set(['undergraduate', 'graduate']));
    const [institution] = await database.db.select().from(partners).where(eq(partners.id, partnerId));
    expect(institution?.program_count).toBe(DEMO_PROGRAMS.length);
    // Every program is offered somewhere and open in the cycle.
    const offered = await database.db.select().from(programCampuses);
    expect(new Set(offered.map((o) => o.program_id))).toEqual(new Set(programRows.map((p) => p.id)));

    const [cycle, ...others] = await database.db.select().from(cycles).where(eq(cycles.partner_id, partnerId));
    expect(others).toHaveLength(0);
    const today = new Date().toISOString().slice(0, 10);
    expect(cycle).toMatchObject({ status: 'open' });
    expect(cycle!.opens_on <= today && today <= cycle!.closes_on).toBe(true);
    expect(await database.db.$count(cyclePrograms, eq(cyclePrograms.cycle_id, cycle!.id))).toBe(programRows.length);
    const [settings] = await database.db
      .select()
      .from(partnerSettings)
      .where(eq(partnerSettings.partner_id, partnerId));
    expect(settings?.general).toMatchObject({ current_cycle_id: cycle!.id });
    // Payable by card and by each mobile money network (their simulators in development).
    expect(settings?.admissions).toMatchObject({
      application_fees: DEMO_FEES,
      application_fee: 100,
      application_fee_currency: 'USD',
    });

    const [form] = await database.db.select().from(forms).where(eq(forms.partner_id, partnerId));
    expect(form).toMatchObject({ cycle_id: cycle!.id, version: 1 });
    const sections = FormSectionsSchema.parse(form!.sections);
    expect(sections.length).toBeGreaterThanOrEqual(4);
    const types = new Set(sections.flatMap((section) => section.questions.map((question) => question.type)));
    expect([...types].sort()).toEqual([...QUESTION_TYPES].sort());

    await seedDemoAccounts(database.db);
    expect(await database.db.$count(campuses, eq(campuses.partner_id, partnerId))).toBe(DEMO_CAMPUSES.length);
    expect(await database.db.$count(forms, eq(forms.partner_id, partnerId))).toBe(1);
  });

  it('signs each demo account in with the demo password', async () => {
    const app = await createTestApp(database);
    try {
      for (const [url, email] of [
        ['/api/v1/auth/sign-in', 'demo.student@kaminuza.example'],
        ['/api/v1/auth/sign-in', 'demo.staff@kaminuza.example'],
        ['/api/v1/auth/sign-in/admin', 'demo.admin@kaminuza.example'],
      ] as const) {
        const response = await app.inject({ method: 'POST', url, payload: { email, password: DEMO_PASSWORD } });
        expect(response.statusCode, email).toBe(200);
      }
    } finally {
      await app.close();
    }
  });
});
