import { and, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { letterKeysOf } from '../referees/index.ts';
import type { Storage } from '../../lib/storage/index.ts';
import {
  APPLICATION_MESSAGES as A,
  DRAFT_ANSWERS_MAX_BYTES,
  formProgress,
  prefillAnswers,
  stripEmpty,
  type ApplicationCard,
  type ApplicationDocument,
  type ApplicationDraft,
  type ApplicationSummary,
  type ApplyContext,
  type DraftSaved,
  type FormSection,
  type PaymentSummary,
  type ProfileValues,
  type SaveDraft,
  type StaleDraftDetails,
  type StartApplication,
  type StoredPartnerSettings,
} from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { perDatabase } from '../../db/per-database.ts';
import {
  applications,
  campuses,
  cycles,
  documents,
  files,
  forms,
  partnerSettings,
  partners,
  payments,
  programCampuses,
  programs,
  savedPartners,
  students,
  submissions,
} from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import type { DbOrTx } from '../../db/client.ts';
import { studentIdOf } from '../documents/index.ts';
import { snapshotForm } from '../forms/index.ts';
import { getSettings } from '../partner-settings/index.ts';
import { succeededPaymentOf } from '../payments/index.ts';
import { feeWaived, releaseUnsubmittedCodeUses } from '../waivers/index.ts';
import {
  applicationForm,
  applicationsOpen,
  applyCycle,
  chosenCampus,
  feeOf,
  openCurrentCycle,
  openProgram,
  openPrograms,
  orderedSections,
  visiblePartner,
} from '../catalogue/index.ts';

/*
 * A student's applications (spec sections 2–5). Every query names the caller's student id: another
 * student's application is 404 'Not found', never 403, so ids reveal nothing.
 */

async function callerStudentId(db: DbOrTx, userId: string): Promise<string> {
  const studentId = await studentIdOf(db, userId);
  if (!studentId) throw new AppError('NOT_FOUND', A.student_required);
  return studentId;
}

/* ---------------------------------------------------------------- summaries */

const paidFee = sql<boolean>`coalesce(${submissions.paid}, exists (select 1 from ${payments} where ${payments.application_id} = ${applications.id} and ${payments.status} = 'succeeded'))`;

const summaryColumns = {
  id: applications.id,
  partner_id: applications.partner_id,
  partner_name: partners.name,
  partner_logo_url: partners.logo_url,
  cycle_id: applications.cycle_id,
  cycle_name: cycles.name,
  program_id: applications.program_id,
  program_name: programs.name,
  campus_id: applications.campus_id,
  campus_name: campuses.name,
  status: applications.status,
  progress_percentage: applications.progress_percentage,
  current_step: applications.current_step,
  current_section_index: applications.current_section_index,
  started_at: applications.started_at,
  last_saved_at: applications.last_saved_at,
  submitted_at: applications.submitted_at,
  reference: submissions.reference,
  paid: paidFee,
  under_review: sql<boolean>`coalesce(${submissions.status} = 'under_review', false)`,
};

/** The student's applications matching `where`, latest started first. */
function summaries(db: DbOrTx, studentId: string, where?: SQL) {
  return db
    .select(summaryColumns)
    .from(applications)
    .innerJoin(partners, eq(partners.id, applications.partner_id))
    .innerJoin(cycles, eq(cycles.id, applications.cycle_id))
    .innerJoin(programs, eq(programs.id, applications.program_id))
    .leftJoin(campuses, eq(campuses.id, applications.campus_id))
    .leftJoin(submissions, eq(submissions.id, applications.id))
    .where(and(eq(applications.student_id, studentId), where))
    .orderBy(desc(applications.started_at), desc(applications.id));
}

const asSummary = (row: Awaited<ReturnType<typeof summaries>>[number]): ApplicationSummary => ({
  ...row,
  paid: Boolean(row.paid),
});

/* ---------------------------------------------------------------- 1. the applications area */

/**
 * One card per approved and published institution the student saved or applied to: Apply (no
 * application), In Progress or Applied, from their latest application to it.
 */
export async function listCards(db: Db, userId: string): Promise<ApplicationCard[]> {
  const studentId = await studentIdOf(db, userId);
  if (!studentId) return [];
  const rows = (await summaries(db, studentId)).map(asSummary);
  const latest = new Map<string, ApplicationSummary>();
  for (const row of rows) if (!latest.has(row.partner_id)) latest.set(row.partner_id, row);
  const saved = db
    .select({ partner_id: savedPartners.partner_id })
    .from(savedPartners)
    .where(eq(savedPartners.student_id, studentId));
  const institutions = await db
    .select({
      partner_id: partners.id,
      partner_name: partners.name,
      partner_logo_url: partners.logo_url,
      city: partners.address_city,
      country: partners.address_country,
    })
    .from(partners)
    .where(
      and(
        eq(partners.status, 'approved'),
        eq(partners.published, true),
        or(inArray(partners.id, saved), latest.size > 0 ? inArray(partners.id, [...latest.keys()]) : undefined),
      ),
    )
    .orderBy(partners.name);
  return institutions.map((institution) => {
    const application = latest.get(institution.partner_id) ?? null;
    const state = !application ? 'apply' : application.status === 'submitted' ? 'applied' : 'in_progress';
    return { ...institution, state, application };
  });
}

/* ---------------------------------------------------------------- 2. the start screen */

export async function applyContext(db: Db, userId: string, partnerId: string): Promise<ApplyContext> {
  const partner = await visiblePartner(db, partnerId);
  const studentId = await studentIdOf(db, userId);
  const settings = await getSettings(db, partnerId);
  const cycle = await applyCycle(db, partnerId, settings.general.current_cycle_id, settings.general.timezone);
  const [application] =
    studentId && cycle
      ? await summaries(db, studentId, and(eq(applications.partner_id, partnerId), eq(applications.cycle_id, cycle.id)))
      : [];
  return {
    partner: { ...partner, theme: settings.theme },
    cycle,
    programs: cycle ? await openPrograms(db, partnerId, cycle.id) : [],
    fee: feeOf(settings),
    application: application ? asSummary(application) : null,
  };
}

/* ---------------------------------------------------------------- 3. starting */

/** What questions tied to a profile detail are prefilled with. */
async function profileValues(db: DbOrTx, studentId: string): Promise<ProfileValues> {
  const [row] = await db
    .select({
      first_name: students.first_name,
      last_name: students.last_name,
      preferred_name: students.preferred_name,
      email: students.email,
      phone: students.phone,
      date_of_birth: students.date_of_birth,
      nationality: students.nationality,
      country_of_residence: students.country_of_residence,
      country: students.country,
      city: students.city,
      address: students.address,
      postal_code: students.postal_code,
      last_school: students.last_school,
      school_city: students.school_city,
      school_country: students.school_country,
      graduation_year: students.graduation_year,
      gpa: students.gpa,
      major: students.major,
      degree_type: students.degree_type,
    })
    .from(students)
    .where(eq(students.id, studentId))
    .limit(1);
  return row ?? {};
}

/** The student's documents, as file questions offer them. */
async function studentDocuments(db: DbOrTx, studentId: string) {
  return db
    .select({
      id: documents.id,
      type: documents.type,
      name: files.original_name,
      status: documents.status,
      file_id: documents.file_id,
    })
    .from(documents)
    .innerJoin(files, eq(files.id, documents.file_id))
    .where(eq(documents.student_id, studentId))
    .orderBy(documents.type);
}

/**
 * Starts the student's application to an institution in its current cycle, with answers prefilled
 * from their profile and documents (`created` true), or answers the one they already have in this
 * cycle: two tabs starting at once get one application.
 */
export async function startApplication(
  db: Db,
  userId: string,
  partnerId: string,
  input: StartApplication,
): Promise<{ created: boolean; draft: ApplicationDraft }> {
  await visiblePartner(db, partnerId);
  const studentId = await callerStudentId(db, userId);
  const settings = await getSettings(db, partnerId);
  const cycle = await openCurrentCycle(db, partnerId, settings);
  const existing = await applicationIn(db, studentId, partnerId, cycle.id);
  if (existing) return { created: false, draft: await getDraft(db, userId, existing) };

  const program = await openProgram(db, partnerId, cycle.id, input.program_id);
  const campusId = chosenCampus(program, input.campus_id);
  const form = await applicationForm(db, partnerId, cycle.id, program.id);
  const answers = prefillAnswers(
    form.sections,
    await profileValues(db, studentId),
    await studentDocuments(db, studentId),
  );
  const id = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(applications)
      .values({
        student_id: studentId,
        partner_id: partnerId,
        cycle_id: cycle.id,
        program_id: program.id,
        campus_id: campusId,
        form_id: form.id,
        answers,
        progress_percentage: formProgress(form.sections, answers),
      })
      .onConflictDoNothing({ target: [applications.student_id, applications.partner_id, applications.cycle_id] })
      .returning({ id: applications.id });
    if (!row) return null;
    await tx
      .update(students)
      .set({
        current_applications: sql`case when ${row.id}::uuid = any(${students.current_applications}) then ${students.current_applications} else array_append(${students.current_applications}, ${row.id}::uuid) end`,
        last_activity: sql`now()`,
      })
      .where(eq(students.id, studentId));
    return row.id;
  });
  if (id) return { created: true, draft: await getDraft(db, userId, id) };
  // Another tab started it between our look and our insert: answer that one.
  const raced = await applicationIn(db, studentId, partnerId, cycle.id);
  return { created: false, draft: await getDraft(db, userId, raced!) };
}

