import { and, asc, eq, inArray } from 'drizzle-orm';
import type { UserType } from '@kaminuza/shared';
import type { Db } from '../db/client.ts';
import { partners, users } from '../db/schema/index.ts';
import { createVerifiedAccount } from '../modules/auth/accounts.ts';
import { hashPassword } from '../modules/auth/password.ts';
import { seedDemoAdmissions, seedDemoFees } from './admissions.ts';
import { seedDemoStudentProfile } from './students.ts';

/** The demo accounts' shared password: outside production only, and printed on start. */
export const DEMO_PASSWORD = 'Kaminuza#2025';

export const DEMO_ACCOUNTS = [
  { type: 'student', email: 'demo.student@kaminuza.example', firstName: 'Amani', lastName: 'Uwase' },
  { type: 'staff', email: 'demo.staff@kaminuza.example', firstName: 'Jean', lastName: 'Habimana' },
  { type: 'admin', email: 'demo.admin@kaminuza.example', firstName: 'Grace', lastName: 'Mukamana' },
] as const satisfies readonly { type: UserType; email: string; firstName: string; lastName: string }[];

const DEMO_STAFF_EMAIL = DEMO_ACCOUNTS.find((account) => account.type === 'staff')!.email;

export interface DemoAccount {
  type: UserType;
  email: string;
  /** The staff member's institution. */
  partner?: string;
}

/**
 * Creates the demo student, staff member (approved Admin of the first approved and published
 * institution, permissions 'all', primary contact; the institution gets its default settings and its
 * admissions setup) and admin when no user exists yet; the staff account is left out while no institution is listed. Returns the
 * demo accounts the database holds, for the start-up table.
 */
export async function seedDemoAccounts(db: Db): Promise<DemoAccount[]> {
  const [partner] = await db
    .select({ id: partners.id, name: partners.name })
    .from(partners)
    .where(and(eq(partners.status, 'approved'), eq(partners.published, true)))
    .orderBy(asc(partners.created_at), asc(partners.name))
    .limit(1);

  if ((await db.$count(users)) === 0) {
    const passwordHash = await hashPassword(DEMO_PASSWORD);
    for (const account of DEMO_ACCOUNTS) {
      if (account.type === 'staff' && !partner) continue;
      await createVerifiedAccount(db, {
        ...account,
        passwordHash,
        ...(account.type === 'staff' && partner ? { partnerId: partner.id } : {}),
      });
    }
  }

  await seedDemoStudentProfile(db);
  const [demoStaff] = await db
    .select({ partner_id: users.partner_id })
    .from(users)
    .where(eq(users.email, DEMO_STAFF_EMAIL))
    .limit(1);
  if (demoStaff?.partner_id) {
    await seedDemoAdmissions(db, demoStaff.partner_id);
    await seedDemoFees(db, demoStaff.partner_id);
  }

  const present = await db
    .select({ type: users.type, email: users.email, partner: partners.name })
    .from(users)
    .leftJoin(partners, eq(partners.id, users.partner_id))
    .where(
      inArray(
        users.email,
        DEMO_ACCOUNTS.map((account) => account.email),
      ),
    );
  const order = DEMO_ACCOUNTS.map((account) => account.email as string);
  return present
    .sort((a, b) => order.indexOf(a.email) - order.indexOf(b.email))
    .map(({ partner: name, ...account }) => (name ? { ...account, partner: name } : account));
}

/** The start-up table of the demo accounts. */
export function demoAccountsTable(accounts: readonly DemoAccount[]): string {
  const rows = accounts.map((a) => [a.type, a.email, DEMO_PASSWORD, a.partner ?? '']);
  const header = ['type', 'email', 'password', 'institution'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]?.length ?? 0)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return ['Demo accounts (development only):', `  ${line(header)}`, ...rows.map((r) => `  ${line(r)}`)].join('\n');
}
