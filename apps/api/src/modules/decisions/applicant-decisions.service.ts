import { and, desc, eq, isNotNull, isNull, type SQL } from 'drizzle-orm';
import {
  DECISION_MESSAGES as D,
  type AdmissionLetterIssued,
  type DecisionResponseInput,
  type LetterVerification,
  type StudentDecision,
} from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { decisions, submissions } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import type { DbOrTx } from '../../db/client.ts';
import { studentIdOf } from '../documents/index.ts';
import { recordEvent } from '../submissions/index.ts';
import { conditionViewsOf, toStudentDecision, type DecisionRow } from './decision-shapes.ts';
import { studentDeferralOf, studentDeferrals } from './deferral-shapes.ts';
import { proposeNextOnWaitlist } from './places.service.ts';

/** The applicant's side of decisions: reading them, the letter, answering an offer; and anyone verifying a letter. */
const notFound = () => new AppError('NOT_FOUND', D.application_not_found);

/** Released decisions of the student's own submissions: nothing else exists for a student. */
function ownReleased(studentId: string): SQL {
  return and(eq(submissions.student_id, studentId), isNotNull(decisions.released_at))!;
}

export async function listStudentDecisions(db: Db, userId: string): Promise<StudentDecision[]> {
  const studentId = await studentIdOf(db, userId);
  if (!studentId) return [];
  const rows = await db
    .select({ decision: decisions })
    .from(decisions)
    .innerJoin(submissions, eq(submissions.id, decisions.submission_id))
    .where(ownReleased(studentId))
    .orderBy(desc(decisions.released_at));
  const deferrals = await studentDeferrals(
    db,
    rows.map((row) => row.decision.id),
  );
  return Promise.all(
    rows.map(async (row) =>
      toStudentDecision(row.decision, await conditionViewsOf(db, row.decision), deferrals.get(row.decision.id) ?? null),
    ),
  );
}

/** A decision as its applicant reads it, with its conditions' views and its latest deferral request. */
export async function studentView(db: DbOrTx, decision: DecisionRow): Promise<StudentDecision> {
  return toStudentDecision(decision, await conditionViewsOf(db, decision), await studentDeferralOf(db, decision.id));
}

/** The released decision on one of the student's own submissions (404 otherwise), locked if asked. */
export async function ownDecision(db: DbOrTx, userId: string, applicationId: string, { lock = false } = {}) {
  const studentId = await studentIdOf(db, userId);
  if (!studentId) throw notFound();
  const query = db
    .select({ decision: decisions })
    .from(decisions)
    .innerJoin(submissions, eq(submissions.id, decisions.submission_id))
    .where(and(eq(decisions.submission_id, applicationId), ownReleased(studentId)))
    .limit(1);
  const [row] = lock ? await query.for('update', { of: decisions }) : await query;
  if (!row) throw notFound();
  return row.decision;
}

export async function getStudentDecision(db: Db, userId: string, applicationId: string): Promise<StudentDecision> {
  return studentView(db, await ownDecision(db, userId, applicationId));
}

export async function getStudentLetter(db: Db, userId: string, applicationId: string): Promise<AdmissionLetterIssued> {
  const decision = await ownDecision(db, userId, applicationId);
  if (!decision.letter) throw notFound();
  return decision.letter;
}

/**
 * The applicant's answer to an offer: once, only to an offer, and before its reply deadline (the moment
 * decides, not whether the lapse job has run yet). A conditional offer may be accepted while its
 * conditions are pending; one whose conditions were not met has ended.
 */
export async function respondToOffer(
  db: Db,
  userId: string,
  applicationId: string,
  input: DecisionResponseInput,
  now = new Date(),
): Promise<StudentDecision> {
  const answered = await db.transaction(async (tx) => {
    const decision = await ownDecision(tx, userId, applicationId, { lock: true });
    if (decision.state !== 'accepted') throw new AppError('ABORTED', D.not_an_offer);
    if (decision.response) throw new AppError('ABORTED', D.already_responded);
    if (decision.conditions_status === 'not_met') throw new AppError('ABORTED', D.offer_ended);
    if (decision.lapsed_at || (decision.reply_by && Date.parse(decision.reply_by) <= now.getTime())) {
      throw new AppError('ABORTED', D.reply_deadline_passed);
    }
    const [row] = await tx
      .update(decisions)
      .set({ response: input.response, response_date: now.toISOString() })
      .where(and(eq(decisions.id, decision.id), isNull(decisions.response)))
      .returning();
    if (!row) throw new AppError('ABORTED', D.already_responded);
    await recordEvent(tx, {
      submissionId: decision.submission_id,
      partnerId: decision.partner_id,
      actor: { kind: 'applicant' },
      action: input.response === 'accepted' ? 'offer_accepted' : 'offer_declined',
    });
    // A declined offer gives its place back: the next on the waiting list is proposed to staff.
    if (input.response === 'declined') await proposeNextOnWaitlist(tx, decision.submission_id, now);
    return row;
  });
  return studentView(db, answered);
}

/** What the letter's QR code confirms, and nothing more: a released decision's letter only. */
export async function verifyLetter(db: Db, code: string): Promise<LetterVerification> {
  const [row] = await db
    .select({ state: decisions.state, letter: decisions.letter })
    .from(decisions)
    .where(and(eq(decisions.verification_code, code), isNotNull(decisions.released_at), isNotNull(decisions.letter)))
    .limit(1);
  if (!row?.letter) throw new AppError('NOT_FOUND', D.letter_not_found);
  return {
    student_name: row.letter.student_name,
    university_name: row.letter.university_name,
    program_name: row.letter.program_name,
    state: row.state,
    issued_on: row.letter.issued_on,
  };
}
