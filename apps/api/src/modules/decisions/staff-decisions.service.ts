import { and, asc, eq, inArray, isNotNull, isNull, lte, sql, type SQL } from 'drizzle-orm';
import {
  DECISION_MESSAGES as D,
  dayInTimeZone,
  type AdmissionLetterIssued,
  type ConditionsOutcome,
  type DecisionDraft,
  type DecisionRelease,
  type DecisionReleaseResult,
  type DecisionState,
  type ReviewDecision,
  type StoredPartnerSettings,
} from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import {
  campuses,
  cycles,
  decisions,
  deferralRequests,
  partners,
  programs,
  students,
  submissions,
} from '../../db/schema/index.ts';
import { uniqueViolation } from '../../lib/db-errors.ts';
import { AppError } from '../../lib/errors.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { enqueueEmail, emailLanguage } from '../email/index.ts';
import { deadlineWording } from '../notifications/index.ts';
import { notify } from '../notifications/index.ts';
import { readPreferences } from '../settings/index.ts';
import { getSettings } from '../partner-settings/index.ts';
import type { StaffCaller } from '../partners/index.ts';
import { markUnderReview, recordEvent, submissionOfPartner, type ReviewActor } from '../submissions/index.ts';
import { newVerificationCode } from '../../lib/verification-code.ts';
import { entryRulesIssues, examSystem } from '@kaminuza/shared/exams';
import { renderLetter } from './letter.ts';
import { endOfDayIn, startOfDayIn, wallTimeIn } from '../../lib/time.ts';
import { reviewDecisionOf, type DecisionRow } from './decision-shapes.ts';
import { assertPlacesFor, heldCycle, proposeNextOnWaitlist } from './places.service.ts';

/** The institution's side of decisions: drafting, withdrawing and releasing them (by hand or when due). */
/** A decision with what releasing it needs: the letter's facts and the applicant's account, if any. */
export function releaseRows(db: DbOrTx, where: SQL | undefined) {
  return (
    db
      .select({
        decision: decisions,
        reference: submissions.reference,
        applicant_name: submissions.applicant_name,
        campus_name: campuses.name,
        cycle_name: cycles.name,
        decision_release_on: cycles.decision_release_on,
        logo_url: partners.logo_url,
        student_email: students.email,
        student_user_id: students.user_id,
        student_language: students.language,
        student_timezone: students.timezone,
        student_name: sql<string | null>`coalesce(${students.preferred_name}, ${students.first_name})`,
      })
      .from(decisions)
      .innerJoin(submissions, eq(submissions.id, decisions.submission_id))
      .innerJoin(partners, eq(partners.id, decisions.partner_id))
      .innerJoin(campuses, eq(campuses.id, submissions.campus_id))
      // The cycle the offer holds its place in: the one it was deferred to (ADR 053), else the one applied to.
      .leftJoin(cycles, eq(cycles.id, heldCycle))
      .leftJoin(students, eq(students.id, submissions.student_id))
      .where(where)
  );
}
export type ReleaseRow = Awaited<ReturnType<typeof releaseRows>>[number];

/** What the applicant is told about their decision, each an in-app notification type and an email template. */
type DecisionNotice =
  | 'decision_released'
  | 'deferral_approved'
  | 'deferral_declined'
  | 'waitlist_offer'
  | 'offer_conditions_met'
  | 'offer_conditions_not_met'
  | 'offer_reply_reminder'
  | 'offer_lapsed';

/** How many times a colliding verification code is drawn again (60 bits: practically never). */
const CODE_ATTEMPTS = 5;

/** One release pass: who releases, when, and the settings of each institution read once. */
export class Releaser {
  private readonly settings = new Map<string, Promise<StoredPartnerSettings>>();

  private readonly tx: Tx;
  private readonly now: Date;
  private readonly publicUrl: string;
  private readonly actor: ReviewActor;

