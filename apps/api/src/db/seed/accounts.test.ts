import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Database } from '../client.ts';
import { partnerSettings, partners, staff, students, users } from '../schema/index.ts';
import { createTestApp } from '../../test/app.ts';
import { createTestDatabase } from '../../test/database.ts';
import { demoAccountsTable, DEMO_PASSWORD, seedDemoAccounts } from './accounts.ts';
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
