import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { refereesOfSubmission } from '../referees/index.ts';
import {
  REVIEW_MESSAGES as R,
  type ReviewApplication,
  type ReviewDocument,
  type ReviewEvent,
  type ReviewNote,
  type ReviewOptions,
  type ReviewScore,
} from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import {
  campuses,
  cycles,
  decisions,
  documents,
  programs,
  reviewEvents,
  reviewNotes,
  reviewScores,
  staff,
  submissions,
} from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import type { DbOrTx } from '../../db/client.ts';
import { paymentSummaryById } from '../payments/index.ts';
import { REVIEW_PERMISSIONS } from '../submissions/index.ts';
import type { ReviewQueryContext } from './review-context.ts';
import { conditionViewsOf, placesOfSubmission, reviewDeferralOf, toReviewDecision } from '../decisions/index.ts';
import { sittingsOf } from '../students/index.ts';

const iso = (value: string) => new Date(value).toISOString();

/** A staff member as the author of a history line. */
export const staffActor = (context: ReviewQueryContext) => ({ kind: 'staff', staffId: context.staffId }) as const;

export const staffName = sql<string>`${staff.first_name} || ' ' || ${staff.last_name}`;

/* ---------------------------------------------------------------- reviewers */

/** Active, approved members of the institution who review (review_applications, make_decisions or all). */
function reviewerWhere(partnerId: string): SQL {
  return and(
    eq(staff.partner_id, partnerId),
    eq(staff.approval_status, 'approved'),
    eq(staff.active, true),
    sql`${staff.permissions} && ${sql.param([...REVIEW_PERMISSIONS, 'all'])}::text[]`,
  )!;
}

export async function assertReviewer(db: DbOrTx, partnerId: string, staffId: string): Promise<void> {
  const [row] = await db
    .select({ id: staff.id })
    .from(staff)
    .where(and(reviewerWhere(partnerId), eq(staff.id, staffId)))
    .limit(1);
  if (!row) throw new AppError('INVALID_ARGUMENT', R.reviewer_unknown);
}

export function assertStage(context: ReviewQueryContext, stageId: string | null): void {
  if (stageId !== null && !context.stages.some((stage) => stage.id === stageId)) {
    throw new AppError('INVALID_ARGUMENT', R.stage_unknown);
  }
}

/* ---------------------------------------------------------------- options */

export async function reviewOptions(db: Db, context: ReviewQueryContext): Promise<ReviewOptions> {
  const { partnerId } = context;
  const [cycleRows, programRows, campusRows, reviewers] = await Promise.all([
    db
      .select({ id: cycles.id, name: cycles.name, decision_release_on: cycles.decision_release_on })
      .from(cycles)
      .where(eq(cycles.partner_id, partnerId))
      .orderBy(desc(cycles.opens_on), asc(cycles.name)),
    db
      .select({ id: programs.id, name: programs.name })
      .from(programs)
      .where(eq(programs.partner_id, partnerId))
      .orderBy(asc(programs.name)),
    db
      .select({ id: campuses.id, name: campuses.name })
      .from(campuses)
      .where(eq(campuses.partner_id, partnerId))
      .orderBy(asc(campuses.name)),
    db
      .select({ id: staff.id, name: staffName })
      .from(staff)
      .where(reviewerWhere(partnerId))
      .orderBy(asc(staff.first_name), asc(staff.last_name)),
  ]);
  return {
    cycles: cycleRows,
    programs: programRows,
    campuses: campusRows,
    stages: context.stages.map(({ id, name }) => ({ id, name })),
    reviewers,
    rubric: context.settings.admissions.rubric,
    blind: context.blind,
    can_decide: context.canDecide,
    me: context.staffId,
    timezone: context.settings.general.timezone,
  };
}

/* ---------------------------------------------------------------- one application */

/** Profile details a blind reviewer never sees: who the applicant is and how to reach them. */
const IDENTIFYING_FIELDS = new Set([
  'first_name',
  'last_name',
  'preferred_name',
  'email',
  'phone',
  'address',
  'postal_code',
  'profile_picture',
]);

export interface SnapshotDocument {
  type: ReviewDocument['type'];
  document_id: string;
  file_id: string;
  file_name: string;
}

/** The documents the submission kept of the applicant's profile (see the submit). */
export function submittedDocuments(profile: Record<string, unknown>): SnapshotDocument[] {
  const list = profile.documents;
  return Array.isArray(list) ? (list as SnapshotDocument[]) : [];
}

export function toNote(
  row: { id: string; author_id: string | null; author_name: string | null; body: string; created_at: string },
  staffId: string,
): ReviewNote {
  return {
    id: row.id,
    author: row.author_id ? { id: row.author_id, name: row.author_name ?? '' } : null,
    body: row.body,
    created_at: iso(row.created_at),
    mine: row.author_id === staffId,
  };
}

