import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { defaultPartnerSettings, type ApplicationDraft } from '@kaminuza/shared';
import type { App } from '../../app.ts';
import type { Db } from '../../db/client.ts';
import {
  campuses,
  cyclePrograms,
  cycles,
  documents,
  files,
  partnerSettings,
  partners,
  payments,
  programCampuses,
  students,
} from '../../db/schema/index.ts';
import { seedDemoAdmissions } from '../../seed/admissions.ts';
import { DEMO_CAMPUSES } from '../../seed/admissions.data.ts';
import { signInAs, type TestAccount } from '../../test/auth.ts';

/*
 * A ready institution for the applying tests: approved, published, with the demo admissions (two
 * campuses, five programs, an open current cycle and a five-section form), and its fee.
 */

export interface ReadyInstitution {
  admin: TestAccount;
  partnerId: string;
  cycleId: string;
  /** A program taught at one campus, and one taught at two. */
  single: { id: string; campusId: string };
  double: { id: string; campusIds: string[] };
}

export async function readyInstitution(app: App, db: Db, { fee = 0 } = {}): Promise<ReadyInstitution> {
  const admin = await signInAs(app, 'staff');
  const partnerId = admin.partnerId!;
  await db.update(partners).set({ published: true }).where(eq(partners.id, partnerId));
  await db
    .insert(partnerSettings)
    .values({ partner_id: partnerId, ...defaultPartnerSettings() })
    .onConflictDoNothing();
  await seedDemoAdmissions(db, partnerId);
  await setFee(db, partnerId, fee);
  const [cycle] = await db.select({ id: cycles.id }).from(cycles).where(eq(cycles.partner_id, partnerId));
  const links = await db
    .select({ program_id: programCampuses.program_id, campus_id: programCampuses.campus_id, campus: campuses.name })
    .from(programCampuses)
    .innerJoin(cyclePrograms, eq(cyclePrograms.program_id, programCampuses.program_id))
    .innerJoin(campuses, eq(campuses.id, programCampuses.campus_id))
    .where(eq(cyclePrograms.cycle_id, cycle!.id));
  // A program's campuses in the seed's order (the main campus first), whatever order the rows come back in.
  const seedOrder = (name: string) => DEMO_CAMPUSES.findIndex((campus) => campus.name === name);
  links.sort((a, b) => seedOrder(a.campus) - seedOrder(b.campus));
  const byProgram = new Map<string, string[]>();
  for (const link of links) byProgram.set(link.program_id, [...(byProgram.get(link.program_id) ?? []), link.campus_id]);
  const single = [...byProgram].find(([, campusIds]) => campusIds.length === 1)!;
  const double = [...byProgram].find(([, campusIds]) => campusIds.length === 2)!;
  return {
    admin,
    partnerId,
    cycleId: cycle!.id,
    single: { id: single[0], campusId: single[1][0]! },
    double: { id: double[0], campusIds: double[1] },
  };
}

export async function setFee(db: Db, partnerId: string, amount: number, currency = 'USD'): Promise<void> {
  await db
    .update(partnerSettings)
    .set({
      admissions: sql`${partnerSettings.admissions} || ${JSON.stringify({ application_fee: amount, application_fee_currency: currency })}::jsonb`,
    })
    .where(eq(partnerSettings.partner_id, partnerId));
}

/** Closes the institution's current cycle (its status), as staff closing an intake would. */
export async function closeCycle(db: Db, cycleId: string): Promise<void> {
  await db.update(cycles).set({ status: 'closed' }).where(eq(cycles.id, cycleId));
}

/** A succeeded fee payment, as the payment provider's callback would leave it. */
export async function markPaid(db: Db, draft: Pick<ApplicationDraft, 'id' | 'partner_id'>, amount = 100) {
  const [row] = await db
    .insert(payments)
    .values({
      application_id: draft.id,
      partner_id: draft.partner_id,
      provider: 'sandbox',
      reference: `test_${randomBytes(8).toString('hex')}`,
      amount,
      currency: 'USD',
      status: 'succeeded',
      method: 'card',
      paid_at: new Date().toISOString(),
    })
    .returning({ id: payments.id });
  return row!.id;
}

/** Gives the student a document of the type, as an upload would. */
export async function addDocument(db: Db, account: TestAccount, type: 'transcript' | 'passport'): Promise<string> {
  const [student] = await db.select({ id: students.id }).from(students).where(eq(students.user_id, account.id));
  const [file] = await db
    .insert(files)
    .values({
      owner_id: account.id,
      storage_key: randomUUID(),
      original_name: `${type}.pdf`,
      mime_type: 'application/pdf',
      size: 1000,
      sha256: randomBytes(32).toString('hex'),
      purpose: 'document',
    })
    .returning({ id: files.id });
  const [document] = await db
    .insert(documents)
    .values({ student_id: student!.id, type, file_id: file!.id })
    .returning({ id: documents.id });
  return document!.id;
}

export async function studentRow(db: Db, account: TestAccount) {
  const [row] = await db
    .select()
    .from(students)
    .where(and(eq(students.user_id, account.id)));
  return row!;
}

/** Answers that pass the demo form (file questions name any document id). */
export function demoAnswers(overrides: Record<string, unknown> = {}) {
  return {
    why_programme: 'I love building things that help people.',
    grade_average: 82,
    completed_on: '2024-06-30',
    school_country: 'RW',
    transcript: randomUUID(),
    passport: randomUUID(),
    accommodation: true,
    emergency_name: 'Jane Doe',
    emergency_phone: '+250788123456',
    accurate: true,
    ...overrides,
  };
}