/** The id of the student's application to the institution in that cycle, if they have one. */
async function applicationIn(db: DbOrTx, studentId: string, partnerId: string, cycleId: string) {
  const [row] = await db
    .select({ id: applications.id })
    .from(applications)
    .where(
      and(
        eq(applications.student_id, studentId),
        eq(applications.partner_id, partnerId),
        eq(applications.cycle_id, cycleId),
      ),
    )
    .limit(1);
  return row?.id ?? null;
}

/* ---------------------------------------------------------------- 4. the draft */

const paymentColumns = {
  id: payments.id,
  provider: payments.provider,
  reference: payments.reference,
  amount: payments.amount,
  currency: payments.currency,
  status: payments.status,
  method: payments.method,
  failure_reason: payments.failure_reason,
  paid_at: payments.paid_at,
  created_at: payments.created_at,
};

/** The fee's payment: the succeeded one, else the latest attempt. */
async function feePayment(db: DbOrTx, applicationId: string): Promise<PaymentSummary | null> {
  const [row] = await db
    .select(paymentColumns)
    .from(payments)
    .where(eq(payments.application_id, applicationId))
    .orderBy(sql`${payments.status} = 'succeeded' desc`, desc(payments.created_at), desc(payments.id))
    .limit(1);
  return row ?? null;
}

