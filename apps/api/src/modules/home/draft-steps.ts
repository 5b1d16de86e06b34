import { and, desc, eq, sql } from 'drizzle-orm';
import type { HomeNextStep } from '@kaminuza/shared';
import { applications, cycles, partnerSettings, partners, payments, programs } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/client.ts';
import { endOfDayIn } from '../../lib/time.ts';
import { storedSettings } from '../partner-settings/index.ts';
import { applicationsOpen, feeOf } from '../catalogue/index.ts';

/**
 * The home's steps for a student's drafts that can still be submitted (their cycle takes applications
 * today): continue each (latest saved first), pay the fees they await, and their closing instants
 * (soonest first). One query, whatever the number of drafts.
 */
export async function draftSteps(db: DbOrTx, studentId: string, now = new Date()): Promise<HomeNextStep[]> {
  const rows = await db
    .select({
      application_id: applications.id,
      partner_id: applications.partner_id,
      partner_name: partners.name,
      program_name: programs.name,
      progress_percentage: applications.progress_percentage,
      cycle_id: applications.cycle_id,
      cycle: { status: cycles.status, opens_on: cycles.opens_on, closes_on: cycles.closes_on },
      settings: {
        general: partnerSettings.general,
        theme: partnerSettings.theme,
        admissions: partnerSettings.admissions,
      },
      paid: sql<boolean>`exists (select 1 from ${payments} where ${payments.application_id} = ${applications.id} and ${payments.status} = 'succeeded')`,
    })
    .from(applications)
    .innerJoin(partners, eq(partners.id, applications.partner_id))
    .innerJoin(programs, eq(programs.id, applications.program_id))
    .innerJoin(cycles, eq(cycles.id, applications.cycle_id))
    .leftJoin(partnerSettings, eq(partnerSettings.partner_id, applications.partner_id))
    .where(and(eq(applications.student_id, studentId), eq(applications.status, 'in_progress')))
    .orderBy(desc(sql`coalesce(${applications.last_saved_at}, ${applications.started_at})`), desc(applications.id));

  const open = rows.flatMap((row) => {
    const settings = storedSettings(row.settings);
    if (!applicationsOpen(settings.general, row.cycle_id, row.cycle, now)) return [];
    const { application_id, partner_id, partner_name, program_name } = row;
    const closesAt = endOfDayIn(row.cycle.closes_on, settings.general.timezone).toISOString();
    return [
      {
        names: { application_id, partner_id, partner_name, program_name },
        progress: row.progress_percentage,
        fee: feeOf(settings),
        paid: Boolean(row.paid),
        closesAt,
      },
    ];
  });
  const drafts = open.map((draft): HomeNextStep => ({
    kind: 'draft',
    ...draft.names,
    progress_percentage: draft.progress,
  }));
  const fees = open
    .filter((draft) => draft.fee.amount > 0 && !draft.paid)
    .map((draft): HomeNextStep => ({ kind: 'pay', ...draft.names, ...draft.fee }));
  const deadlines = [...open]
    .sort((a, b) => a.closesAt.localeCompare(b.closesAt))
    .map((draft): HomeNextStep => ({ kind: 'deadline', ...draft.names, closes_at: draft.closesAt }));
  return [...drafts, ...fees, ...deadlines];
}