  constructor(tx: Tx, now: Date, publicUrl: string, actor: ReviewActor) {
    this.tx = tx;
    this.now = now;
    this.publicUrl = publicUrl;
    this.actor = actor;
  }

  settingsOf(partnerId: string): Promise<StoredPartnerSettings> {
    let found = this.settings.get(partnerId);
    if (!found) {
      found = getSettings(this.tx, partnerId);
      this.settings.set(partnerId, found);
    }
    return found;
  }

  /**
   * Releases a drafted decision, or (with `change`) turns a released waitlisted decision into an offer or
   * a rejection, released at once. The update is guarded, so a decision released meanwhile changes nothing
   * and sends nothing: answers whether this call released it. An acceptance gets its letter; the
   * submission takes the decision's state; the applicant, if they have an account, gets one email.
   */
  /** The admission letter of an offer, in the applicant's language, with its conditions as they stand. */
  async letterOf(
    row: ReleaseRow,
    terms: Pick<DecisionRow, 'conditions' | 'reply_by_on'>,
    names: { programName: string; universityName: string },
    code: string,
  ): Promise<AdmissionLetterIssued> {
    const settings = await this.settingsOf(row.decision.partner_id);
    const language = emailLanguage(row.student_language ?? settings.general.default_language);
    return renderLetter(
      settings.admissions.admission_letter,
      {
        reference: row.reference,
        student_name: row.applicant_name,
        university_name: names.universityName,
        logo_url: row.logo_url,
        program_name: names.programName,
        campus_name: row.campus_name,
        cycle_name: row.cycle_name ?? '',
        issued_on: dayInTimeZone(this.now, settings.general.timezone),
        conditions: terms.conditions,
        reply_by_on: terms.reply_by_on,
      },
      language,
      code,
      this.publicUrl,
    );
  }

  async release(
    row: ReleaseRow,
    change?: {
      state: DecisionState;
      decidedBy: string;
      programName: string;
      universityName: string;
      terms: OfferTermsValues;
    },
  ): Promise<boolean> {
    const { decision } = row;
    const state = change?.state ?? decision.state;
    const guard = change
      ? and(eq(decisions.id, decision.id), eq(decisions.state, 'waitlisted'), isNotNull(decisions.released_at))
      : and(eq(decisions.id, decision.id), isNull(decisions.released_at));
    const programName = change?.programName ?? decision.program_name;
    const universityName = change?.universityName ?? decision.university_name;
    const base = {
      released_at: this.now.toISOString(),
      release_at: null,
      ...(change
        ? {
            state,
            decided_by: change.decidedBy,
            automatic: false,
            program_name: programName,
            university_name: universityName,
            ...change.terms,
          }
        : {}),
    };
    const terms = change?.terms ?? decision;

    let released: { id: string }[] = [];
    if (state === 'accepted') {
      for (let attempt = 0; ; attempt += 1) {
        const code = newVerificationCode();
        const letter = await this.letterOf(row, terms, { programName, universityName }, code);
        try {
          // A savepoint, so a code collision leaves the transaction usable for the next draw.
          released = await this.tx.transaction((savepoint) =>
            savepoint
              .update(decisions)
              .set({ ...base, verification_code: code, letter })
              .where(guard)
              .returning({ id: decisions.id }),
          );
          break;
        } catch (error) {
          if (attempt + 1 < CODE_ATTEMPTS && uniqueViolation(error) === 'decisions_verification_code_unique') continue;
          throw error;
        }
      }
    } else {
      released = await this.tx.update(decisions).set(base).where(guard).returning({ id: decisions.id });
    }
    if (released.length === 0) return false;

    await this.tx.update(submissions).set({ status: state }).where(eq(submissions.id, decision.submission_id));
    await recordEvent(this.tx, {
      submissionId: decision.submission_id,
      partnerId: decision.partner_id,
      actor: this.actor,
      action: 'decision_released',
      details: change ? { state, from: 'waitlisted' } : { state, automatic: decision.automatic },
    });
    const offer = Boolean(change) && state === 'accepted';
    await this.tell(row, offer ? 'waitlist_offer' : 'decision_released', 'status_updates', {
      programName,
      universityName,
    });
    return true;
  }

