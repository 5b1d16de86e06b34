import { randomBytes } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import { DRAFT_REMINDER_DAYS, type FormSection } from '@kaminuza/shared';
import type { Db } from '../db/client.ts';
import { applications, partners, payments, remindersSent, students, submissions } from '../db/schema/index.ts';
import { parseEnv } from '../lib/env.ts';
import { deviceFromUserAgent } from '../lib/user-agent.ts';
import { createVerifiedAccount } from '../modules/auth/accounts.ts';
import { reminderKind } from '../modules/notifications/reminders.ts';
import { startSessionFor } from '../modules/auth/auth.service.ts';
import { createAuth } from '../modules/auth/better-auth.ts';
import { createCycle } from '../modules/cycles/cycles.service.ts';
import { createForm } from '../modules/forms/forms.service.ts';
import { updateCurrentCycle } from '../modules/partner-settings/partner-settings.service.ts';
import { createCampus, createProgram } from '../modules/programs/programs.service.ts';

/*
 * Deadline-day fixtures shared by the load benchmark and the crash test: an institution ready to receive
 * applications, and many applicants, each with a session, a draft started through the api, and a paid fee.
 */

const text = (en: string) => ({ en });

/** A three-section form with the common question types. */
export const DEADLINE_FORM: FormSection[] = [
  {
    id: 'about',
    order: 0,
    title: text('About you'),
    description: {},
    questions: [
      { id: 'full_name', order: 0, type: 'short_text', required: true, label: text('Full name'), help: {} },
      { id: 'born', order: 1, type: 'date', required: true, label: text('Date of birth'), help: {} },
    ],
  },
  {
    id: 'studies',
    order: 1,
    title: text('Your studies'),
    description: {},
    questions: [
      { id: 'average', order: 0, type: 'number', min: 0, max: 100, required: true, label: text('Average'), help: {} },
      {
        id: 'track',
        order: 1,
        type: 'single_choice',
        required: true,
        label: text('Track'),
        help: {},
        options: [
          { id: 'science', label: text('Science') },
          { id: 'arts', label: text('Arts') },
        ],
      },
    ],
  },
  {
    id: 'essay',
    order: 2,
    title: text('Motivation'),
    description: {},
    questions: [
      { id: 'why', order: 0, type: 'long_text', word_limit: 600, required: true, label: text('Why us?'), help: {} },
    ],
  },
];

const WORDS = 'I want to study engineering because our region needs builders of roads water and power'.split(' ');

/** Answers to DEADLINE_FORM as they stand after `step` autosaves: the essay grows as the applicant types. */
export function deadlineAnswers(step: number) {
  const words = Math.min(550, 20 + step * 15);
  return {
    full_name: 'Aline Uwase',
    born: '2006-04-12',
    average: 78,
    track: 'science',
    why: Array.from({ length: words }, (_, i) => WORDS[i % WORDS.length]).join(' '),
  };
}

export interface DeadlineInstitution {
  partnerId: string;
  programId: string;
  campusId: string;
}

/** An approved, published institution whose current cycle closes at the end of tomorrow. */
export async function seedDeadlineInstitution(db: Db): Promise<DeadlineInstitution> {
  const [partner] = await db
    .insert(partners)
    .values({
      slug: `deadline-university-${randomBytes(3).toString('hex')}`,
      name: 'Deadline Day University',
      status: 'approved',
      published: true,
      address_city: 'Kigali',
      address_country: 'RW',
      institution_type: 'public',
      year_established: 1963,
      region: 'africa',
      size: 'large',
      setting: 'urban',
    })
    .returning({ id: partners.id });
  if (!partner) throw new Error('the institution was not inserted');
  const partnerId = partner.id;
  const campus = await createCampus(db, partnerId, {
    name: 'Main campus',
    address: 'KN 1 Rd',
    city: 'Kigali',
    country: 'RW',
  });
  const program = await createProgram(db, partnerId, {
    name: 'BSc Civil Engineering',
    entry_rules: { exams: [] },
    level: 'undergraduate',
    field: 'engineering',
    duration_months: 48,
    language: 'en',
    tuition_amount: 1500,
    tuition_currency: 'USD',
    requirements: '',
    seats: null,
    campus_ids: [campus.id],
  });
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const cycle = await createCycle(db, partnerId, {
    name: 'Intake 2027',
    opens_on: day(-90),
    // Closing at the end of tomorrow keeps the cycle open whatever the time zone.
    closes_on: day(1),
    decision_release_on: null,
    status: 'open',
    program_ids: [program.id],
  });
  await updateCurrentCycle(db, partnerId, cycle.id);
  await createForm(db, partnerId, {
    name: 'Application 2027',
    description: '',
    cycle_id: cycle.id,
    program_id: null,
    sections: DEADLINE_FORM,
  });
  return { partnerId, programId: program.id, campusId: campus.id };
}

/** Runs `task` over `items` with at most `limit` at a time, keeping the order of the results. */
export async function inBatches<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await task(items[index]!);
      }
    }),
  );
  return results;
}

