import { and, asc, eq, inArray, isNotNull, isNull, lte, sql, type SQL } from 'drizzle-orm';
import {
  DECISION_MESSAGES as D,
  dayInTimeZone,
  type AdmissionLetterIssued,
  type DecisionDraft,
  type DecisionRelease,
  type DecisionReleaseResult,
  type DecisionState,
  type ReviewDecision,
  type StoredPartnerSettings,
} from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { campuses, cycles, decisions, partners, programs, students, submissions } from '../../db/schema/index.ts';
import { uniqueViolation } from '../../lib/db-errors.ts';
import { AppError } from '../../lib/errors.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { enqueueEmail, emailLanguage } from '../email/index.ts';
import { notify } from '../notifications/index.ts';
import { readPreferences } from '../settings/index.ts';
import { getSettings } from '../partner-settings/index.ts';
import type { StaffCaller } from '../partners/index.ts';
import { markUnderReview, recordEvent, submissionOfPartner, type ReviewActor } from '../submissions/index.ts';
import { newVerificationCode } from '../../lib/verification-code.ts';
import { renderLetter } from './letter.ts';
import { startOfDayIn } from '../../lib/time.ts';
import { reviewDecisionOf } from './decision-shapes.ts';

/** The institution's side of decisions: drafting, withdrawing and releasing them (by hand or when due). */
/** A decision with what releasing it needs: the letter's facts and the applicant's account, if any. */
function releaseRows(db: DbOrTx, where: SQL | undefined) {
  return db
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
      student_name: sql<string | null>`coalesce(${students.preferred_name}, ${students.first_name})`,
    })
    .from(decisions)
    .innerJoin(submissions, eq(submissions.id, decisions.submission_id))
    .innerJoin(partners, eq(partners.id, decisions.partner_id))
    .innerJoin(campuses, eq(campuses.id, submissions.campus_id))
    .leftJoin(cycles, eq(cycles.id, submissions.cycle_id))
    .leftJoin(students, eq(students.id, submissions.student_id))
    .where(where);
}
type ReleaseRow = Awaited<ReturnType<typeof releaseRows>>[number];

/** How many times a colliding verification code is drawn again (60 bits: practically never). */
const CODE_ATTEMPTS = 5;

/** One release pass: who releases, when, and the settings of each institution read once. */
class Releaser {
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
  async release(
    row: ReleaseRow,
    change?: { state: DecisionState; decidedBy: string; programName: string; universityName: string },
  ): Promise<boolean> {
    const { decision } = row;
    const state = change?.state ?? decision.state;
    const settings = await this.settingsOf(decision.partner_id);
    const language = emailLanguage(row.student_language ?? settings.general.default_language);
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
          }
        : {}),
    };

    let released: { id: string }[] = [];
    if (state === 'accepted') {
      for (let attempt = 0; ; attempt += 1) {
        const code = newVerificationCode();
        const letter: AdmissionLetterIssued = renderLetter(
          settings.admissions.admission_letter,
          {
            reference: row.reference,
            student_name: row.applicant_name,
            university_name: universityName,
            logo_url: row.logo_url,
            program_name: programName,
            campus_name: row.campus_name,
            cycle_name: row.cycle_name ?? '',
            issued_on: dayInTimeZone(this.now, settings.general.timezone),
          },
          language,
          code,
          this.publicUrl,
        );
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
    if (row.student_email && row.student_user_id) {
      // In-app always; push and email as the applicant chose (status updates, application updates).
      const offer = Boolean(change) && state === 'accepted';
      const path = `/partners/${decision.partner_id}/application/decision`;
      const preferences = await readPreferences(this.tx, row.student_user_id);
      await notify(this.tx, {
        userId: row.student_user_id,
        preferences,
        category: 'status_updates',
        type: offer ? 'waitlist_offer' : 'decision_released',
        data: { institution: universityName, program: programName },
        link: path,
      });
      if (preferences.email.application_updates) {
        await enqueueEmail(this.tx, {
          to: row.student_email,
          template: offer ? 'waitlist_offer' : 'decision_released',
          language,
          data: {
            ...(row.student_name ? { name: row.student_name } : {}),
            institution_name: universityName,
            program_name: programName,
            link: new URL(path, this.publicUrl).toString(),
          },
        });
      }
    }
    return true;
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

/**
 * Releases the drafted decisions of the selected submissions now, or schedules them for the start of
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
): Promise<DecisionReleaseResult> {
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

    if (input.when === 'now') {
      for (const row of drafts) {
        if (await releaser.release(row)) result.released += 1;
        else result.skipped += 1;
      }
      return result;
    }

    const undated = drafts.filter((row) => !row.decision_release_on);
    if (undated.length > 0) {
      throw new AppError('ABORTED', D.no_release_date, {
        submission_ids: undated.map((row) => row.decision.submission_id),
      });
    }
    const { timezone } = (await releaser.settingsOf(caller.partnerId)).general;
    for (const row of drafts) {
      const releaseAt = startOfDayIn(row.decision_release_on!, timezone);
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
 * Drafts the submission's decision or changes its draft (a member's decision replaces an automatic one).
 * A released decision is final, except a waitlisted one, which may become an offer (released at once,
 * with its letter and the waitlist_offer email) or a rejection (released at once). Asking for the state a
 * released decision already has changes nothing.
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

    if (existing?.released_at) {
      if (existing.state === input.state) return;
      if (existing.state !== 'waitlisted') throw new AppError('ABORTED', D.already_released);
      const [row] = await releaseRows(tx, eq(decisions.id, existing.id));
      const releaser = new Releaser(tx, now, publicUrl, { kind: 'staff', staffId: caller.staffId });
      const changed = await releaser.release(row!, {
        state: input.state,
        decidedBy: caller.staffId,
        programName,
        universityName,
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
      details: { state: input.state, automatic: false, ...(existing ? { from: existing.state } : {}) },
    });
  });
  return (await reviewDecisionOf(db, submissionId))!;
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