  /**
   * Tells the applicant, if they have an account: in-app always; push and email as they chose (the
   * category's push, and email application updates, or reminders for a reminder).
   */
  async tell(
    row: ReleaseRow,
    type: DecisionNotice,
    category: 'status_updates' | 'deadline_reminders',
    extra: {
      programName?: string;
      universityName?: string;
      deadline?: { at: string; days: number };
      /** A deferral's cycle, and staff's note with their answer (ADR 053). */
      cycleName?: string;
      note?: string;
    } = {},
  ): Promise<void> {
    if (!row.student_email || !row.student_user_id) return;
    const { decision } = row;
    const settings = await this.settingsOf(decision.partner_id);
    const language = emailLanguage(row.student_language ?? settings.general.default_language);
    const institution = extra.universityName ?? decision.university_name;
    const program = extra.programName ?? decision.program_name;
    const path = `/partners/${decision.partner_id}/application/decision`;
    const deadline = extra.deadline
      ? deadlineWording(new Date(extra.deadline.at), language, row.student_timezone ?? settings.general.timezone)
      : undefined;
    const preferences = await readPreferences(this.tx, row.student_user_id);
    await notify(this.tx, {
      userId: row.student_user_id,
      preferences,
      category,
      type,
      data: {
        institution,
        program,
        ...(extra.deadline ? { deadline, deadline_at: extra.deadline.at, days: extra.deadline.days } : {}),
        ...(extra.cycleName ? { cycle: extra.cycleName } : {}),
        ...(extra.note ? { reason: extra.note } : {}),
      },
      link: path,
    });
    const wanted =
      category === 'deadline_reminders' ? preferences.email.reminders : preferences.email.application_updates;
    if (!wanted) return;
    await enqueueEmail(this.tx, {
      to: row.student_email,
      template: type,
      language,
      data: {
        ...(row.student_name ? { name: row.student_name } : {}),
        institution_name: institution,
        program_name: program,
        ...(deadline ? { deadline } : {}),
        ...(extra.cycleName ? { cycle_name: extra.cycleName } : {}),
        ...(extra.note ? { reason: extra.note } : {}),
        link: new URL(path, this.publicUrl).toString(),
      },
    });
  }

  /** Holds a drafted decision for its release time; the release job takes it then. */
  async schedule(row: ReleaseRow, releaseAt: Date): Promise<boolean> {
    const scheduled = await this.tx
      .update(decisions)
      .set({ release_at: releaseAt.toISOString() })
      .where(and(eq(decisions.id, row.decision.id), isNull(decisions.released_at)))
      .returning({ id: decisions.id });
    if (scheduled.length === 0) return false;
    await recordEvent(this.tx, {
      submissionId: row.decision.submission_id,
      partnerId: row.decision.partner_id,
      actor: this.actor,
      action: 'decision_scheduled',
      details: { state: row.decision.state, release_at: releaseAt.toISOString() },
    });
    return true;
  }
}

/** The columns a draft's message and offer terms set (ADR 051). */
export interface OfferTermsValues {
  message: string;
  conditions: DecisionRow['conditions'];
  conditions_status: DecisionRow['conditions_status'];
  conditions_decided_at: null;
  reply_by_on: string | null;
  reply_by: string | null;
  reply_reminded_days: null;
  lapsed_at: null;
}

/**
 * A draft's message and offer terms as stored: the conditions checked against their examinations (each
 * error at its field), the reply deadline a day after today in the institution's time zone, ending with
 * that day there, and after the moment the decision is to be released when it is scheduled.
 */