export interface Applicant {
  cookie: string;
  /** The draft's id (its submission will have the same one) and the version last saved. */
  id: string;
  version: number;
}

/**
 * `count` students, each signed in (a session started directly, as a sign-in would: nobody types a
 * password here) and with a draft started through the api of the server at `origin`. On deadline day
 * the drafts' closing reminders went out in the days before: they are recorded as sent, so the reminder
 * job does not send them in the middle of the burst.
 */
export async function applicantsWithDrafts(
  db: Db,
  origin: string,
  institution: DeadlineInstitution,
  count: number,
  /** The server's AUTH_SECRET, which signs the session cookies (the development one when not given). */
  authSecret?: string,
): Promise<Applicant[]> {
  const auth = createAuth(db, parseEnv({ NODE_ENV: 'development', PUBLIC_URL: origin, AUTH_SECRET: authSecret }));
  const caller = { headers: new Headers({ origin }), device: deviceFromUserAgent('deadline') };
  const cookies = await inBatches(
    Array.from({ length: count }, (_, i) => i),
    8,
    async (i) => {
      const email = `applicant-${i}-${randomBytes(4).toString('hex')}@deadline.kaminuza.example`;
      const user = await createVerifiedAccount(db, {
        type: 'student',
        email,
        passwordHash: 'no-password-sign-in',
        firstName: 'Deadline',
        lastName: `Applicant ${i}`,
      });
      if (!user) throw new Error(`${email} was not created`);
      const { setCookies } = await startSessionFor({ db, auth, publicUrl: origin }, caller, user.id);
      return setCookies.map((value) => value.split(';')[0]).join('; ');
    },
  );
  const drafts = await inBatches(cookies, 16, async (cookie) => {
    const response = await fetch(`${origin}/api/v1/partners/${institution.partnerId}/application`, {
      method: 'POST',
      headers: { cookie, origin, 'content-type': 'application/json' },
      body: JSON.stringify({ program_id: institution.programId, campus_id: institution.campusId }),
    });
    if (response.status !== 201)
      throw new Error(`starting a draft answered ${response.status}: ${await response.text()}`);
    const { data } = (await response.json()) as { data: { id: string; version: number } };
    return { cookie, id: data.id, version: data.version };
  });
  const reminded = drafts.flatMap((draft) =>
    DRAFT_REMINDER_DAYS.map((days) => ({ application_id: draft.id, kind: reminderKind(days) })),
  );
  for (let start = 0; start < reminded.length; start += 1000) {
    await db
      .insert(remindersSent)
      .values(reminded.slice(start, start + 1000))
      .onConflictDoNothing();
  }
  return drafts;
}

/** Marks these applications' fees paid (a succeeded sandbox payment each), as if paid earlier in the week. */
export async function payFees(db: Db, partnerId: string, applicationIds: readonly string[]): Promise<void> {
  const rows = await db
    .select({ id: applications.id, student_id: applications.student_id })
    .from(applications)
    .where(inArray(applications.id, [...applicationIds]));
  await db.insert(payments).values(
    rows.map((row) => ({
      application_id: row.id,
      student_id: row.student_id,
      partner_id: partnerId,
      provider: 'sandbox' as const,
      reference: `pay_deadline_${randomBytes(8).toString('hex')}`,
      amount: 100,
      currency: 'USD',
      status: 'succeeded' as const,
      method: 'card' as const,
      paid_at: new Date().toISOString(),
    })),
  );
}

/**
 * Applications of the institution whose state is half-written: marked submitted without a submission
 * (or the reverse), or submitted but not moved from current_applications to completed_applications.
 */
export async function halfWrittenApplications(db: Db, partnerId: string): Promise<number> {
  const { rows } = await db.execute<{ count: number }>(sql`
    select count(*)::int as count from ${applications} a
    join ${students} s on s.id = a.student_id
    left join ${submissions} sub on sub.id = a.id
    where a.partner_id = ${partnerId}
      and ((a.status = 'submitted') <> (sub.id is not null)
        or (sub.id is not null and (not (a.id = any(s.completed_applications)) or a.id = any(s.current_applications))))`);
  return rows[0]?.count ?? -1;
}

/** Every submission of the institution: id → reference. */
export async function storedSubmissions(db: Db, partnerId: string): Promise<Map<string, string>> {
  const rows = await db
    .select({ id: submissions.id, reference: submissions.reference })
    .from(submissions)
    .where(eq(submissions.partner_id, partnerId));
  return new Map(rows.map((row) => [row.id, row.reference]));
}

/** Applicants of the institution with more than one submission in a cycle: each one is a duplicate. */
export async function duplicatedSubmissions(db: Db, partnerId: string): Promise<number> {
  const { rows } = await db.execute<{ count: number }>(sql`
    select count(*)::int as count from (
      select 1 from ${submissions}
      where partner_id = ${partnerId} and student_id is not null
      group by student_id, cycle_id having count(*) > 1
    ) twice`);
  return rows[0]?.count ?? -1;
}