/** The application with its form, answers, version, campuses, documents, cycle, fee and payment. */
export async function getDraft(db: DbOrTx, userId: string, applicationId: string): Promise<ApplicationDraft> {
  const studentId = await studentIdOf(db, userId);
  if (!studentId) throw new AppError('NOT_FOUND');
  const [summary] = await summaries(db, studentId, eq(applications.id, applicationId));
  if (!summary) throw new AppError('NOT_FOUND');
  const [row] = await db
    .select({ version: applications.version, answers: applications.answers, form_id: applications.form_id })
    .from(applications)
    .where(and(eq(applications.id, applicationId), eq(applications.student_id, studentId)))
    .limit(1);
  const [submitted] =
    summary.status === 'submitted'
      ? await db
          .select({ form: submissions.form_snapshot, answers: submissions.answers })
          .from(submissions)
          .where(eq(submissions.id, applicationId))
          .limit(1)
      : [];
  // A submitted application shows the form as it was answered; a draft the form as it is now.
  const form = submitted?.form ?? (await snapshotForm(db, summary.partner_id, row!.form_id));
  const settings = await getSettings(db, summary.partner_id);
  const cycle = await applyCycle(db, summary.partner_id, summary.cycle_id, settings.general.timezone);
  const [program] = await openPrograms(db, summary.partner_id, summary.cycle_id, summary.program_id);
  const docs = await studentDocuments(db, studentId);
  return {
    ...asSummary(summary),
    version: row!.version,
    answers: (submitted?.answers ?? row!.answers) as ApplicationDraft['answers'],
    form: { id: form.id, name: form.name, version: form.version, sections: orderedSections(form.sections) },
    campuses: program?.campuses ?? [],
    documents: docs.map(({ id, type, name }): ApplicationDocument => ({ id, type, name })),
    cycle: {
      ...cycle!,
      accepting_applications: cycle!.accepting_applications && isCurrent(settings, summary.cycle_id),
    },
    fee: feeOf(settings),
    payment: await feePayment(db, applicationId),
    fee_waived: await feeWaived(db, applicationId),
    theme: settings.theme,
  };
}

