import { defaultPartnerSettings, primaryFee, readAdmissionsSettings, type FeeOption } from '@kaminuza/shared';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import {
  campuses,
  cyclePrograms,
  cycles,
  forms,
  partnerSettings,
  partners,
  programCampuses,
  programs,
} from '../db/schema/index.ts';
import { DEMO_CAMPUSES, DEMO_FORM_NAME, DEMO_FORM_SECTIONS, DEMO_PROGRAMS } from './admissions.data.ts';

const DAY_MS = 86_400_000;
const day = (date: Date) => date.toISOString().slice(0, 10);

/**
 * The demo institution's admissions, set up as its staff would through the dashboard: campuses,
 * programs offered there, a cycle open now (the current one) with every program open, and a form of
 * several sections and question types attached to it. Does nothing when the institution already has a
 * campus, so a restart never duplicates or undoes what staff changed.
 */
export async function seedDemoAdmissions(db: Db, partnerId: string, now = new Date()): Promise<void> {
  await db.transaction(async (tx) => {
    // One seeding at a time for this institution (two api instances starting together).
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`kaminuza.seed.admissions:${partnerId}`}))`);
    if ((await tx.$count(campuses, eq(campuses.partner_id, partnerId))) > 0) return;

    const campusRows = await tx
      .insert(campuses)
      .values(DEMO_CAMPUSES.map(({ key: _key, ...campus }) => ({ ...campus, partner_id: partnerId })))
      .returning({ id: campuses.id, name: campuses.name });
    const campusId = (key: string) => {
      const name = DEMO_CAMPUSES.find((campus) => campus.key === key)?.name;
      const row = campusRows.find((campus) => campus.name === name);
      if (!row) throw new Error(`demo campus ${key} was not inserted`);
      return row.id;
    };

    const programRows = await tx
      .insert(programs)
      .values(DEMO_PROGRAMS.map(({ campuses: _campuses, ...program }) => ({ ...program, partner_id: partnerId })))
      .returning({ id: programs.id, name: programs.name });
    await tx.insert(programCampuses).values(
      DEMO_PROGRAMS.flatMap((program) => {
        const programId = programRows.find((row) => row.name === program.name)!.id;
        return program.campuses.map((key) => ({ program_id: programId, campus_id: campusId(key) }));
      }),
    );
    await tx.update(partners).set({ program_count: programRows.length }).where(eq(partners.id, partnerId));

    const opens = new Date(now.getTime() - 60 * DAY_MS);
    const closes = new Date(now.getTime() + 180 * DAY_MS);
    const [cycle] = await tx
      .insert(cycles)
      .values({
        partner_id: partnerId,
        name: `${opens.getUTCFullYear()}/${String((opens.getUTCFullYear() + 1) % 100).padStart(2, '0')} intake`,
        opens_on: day(opens),
        closes_on: day(closes),
        decision_release_on: day(new Date(closes.getTime() + 30 * DAY_MS)),
        status: 'open',
      })
      .returning({ id: cycles.id });
    if (!cycle) throw new Error('the demo cycle was not inserted');
    await tx
      .insert(cyclePrograms)
      .values(programRows.map((program) => ({ cycle_id: cycle.id, program_id: program.id })));

    await tx.insert(forms).values({
      partner_id: partnerId,
      name: DEMO_FORM_NAME,
      description: 'One form for every programme of the intake.',
      cycle_id: cycle.id,
      sections: DEMO_FORM_SECTIONS,
    });

    // An institution written directly (tests, benchmarks) may have no settings row yet.
    await tx
      .insert(partnerSettings)
      .values({ partner_id: partnerId, ...defaultPartnerSettings() })
      .onConflictDoNothing({ target: partnerSettings.partner_id });
    await tx
      .update(partnerSettings)
      .set({
        general: sql`jsonb_set(${partnerSettings.general}, '{current_cycle_id}', to_jsonb(${cycle.id}::text))`,
      })
      .where(eq(partnerSettings.partner_id, partnerId));
  });
}

/**
 * The demo institution's application fee, per currency (minor units): by card in dollars; by card or MTN
 * MoMo or Airtel Money in Rwandan francs; by M-Pesa or Airtel Money in Kenyan shillings; by M-Pesa Tanzania
 * (Vodacom) or Airtel Money in Tanzanian shillings. In development
 * each mobile money network is a local simulator, answered from the dev phone (/dev/phone).
 */
export const DEMO_FEES: readonly FeeOption[] = [
  { currency: 'USD', amount: 10_000, channels: ['card'] },
  { currency: 'RWF', amount: 30_000, channels: ['card', 'mtn_momo', 'airtel_money'] },
  { currency: 'KES', amount: 300_000, channels: ['mpesa', 'airtel_money'] },
  { currency: 'TZS', amount: 5_000_000, channels: ['mpesa_tz', 'airtel_money'] },
];

/**
 * Gives the demo institution its fees while it charges the default fee of a new institution (the same
 * 100 USD by card), so a restart never undoes fees its staff changed.
 */
export async function seedDemoFees(db: Db, partnerId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ admissions: partnerSettings.admissions })
      .from(partnerSettings)
      .where(eq(partnerSettings.partner_id, partnerId))
      .for('update');
    const admissions = row ? readAdmissionsSettings(row.admissions) : undefined;
    const defaults = defaultPartnerSettings().admissions.application_fees;
    if (!admissions || JSON.stringify(admissions.application_fees) !== JSON.stringify(defaults)) return;
    await tx
      .update(partnerSettings)
      .set({
        admissions: {
          ...admissions,
          ...primaryFee(DEMO_FEES, admissions.application_fee_currency),
          application_fees: [...DEMO_FEES],
        },
      })
      .where(eq(partnerSettings.partner_id, partnerId));
  });
}
