import { and, eq, gte, lte, notExists } from 'drizzle-orm';
import { DEFAULTS, DRAFT_REMINDER_DAYS, type StoredPartnerSettings } from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import {
  applications,
  cycles,
  partnerSettings,
  partners,
  programs,
  remindersSent,
  students,
} from '../../db/schema/index.ts';
import { scheduledPass, type JobDefinition } from '../../lib/jobs/queue.ts';
import { endOfDayIn } from '../../lib/time.ts';
import { enqueueEmail, emailLanguage } from '../email/index.ts';
import { readPreferencesOf } from '../settings/index.ts';
import { notify } from './notifications.service.ts';

const DAY_MS = 24 * 60 * 60_000;
const BATCH_SIZE = 200;

/** The `reminders_sent.kind` of the reminder sent this many days before a cycle closes. */
export const reminderKind = (days: number) => `closing_${days}d`;

/** The moment a cycle stops taking applications: the end of its closing day in the institution's time zone. */
export function closingMoment(closesOn: string, timezone: string): Date {
  return endOfDayIn(closesOn, timezone);
}

/** The closing moment worded for a student: their language, their time zone (the last minute of the day). */
export function deadlineWording(closesAt: Date, language: string, timezone: string): string {
  const lastMinute = new Date(closesAt.getTime() - 60_000);
  try {
    return new Intl.DateTimeFormat(language, { dateStyle: 'full', timeStyle: 'short', timeZone: timezone }).format(
      lastMinute,
    );
  } catch {
    return new Intl.DateTimeFormat(language, { dateStyle: 'full', timeStyle: 'short', timeZone: 'UTC' }).format(
      lastMinute,
    );
  }
}

/**
 * Tells students about applications still in progress whose cycle closes soon: once per application and
 * kind (7 and 1 day before close, DRAFT_REMINDER_DAYS). Each reminder is claimed with an insert into
 * `reminders_sent` that does nothing on conflict, in the transaction that notifies, so two api instances
 * never send the same one twice. When the tighter reminder is due, the looser ones are claimed with it:
 * a draft started the day before close gets one reminder, not two. The in-app notification is always
 * written; the email follows `email.reminders`, the push `push.deadline_reminders`. Answers how many
 * reminders were sent.
 */
export async function sendDraftReminders(db: Db, now: Date, publicUrl: string): Promise<number> {
  const longest = Math.max(...DRAFT_REMINDER_DAYS);
  // Coarse by date (a time zone is at most a day off), exact below with the institution's time zone.
  const until = new Date(now.getTime() + (longest + 1) * DAY_MS).toISOString().slice(0, 10);
  const yesterday = new Date(now.getTime() - DAY_MS).toISOString().slice(0, 10);
  const drafts = await db
    .select({
      id: applications.id,
      partner_id: applications.partner_id,
      closes_on: cycles.closes_on,
      general: partnerSettings.general,
      institution: partners.name,
      program: programs.name,
      user_id: students.user_id,
      email: students.email,
      language: students.language,
      timezone: students.timezone,
      name: students.preferred_name,
      first_name: students.first_name,
    })
    .from(applications)
    .innerJoin(cycles, eq(cycles.id, applications.cycle_id))
    .innerJoin(students, eq(students.id, applications.student_id))
    .innerJoin(partners, eq(partners.id, applications.partner_id))
    .innerJoin(programs, eq(programs.id, applications.program_id))
    .leftJoin(partnerSettings, eq(partnerSettings.partner_id, applications.partner_id))
    .where(
      and(
        eq(applications.status, 'in_progress'),
        eq(cycles.status, 'open'),
        gte(cycles.closes_on, yesterday),
        lte(cycles.closes_on, until),
        // Drafts whose last reminder went out already are not read again.
        notExists(
          db
            .select({ id: remindersSent.id })
            .from(remindersSent)
            .where(
              and(
                eq(remindersSent.application_id, applications.id),
                eq(remindersSent.kind, reminderKind(Math.min(...DRAFT_REMINDER_DAYS))),
              ),
            ),
        ),
      ),
    )
    .limit(BATCH_SIZE);

  const preferences = await readPreferencesOf(
    db,
    drafts.map((draft) => draft.user_id),
  );
  let sent = 0;
  for (const draft of drafts) {
    const general = (draft.general ?? {}) as Partial<StoredPartnerSettings['general']>;
    const closesAt = closingMoment(draft.closes_on, general.timezone ?? DEFAULTS.timezone);
    const remaining = closesAt.getTime() - now.getTime();
    if (remaining <= 0) continue;
    const due = [...DRAFT_REMINDER_DAYS].sort((a, b) => a - b).find((days) => remaining <= days * DAY_MS);
    if (due === undefined) continue;
    const prefs = preferences.get(draft.user_id)!;
    const language = emailLanguage(draft.language);
    const deadline = deadlineWording(closesAt, language, draft.timezone);
    const link = `/partners/${draft.partner_id}/application/form`;

    const reminded = await db.transaction(async (tx) => {
      // Still a draft now: one submitted since the read above is never reminded.
      const [still] = await tx
        .select({ id: applications.id })
        .from(applications)
        .where(and(eq(applications.id, draft.id), eq(applications.status, 'in_progress')))
        .for('update');
      if (!still) return false;
      const [claimed] = await tx
        .insert(remindersSent)
        .values({ application_id: draft.id, kind: reminderKind(due) })
        .onConflictDoNothing()
        .returning({ id: remindersSent.id });
      if (!claimed) return false;
      const looser = DRAFT_REMINDER_DAYS.filter((days) => days > due);
      if (looser.length > 0) {
        await tx
          .insert(remindersSent)
          .values(looser.map((days) => ({ application_id: draft.id, kind: reminderKind(days) })))
          .onConflictDoNothing();
      }
      await notify(tx, {
        userId: draft.user_id,
        preferences: prefs,
        category: 'deadline_reminders',
        type: 'draft_reminder',
        data: {
          institution: draft.institution,
          program: draft.program,
          deadline,
          deadline_at: closesAt.toISOString(),
          days: due,
        },
        link,
      });
      if (prefs.email.reminders) {
        await enqueueEmail(tx, {
          to: draft.email,
          template: 'draft_reminder',
          language,
          data: {
            ...((draft.name ?? draft.first_name) ? { name: (draft.name ?? draft.first_name)! } : {}),
            institution_name: draft.institution,
            program_name: draft.program,
            deadline,
            link: new URL(link, publicUrl).toString(),
          },
        });
      }
      return true;
    });
    if (reminded) sent += 1;
  }
  return sent;
}

/** Every quarter hour: a reminder falls due as time passes (once per draft and step: reminders_sent). */
export function reminderJobs({ db, publicUrl }: { db: Db; publicUrl: string }): JobDefinition[] {
  return [
    scheduledPass({
      name: 'reminders.drafts',
      schedule: '*/15 * * * *',
      pass: () => sendDraftReminders(db, new Date(), publicUrl),
      done: 'sent draft reminders',
    }),
  ];
}