function offerTerms(input: DecisionDraft, timezone: string, now: Date, releaseAt: string | null): OfferTermsValues {
  const offer = input.state === 'accepted';
  const conditions = offer ? input.conditions : [];
  const issues = conditions.flatMap((condition, index) => {
    if (condition.kind === 'text') return [];
    const { requirement } = condition;
    const at = (path: string) => `conditions.${index}.requirement.${path}`;
    const found = entryRulesIssues({ exams: [requirement] }, examSystem).map((issue) => ({
      path: at(issue.path.replace(/^exams\.0\./, '')),
      message: issue.message,
    }));
    const system = examSystem(requirement.exam);
    const ruleless =
      !requirement.min_standing &&
      requirement.subjects.length === 0 &&
      requirement.min_aggregate === undefined &&
      requirement.min_class === undefined;
    if (found.length === 0 && system && ruleless) {
      found.push({
        path: at(system.aggregate.classes.length > 0 ? 'min_class' : 'min_aggregate'),
        message: D.condition_empty,
      });
    }
    return found;
  });
  if (issues.length > 0) throw new AppError('INVALID_ARGUMENT', issues[0]!.message, issues);
  const replyByOn = offer ? input.reply_by : null;
  let replyBy: string | null = null;
  if (replyByOn) {
    if (replyByOn <= dayInTimeZone(now, timezone)) {
      throw new AppError('INVALID_ARGUMENT', D.reply_by_past, [{ path: 'reply_by', message: D.reply_by_past }]);
    }
    replyBy = endOfDayIn(replyByOn, timezone).toISOString();
    if (releaseAt && Date.parse(replyBy) <= Date.parse(releaseAt)) {
      throw new AppError('INVALID_ARGUMENT', D.reply_by_before_release, [
        { path: 'reply_by', message: D.reply_by_before_release },
      ]);
    }
  }
  return {
    message: input.message,
    conditions,
    conditions_status: conditions.length > 0 ? 'pending' : null,
    conditions_decided_at: null,
    reply_by_on: replyByOn,
    reply_by: replyBy,
    reply_reminded_days: null,
    lapsed_at: null,
  };
}

/**
 * The instant of a release set on the institution's clock (yyyy-mm-ddThh:mm): a real day and time, in the
 * future. Each refusal is a 400 at `at`.
 */
function releaseMoment(local: string, timezone: string, now: Date): Date {
  const wall = Date.parse(`${local}:00Z`);
  // Date.parse rolls 30 February over into March: a day that does not exist is refused, not moved.
  if (Number.isNaN(wall) || new Date(wall).toISOString().slice(0, 16) !== local) {
    throw new AppError('INVALID_ARGUMENT', D.release_at_invalid, [{ path: 'at', message: D.release_at_invalid }]);
  }
  const instant = wallTimeIn(local, timezone);
  if (instant.getTime() <= now.getTime()) {
    throw new AppError('INVALID_ARGUMENT', D.release_at_past, [{ path: 'at', message: D.release_at_past }]);
  }
  return instant;
}

/** Drafts whose offer's reply deadline is not after `moment`: releasing them then would send a lapsed offer. */
function deadlineBefore(drafts: ReleaseRow[], moment: (row: ReleaseRow) => Date): ReleaseRow[] {
  return drafts.filter(
    (row) => row.decision.reply_by !== null && Date.parse(row.decision.reply_by) <= moment(row).getTime(),
  );
}

/**
 * Releases the drafted decisions of the selected submissions now, schedules them for a moment on the
 * institution's clock (all released together by the release job then), or for the start of
 * their cycle's decision release day in the institution's time zone (a day already begun releases now).
 * Submissions of another institution, without a draft, or already released are skipped and counted.
 * With `release_date`, a selected draft whose cycle has no release date refuses the whole request
 * (409 no_release_date, nothing changed), so no selection is ever half scheduled without the member knowing.
 */