export function toScore(row: {
  reviewer_id: string;
  reviewer_name: string;
  criteria: Record<string, number>;
  total: number;
  comment: string | null;
  updated_at: string;
}): ReviewScore {
  return {
    reviewer: { id: row.reviewer_id, name: row.reviewer_name },
    criteria: row.criteria,
    total: row.total,
    comment: row.comment,
    updated_at: iso(row.updated_at),
  };
}

/**
 * The documents each submission kept, as they stand now (status, review note, whether the file
 * submitted is still the one on file): what staff see, and what the partner API answers. One query
 * for all the submissions given, in their order.
 */
export async function currentDocumentsOf(
  db: DbOrTx,
  profiles: ReadonlyArray<Record<string, unknown>>,
): Promise<ReviewDocument[][]> {
  const submitted = profiles.map(submittedDocuments);
  const ids = [...new Set(submitted.flat().map((document) => document.document_id))];
  const now =
    ids.length === 0
      ? []
      : await db
          .select({
            id: documents.id,
            file_id: documents.file_id,
            status: documents.status,
            review_note: documents.review_note,
          })
          .from(documents)
          .where(inArray(documents.id, ids));
  const byId = new Map(now.map((row) => [row.id, row]));
  return submitted.map((list) =>
    list.map((document): ReviewDocument => {
      const current = byId.get(document.document_id);
      const available = current?.file_id === document.file_id;
      return {
        document_id: document.document_id,
        type: document.type,
        file_name: document.file_name,
        // A replaced file's verdict is about the new one; the one submitted has none any more.
        status: current ? (available ? current.status : 'pending') : 'not_uploaded',
        review_note: available ? (current?.review_note ?? null) : null,
        available,
      };
    }),
  );
}

async function documentsOf(db: DbOrTx, profile: Record<string, unknown>): Promise<ReviewDocument[]> {
  const [list] = await currentDocumentsOf(db, [profile]);
  return list ?? [];
}

/** The names of the institution's members among these ids (others, and members since removed, are left out). */
async function staffNames(db: DbOrTx, partnerId: string, ids: readonly unknown[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id): id is string => typeof id === 'string'))];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .select({ id: staff.id, name: staffName })
    .from(staff)
    .where(and(eq(staff.partner_id, partnerId), inArray(staff.id, wanted)));
  return new Map(rows.map((row) => [row.id, row.name]));
}

/**
 * An assignment's line names the reviewers, not only their ids: the history is read by people, and a
 * member's name is looked up as it is now (null for one since removed, whom the view calls a former member).
 */
function withReviewerNames(details: Record<string, unknown>, names: Map<string, string>): Record<string, unknown> {
  const nameOf = (id: unknown) => (typeof id === 'string' ? (names.get(id) ?? null) : null);
  return { ...details, from_name: nameOf(details.from), to_name: nameOf(details.to) };
}

/**
 * The first line of every history, the submission itself: it is the submission row (no event is
 * written for it), by the applicant or by the member who submitted on their behalf.
 */
function submittedEvent(
  submission: typeof submissions.$inferSelect,
  applicantName: string | null,
  names: Map<string, string>,
): ReviewEvent {
  return {
    id: submission.id,
    action: 'submitted',
    actor: submission.submitted_by_staff
      ? { kind: 'staff', name: submission.staff_id ? (names.get(submission.staff_id) ?? null) : null }
      : { kind: 'applicant', name: applicantName },
    details: {},
    created_at: iso(submission.created_at),
  };
}