const isCurrent = (settings: Pick<StoredPartnerSettings, 'general'>, cycleId: string) =>
  settings.general.current_cycle_id === cycleId;

/* ---------------------------------------------------------------- 5. autosave */

/** The answers to the form's own questions, empties stripped. */
function formAnswers(sections: readonly FormSection[], answers: Record<string, unknown>): Record<string, unknown> {
  const ids = new Set(sections.flatMap((section) => section.questions.map((question) => question.id)));
  return stripEmpty(Object.fromEntries(Object.entries(answers).filter(([id]) => ids.has(id))));
}

/** The autosave's single read: the application with its form, cycle and settings, by id and user. */
function prepareDraftForAutosave(db: Db) {
  return (
    db
      .select({
        student_id: applications.student_id,
        status: applications.status,
        version: applications.version,
        last_saved_at: applications.last_saved_at,
        program_id: applications.program_id,
        form_id: applications.form_id,
        cycle_id: applications.cycle_id,
        sections: forms.sections,
        cycle_status: cycles.status,
        opens_on: cycles.opens_on,
        closes_on: cycles.closes_on,
        general: partnerSettings.general,
      })
      .from(applications)
      .innerJoin(
        students,
        and(eq(students.id, applications.student_id), eq(students.user_id, sql.placeholder('userId'))),
      )
      .innerJoin(cycles, eq(cycles.id, applications.cycle_id))
      .leftJoin(forms, and(eq(forms.id, applications.form_id), eq(forms.partner_id, applications.partner_id)))
      .leftJoin(partnerSettings, eq(partnerSettings.partner_id, applications.partner_id))
      .where(eq(applications.id, sql.placeholder('applicationId')))
      .limit(1)
      // A named statement: planned once per connection, not on each of thousands of autosaves.
      .prepare('read_draft_for_autosave')
  );
}

const draftForAutosave = perDatabase(prepareDraftForAutosave);

/**
 * The autosave's guarded UPDATE (id, student, status, version), bumping the version: one named statement
 * per database (perDatabase). A position or campus the save does not carry (null) stays as it was.
 */
function prepareGuardedSave(db: Db) {
  return db
    .update(applications)
    .set({
      answers: sql`${sql.placeholder('answers')}::jsonb`,
      progress_percentage: sql`${sql.placeholder('progress')}::int`,
      current_step: sql`coalesce(${sql.placeholder('step')}::int, ${applications.current_step})`,
      current_section_index: sql`coalesce(${sql.placeholder('section')}::int, ${applications.current_section_index})`,
      campus_id: sql`coalesce(${sql.placeholder('campus')}::uuid, ${applications.campus_id})`,
      version: sql`${applications.version} + 1`,
      last_saved_at: sql`now()`,
      updated_at: sql`now()`,
    })
    .where(
      and(
        eq(applications.id, sql.placeholder('applicationId')),
        eq(applications.student_id, sql.placeholder('studentId')),
        eq(applications.status, 'in_progress'),
        eq(applications.version, sql.placeholder('version')),
      ),
    )
    .returning({
      version: applications.version,
      last_saved_at: applications.last_saved_at,
      progress_percentage: applications.progress_percentage,
    })
    .prepare('save_draft_guarded');
}

const guardedSave = perDatabase(prepareGuardedSave);

export const staleDraft = (details: StaleDraftDetails) =>
  new AppError('ABORTED', A.stale_draft, details, { reason: 'stale_draft' });

/**
 * Saves the answers if the client saw the latest version: one guarded UPDATE (id, student, status,
 * version) bumping the version (guardedSave). The single read before it (application, form, cycle and settings in
 * one query) tells the refusals apart and gives the form's questions for the progress.
 */