export async function releaseDecisions(
  db: Db,
  caller: StaffCaller,
  input: DecisionRelease,
  publicUrl: string,
  now = new Date(),
): Promise<DecisionReleaseResult & { moment?: Date }> {
  const ids = [...new Set(input.submission_ids)];
  return db.transaction(async (tx) => {
    // Submissions first, in one order, as every change of one submission's decision takes them: no deadlock.
    const locked = await tx
      .select({ id: submissions.id })
      .from(submissions)
      .where(and(eq(submissions.partner_id, caller.partnerId), inArray(submissions.id, ids)))
      .orderBy(asc(submissions.id))
      .for('update');
    const drafts =
      locked.length === 0
        ? []
        : await releaseRows(
            tx,
            and(
              eq(decisions.partner_id, caller.partnerId),
              inArray(
                decisions.submission_id,
                locked.map((row) => row.id),
              ),
              isNull(decisions.released_at),
            ),
          )
            .orderBy(asc(decisions.submission_id))
            .for('update', { of: decisions });
    const releaser = new Releaser(tx, now, publicUrl, { kind: 'staff', staffId: caller.staffId });
    const result: DecisionReleaseResult = { released: 0, scheduled: 0, skipped: ids.length - drafts.length };

    const { timezone } = (await releaser.settingsOf(caller.partnerId)).general;
    const releaseDay = (row: ReleaseRow) => startOfDayIn(row.decision_release_on!, timezone);
    // Offers take places once released (or when their scheduled release comes): beyond those left, only if said.
    await assertPlacesFor(
      tx,
      caller.partnerId,
      drafts.filter((row) => row.decision.state === 'accepted').map((row) => row.decision.submission_id),
      input.override_capacity,
    );
    const refuse = (rows: ReleaseRow[], message: string) => {
      if (rows.length > 0) {
        throw new AppError('ABORTED', message, { submission_ids: rows.map((row) => row.decision.submission_id) });
      }
    };

    if (input.when === 'at') {
      const releaseAt = releaseMoment(input.at!, timezone, now);
      refuse(
        deadlineBefore(drafts, () => releaseAt),
        D.reply_by_before_release,
      );
      for (const row of drafts) {
        if (await releaser.schedule(row, releaseAt)) result.scheduled += 1;
        else result.skipped += 1;
      }
      return { ...result, moment: releaseAt };
    }

    if (input.when === 'now') {
      refuse(
        deadlineBefore(drafts, () => now),
        D.reply_by_before_release,
      );
      for (const row of drafts) {
        if (await releaser.release(row)) result.released += 1;
        else result.skipped += 1;
      }
      return result;
    }

    refuse(
      drafts.filter((row) => !row.decision_release_on),
      D.no_release_date,
    );
    refuse(
      deadlineBefore(drafts, (row) => (releaseDay(row).getTime() <= now.getTime() ? now : releaseDay(row))),
      D.reply_by_before_release,
    );
    for (const row of drafts) {
      const releaseAt = releaseDay(row);
      if (releaseAt.getTime() <= now.getTime()) {
        if (await releaser.release(row)) result.released += 1;
        else result.skipped += 1;
      } else if (await releaser.schedule(row, releaseAt)) result.scheduled += 1;
      else result.skipped += 1;
    }
    return result;
  });
}

/** Scheduled decisions released per transaction; the job goes on until none is due. */
const DUE_BATCH = 50;

/**
 * Releases every scheduled decision due at `now`, as the platform. Rows another api instance (or a
 * member changing that submission) holds are skipped and taken at the next pass, so no decision is ever
 * released twice. Answers how many were released.
 */