/** The application as a reviewer sees it: the snapshot, documents, payment, notes, scores, decision and history. */
export async function reviewApplication(
  db: DbOrTx,
  context: ReviewQueryContext,
  submissionId: string,
): Promise<ReviewApplication> {
  const [row] = await db
    .select({
      submission: submissions,
      cycle: { id: cycles.id, name: cycles.name, decision_release_on: cycles.decision_release_on },
      program: { id: programs.id, name: programs.name },
      campus: { id: campuses.id, name: campuses.name },
      assigned_name: staffName,
    })
    .from(submissions)
    .innerJoin(campuses, eq(campuses.id, submissions.campus_id))
    .leftJoin(cycles, eq(cycles.id, submissions.cycle_id))
    .leftJoin(programs, eq(programs.id, submissions.program_id))
    .leftJoin(staff, eq(staff.id, submissions.assigned_to))
    .where(and(eq(submissions.id, submissionId), eq(submissions.partner_id, context.partnerId)))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND');
  const { submission } = row;

  const [docs, record, notes, scores, decisionRows, events, referees] = await Promise.all([
    documentsOf(db, submission.profile),
    submission.payment_id ? paymentSummaryById(db, submission.payment_id) : Promise.resolve(null),
    db
      .select({
        id: reviewNotes.id,
        author_id: reviewNotes.author_id,
        author_name: staffName,
        body: reviewNotes.body,
        created_at: reviewNotes.created_at,
      })
      .from(reviewNotes)
      .leftJoin(staff, eq(staff.id, reviewNotes.author_id))
      .where(eq(reviewNotes.submission_id, submissionId))
      .orderBy(desc(reviewNotes.created_at), desc(reviewNotes.id)),
    db
      .select({
        reviewer_id: reviewScores.reviewer_id,
        reviewer_name: staffName,
        criteria: reviewScores.criteria,
        total: reviewScores.total,
        comment: reviewScores.comment,
        updated_at: reviewScores.updated_at,
      })
      .from(reviewScores)
      .innerJoin(staff, eq(staff.id, reviewScores.reviewer_id))
      .where(eq(reviewScores.submission_id, submissionId))
      .orderBy(asc(reviewScores.created_at)),
    db
      .select({ decision: decisions, decided_by_name: staffName })
      .from(decisions)
      .leftJoin(staff, eq(staff.id, decisions.decided_by))
      .where(eq(decisions.submission_id, submissionId))
      .limit(1),
    db
      .select({
        id: reviewEvents.id,
        action: reviewEvents.action,
        actor_kind: reviewEvents.actor_kind,
        actor_name: staffName,
        details: reviewEvents.details,
        created_at: reviewEvents.created_at,
      })
      .from(reviewEvents)
      .leftJoin(staff, eq(staff.id, reviewEvents.actor_staff_id))
      .where(eq(reviewEvents.submission_id, submissionId))
      .orderBy(asc(reviewEvents.created_at), asc(reviewEvents.id)),
    refereesOfSubmission(db, submissionId, submission.form_snapshot?.sections ?? []),
  ]);

  const sittings = submission.student_id ? await sittingsOf(db, submission.student_id) : [];
  const { documents: _documents, ...profile } = submission.profile;
  const form = submission.form_snapshot ?? null;
  let answers = submission.answers;
  let shownProfile: Record<string, unknown> = profile;
  if (context.blind) {
    shownProfile = Object.fromEntries(Object.entries(profile).filter(([key]) => !IDENTIFYING_FIELDS.has(key)));
    // Answers prefilled from the name or contact details would tell the same.
    const identifying = new Set(
      (form?.sections ?? [])
        .flatMap((section) => section.questions)
        .filter((question) => question.profile_field && IDENTIFYING_FIELDS.has(question.profile_field))
        .map((question) => question.id),
    );
    answers = Object.fromEntries(Object.entries(answers).filter(([key]) => !identifying.has(key)));
  }
  const applicantName = context.blind ? null : submission.applicant_name;
  const decision = decisionRows[0];
  const names = await staffNames(db, context.partnerId, [
    submission.staff_id,
    ...events.filter((event) => event.action === 'assigned').flatMap((event) => [event.details.from, event.details.to]),
  ]);

  return {
    id: submission.id,
    reference: submission.reference,
    status: submission.status,
    stage_id: submission.stage_id,
    assigned_to: submission.assigned_to ? { id: submission.assigned_to, name: row.assigned_name ?? '' } : null,
    submitted_at: iso(submission.created_at),
    submitted_by_staff: submission.submitted_by_staff,
    cycle: row.cycle,
    program: row.program,
    campus: row.campus,
    applicant_name: applicantName,
    profile: shownProfile,
    form,
    answers,
    documents: docs,
    referees,
    payment: {
      paid: submission.paid,
      amount: submission.amount,
      currency: submission.currency,
      waived: submission.fee_waived,
      record,
    },
    notes: notes.map((note) => toNote(note, context.staffId)),
    scores: scores.map(toScore),
    score_average: submission.score_average,
    rubric: context.settings.admissions.rubric,
    decision: decision
      ? toReviewDecision(
          decision.decision,
          decision.decision.decided_by
            ? { id: decision.decision.decided_by, name: decision.decided_by_name ?? '' }
            : null,
          await conditionViewsOf(db, decision.decision),
          await reviewDeferralOf(db, decision.decision.id),
        )
      : null,
    places: await placesOfSubmission(db, submission.id),
    history: [
      submittedEvent(submission, applicantName, names),
      ...events.map((event): ReviewEvent => ({
        id: event.id,
        action: event.action,
        actor: {
          kind: event.actor_kind,
          name:
            event.actor_kind === 'staff' ? event.actor_name : event.actor_kind === 'applicant' ? applicantName : null,
        },
        details: event.action === 'assigned' ? withReviewerNames(event.details, names) : event.details,
        created_at: iso(event.created_at),
      })),
    ],
    blind: context.blind,
    can_decide: context.canDecide,
    eligibility: submission.eligibility,
    // An index number names the candidate: a blind reviewer reads the results without it.
    exam_sittings: context.blind ? sittings.map((sitting) => ({ ...sitting, index_number: '' })) : sittings,
  };
}