export async function saveDraft(db: Db, userId: string, applicationId: string, input: SaveDraft): Promise<DraftSaved> {
  if (Buffer.byteLength(JSON.stringify(input.answers)) > DRAFT_ANSWERS_MAX_BYTES) {
    throw new AppError('INVALID_ARGUMENT', A.answers_too_large);
  }
  const [row] = await draftForAutosave(db).execute({ userId, applicationId });
  if (!row) throw new AppError('NOT_FOUND');
  if (row.status === 'submitted')
    throw new AppError('ABORTED', A.already_submitted, undefined, { reason: 'already_submitted' });
  const general = (row.general ?? {}) as Partial<StoredPartnerSettings['general']>;
  const cycle = { status: row.cycle_status, opens_on: row.opens_on, closes_on: row.closes_on };
  if (!applicationsOpen(general, row.cycle_id, cycle))
    throw new AppError('ABORTED', A.cycle_closed, undefined, { reason: 'cycle_closed' });
  if (row.version !== input.version) throw staleDraft({ version: row.version, last_saved_at: row.last_saved_at });
  if (!row.sections) throw new AppError('NOT_FOUND', A.form_not_found.replace('{id}', row.form_id));
  if (input.campus_id) {
    const [offered] = await db
      .select({ campus_id: programCampuses.campus_id })
      .from(programCampuses)
      .where(and(eq(programCampuses.program_id, row.program_id), eq(programCampuses.campus_id, input.campus_id)))
      .limit(1);
    if (!offered) throw new AppError('INVALID_ARGUMENT', A.campus_not_offered);
  }
  const answers = formAnswers(row.sections, input.answers);
  const [saved] = await guardedSave(db).execute({
    answers: JSON.stringify(answers),
    progress: formProgress(row.sections, answers),
    step: input.current_step ?? null,
    section: input.current_section_index ?? null,
    campus: input.campus_id ?? null,
    applicationId,
    studentId: row.student_id,
    version: input.version,
  });
  if (saved) return { ...saved, last_saved_at: saved.last_saved_at! };
  // Another save or the submit got in between the read and the update.
  const [now] = await db
    .select({ status: applications.status, version: applications.version, last_saved_at: applications.last_saved_at })
    .from(applications)
    .where(and(eq(applications.id, applicationId), eq(applications.student_id, row.student_id)))
    .limit(1);
  if (!now) throw new AppError('NOT_FOUND');
  if (now.status === 'submitted')
    throw new AppError('ABORTED', A.already_submitted, undefined, { reason: 'already_submitted' });
  throw staleDraft({ version: now.version, last_saved_at: now.last_saved_at });
}

/* ---------------------------------------------------------------- 6. discarding */

/** Deletes an unsubmitted, unpaid application with its failed or pending payment attempts. */
export async function discardDraft(db: Db, storage: Storage, userId: string, applicationId: string): Promise<void> {
  const letters = await db.transaction(async (tx) => {
    const studentId = await studentIdOf(tx, userId);
    if (!studentId) throw new AppError('NOT_FOUND');
    const [row] = await tx
      .select({ status: applications.status })
      .from(applications)
      .where(and(eq(applications.id, applicationId), eq(applications.student_id, studentId)))
      .for('update');
    if (!row) throw new AppError('NOT_FOUND');
    if (row.status === 'submitted')
      throw new AppError('ABORTED', A.already_submitted, undefined, { reason: 'already_submitted' });
    if (await succeededPaymentOf(tx, applicationId)) throw new AppError('ABORTED', A.paid_draft);
    await releaseUnsubmittedCodeUses(tx, [applicationId]);
    const keys = await letterKeysOf(tx, [applicationId]);
    await tx
      .delete(payments)
      .where(and(eq(payments.application_id, applicationId), inArray(payments.status, ['pending', 'failed'])));
    await tx
      .delete(applications)
      .where(
        and(
          eq(applications.id, applicationId),
          eq(applications.student_id, studentId),
          eq(applications.status, 'in_progress'),
        ),
      );
    await tx
      .update(students)
      .set({ current_applications: sql`array_remove(${students.current_applications}, ${applicationId}::uuid)` })
      .where(eq(students.id, studentId));
    return keys;
  });
  // The referees' letters went with the draft: their files follow once that is committed.
  for (const key of letters) await storage.delete(key);
}