export async function releaseDueDecisions(db: Db, now: Date, publicUrl: string): Promise<number> {
  let total = 0;
  for (;;) {
    const count = await db.transaction(async (tx) => {
      const due = await releaseRows(
        tx,
        and(isNull(decisions.released_at), lte(decisions.release_at, now.toISOString())),
      )
        .orderBy(asc(decisions.release_at))
        .limit(DUE_BATCH)
        .for('update', { of: [decisions, submissions], skipLocked: true });
      const releaser = new Releaser(tx, now, publicUrl, { kind: 'system' });
      let count = 0;
      for (const row of due) if (await releaser.release(row)) count += 1;
      return count;
    });
    total += count;
    if (count < DUE_BATCH) return total;
  }
}

/**
 * Drafts the submission's decision or changes its draft (a member's decision replaces an automatic one),
 * with its message and, for an offer, its conditions and reply deadline. A released decision is final,
 * except a waitlisted one, which may become an offer (released at once, with its letter and the
 * waitlist_offer email) or a rejection (released at once). Asking for the state a released decision
 * already has changes nothing.
 */
export async function draftDecision(
  db: Db,
  caller: StaffCaller,
  submissionId: string,
  input: DecisionDraft,
  publicUrl: string,
  now = new Date(),
): Promise<ReviewDecision> {
  await db.transaction(async (tx) => {
    const submission = await submissionOfPartner(tx, caller.partnerId, submissionId, { lock: true });
    // The names as they are now: a draft changed later takes a renamed program's new name.
    const [names] = await tx
      .select({ university: partners.name, program: programs.name })
      .from(submissions)
      .innerJoin(partners, eq(partners.id, submissions.partner_id))
      .leftJoin(programs, eq(programs.id, submissions.program_id))
      .where(eq(submissions.id, submissionId));
    const programName = names?.program ?? '';
    const universityName = names?.university ?? '';
    const [existing] = await tx.select().from(decisions).where(eq(decisions.submission_id, submissionId)).for('update');
    const { timezone } = (await getSettings(tx, caller.partnerId)).general;

    if (existing?.released_at) {
      if (existing.state === input.state) return;
      if (existing.state !== 'waitlisted') throw new AppError('ABORTED', D.already_released);
      if (input.state === 'accepted') {
        await assertPlacesFor(tx, caller.partnerId, [submissionId], input.override_capacity);
      }
      const [row] = await releaseRows(tx, eq(decisions.id, existing.id));
      const releaser = new Releaser(tx, now, publicUrl, { kind: 'staff', staffId: caller.staffId });
      const changed = await releaser.release(row!, {
        state: input.state,
        decidedBy: caller.staffId,
        programName,
        universityName,
        terms: offerTerms(input, timezone, now, null),
      });
      if (!changed) throw new AppError('ABORTED', D.already_released);
      return;
    }

    const values = {
      state: input.state,
      automatic: false,
      decided_by: caller.staffId,
      program_name: programName,
      university_name: universityName,
      ...offerTerms(input, timezone, now, existing?.release_at ?? null),
    };
    if (existing) {
      await tx.update(decisions).set(values).where(eq(decisions.id, existing.id));
    } else {
      await tx.insert(decisions).values({
        ...values,
        submission_id: submissionId,
        partner_id: caller.partnerId,
        student_id: submission.student_id,
      });
    }
    await markUnderReview(tx, submissionId);
    await recordEvent(tx, {
      submissionId,
      partnerId: caller.partnerId,
      actor: { kind: 'staff', staffId: caller.staffId },
      action: 'decision_drafted',
      details: {
        state: input.state,
        automatic: false,
        ...(existing ? { from: existing.state } : {}),
        ...(values.conditions.length > 0 ? { conditions: values.conditions.length } : {}),
        ...(values.reply_by_on ? { reply_by: values.reply_by_on } : {}),
      },
    });
  });
  return (await reviewDecisionOf(db, submissionId))!;
}

/**
 * Staff say whether a released conditional offer's conditions were met (ADR 051). Met: the offer becomes
 * unconditional and its letter is issued again without conditions, under the same verification code.
 * Not met: the offer ends (the submission reads unsuccessful) and its letter no longer verifies. Either
 * way the applicant is told. Only while the offer is open: not once declined or lapsed.
 */
export async function decideConditions(
  db: Db,
  caller: StaffCaller,
  submissionId: string,
  { outcome }: ConditionsOutcome,
  publicUrl: string,
  now = new Date(),
): Promise<ReviewDecision> {
  await db.transaction(async (tx) => {
    await submissionOfPartner(tx, caller.partnerId, submissionId, { lock: true });
    const [row] = await releaseRows(tx, eq(decisions.submission_id, submissionId)).for('update', { of: decisions });
    const decision = row?.decision;
    if (!row || !decision?.released_at || decision.state !== 'accepted' || decision.conditions_status !== 'pending') {
      throw new AppError('ABORTED', D.no_pending_conditions);
    }
    if (decision.response === 'declined' || decision.lapsed_at) throw new AppError('ABORTED', D.offer_not_open);
    const releaser = new Releaser(tx, now, publicUrl, { kind: 'staff', staffId: caller.staffId });
    const letter =
      outcome === 'met' && decision.verification_code
        ? await releaser.letterOf(
            row,
            { conditions: [], reply_by_on: decision.response ? null : decision.reply_by_on },
            { programName: decision.program_name, universityName: decision.university_name },
            decision.verification_code,
          )
        : null;
    await tx
      .update(decisions)
      .set({ conditions_status: outcome, conditions_decided_at: now.toISOString(), letter })
      .where(eq(decisions.id, decision.id));
    if (outcome === 'not_met') {
      await tx.update(submissions).set({ status: 'rejected' }).where(eq(submissions.id, submissionId));
    }
    await recordEvent(tx, {
      submissionId,
      partnerId: caller.partnerId,
      actor: { kind: 'staff', staffId: caller.staffId },
      action: outcome === 'met' ? 'offer_conditions_met' : 'offer_conditions_not_met',
    });
    await releaser.tell(row, outcome === 'met' ? 'offer_conditions_met' : 'offer_conditions_not_met', 'status_updates');
    if (outcome === 'not_met') {
      await closePendingDeferral(tx, decision, now);
      await proposeNextOnWaitlist(tx, submissionId, now);
    }
  });
  return (await reviewDecisionOf(db, submissionId))!;
}

/**
 * An offer that ended while a deferral request waited (ADR 053): the request is declined with it, by the
 * platform; the applicant hears of the offer's end, not of this as well.
 */
async function closePendingDeferral(tx: Tx, decision: DecisionRow, now: Date): Promise<void> {
  const [closed] = await tx
    .update(deferralRequests)
    .set({ status: 'declined', closed_at: now.toISOString() })
    .where(and(eq(deferralRequests.decision_id, decision.id), eq(deferralRequests.status, 'pending')))
    .returning({ id: deferralRequests.id });
  if (!closed) return;
  await recordEvent(tx, {
    submissionId: decision.submission_id,
    partnerId: decision.partner_id,
    actor: { kind: 'system' },
    action: 'deferral_declined',
    details: { offer_ended: true },
  });
}

/** Withdraws a drafted decision (scheduled or not); a released one stays. */
export async function withdrawDecision(db: Db, caller: StaffCaller, submissionId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await submissionOfPartner(tx, caller.partnerId, submissionId, { lock: true });
    const [existing] = await tx.select().from(decisions).where(eq(decisions.submission_id, submissionId)).for('update');
    if (!existing) throw new AppError('ABORTED', D.not_drafted);
    if (existing.released_at) throw new AppError('ABORTED', D.already_released);
    await tx.delete(decisions).where(and(eq(decisions.id, existing.id), isNull(decisions.released_at)));
    await recordEvent(tx, {
      submissionId,
      partnerId: caller.partnerId,
      actor: { kind: 'staff', staffId: caller.staffId },
      action: 'decision_withdrawn',
      details: { state: existing.state, automatic: existing.automatic },
    });
  });
}
