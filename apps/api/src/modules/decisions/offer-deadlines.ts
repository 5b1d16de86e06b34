import { and, asc, eq, gt, isNotNull, isNull, lte, ne, or, type SQL } from 'drizzle-orm';
import { OFFER_REPLY_REMINDER_DAYS } from '@kaminuza/shared';
import type { Db, Tx } from '../../db/client.ts';
import { decisions } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import { recordEvent } from '../submissions/index.ts';
import { Releaser, releaseRows } from './staff-decisions.service.ts';
import { proposeNextOnWaitlist } from './places.service.ts';

/*
 * An offer's reply deadline (issue 26, ADR 051): reminders before it, and the lapse of an offer left
 * unanswered past it. Both are passes of scheduled jobs; each row is claimed by a guarded update in the
 * transaction that tells the applicant, and rows another instance holds are skipped, so nothing is sent
 * twice across instances.
 */

const DAY_MS = 24 * 60 * 60_000;
const BATCH = 50;

/** A released offer still waiting for its answer, with a deadline: an ended offer waits for nothing. */
const openOffer: SQL = and(
  isNotNull(decisions.released_at),
  eq(decisions.state, 'accepted'),
  isNull(decisions.response),
  isNull(decisions.lapsed_at),
  isNotNull(decisions.reply_by),
  or(isNull(decisions.conditions_status), ne(decisions.conditions_status, 'not_met')),
)!;

/** Runs `pass` on batches of rows until a batch is short: each pass takes its rows out of the set. */
async function inBatches(db: Db, pass: (tx: Tx) => Promise<[read: number, done: number]>): Promise<number> {
  let total = 0;
  for (;;) {
    const [read, done] = await db.transaction(pass);
    total += done;
    if (read < BATCH) return total;
  }
}

/**
 * Lapses the open offers whose deadline has passed: the applicant can no longer answer (respondToOffer
 * checks the moment itself), the letter no longer verifies, both sides see it (the decision, the
 * history), and the applicant is told. Answers how many lapsed.
 */
export async function lapseDueOffers(db: Db, now: Date, publicUrl: string): Promise<number> {
  return inBatches(db, async (tx) => {
    const due = await releaseRows(tx, and(openOffer, lte(decisions.reply_by, now.toISOString())))
      .orderBy(asc(decisions.reply_by))
      .limit(BATCH)
      .for('update', { of: decisions, skipLocked: true });
    const releaser = new Releaser(tx, now, publicUrl, { kind: 'system' });
    let lapsed = 0;
    for (const row of due) {
      const [claimed] = await tx
        .update(decisions)
        .set({ lapsed_at: now.toISOString(), letter: null })
        .where(and(eq(decisions.id, row.decision.id), openOffer))
        .returning({ id: decisions.id });
      if (!claimed) continue;
      await recordEvent(tx, {
        submissionId: row.decision.submission_id,
        partnerId: row.decision.partner_id,
        actor: { kind: 'system' },
        action: 'offer_lapsed',
        details: { reply_by: row.decision.reply_by_on },
      });
      await releaser.tell(row, 'offer_lapsed', 'status_updates');
      await proposeNextOnWaitlist(tx, row.decision.submission_id, now);
      lapsed += 1;
    }
    return [due.length, lapsed];
  });
}

const REMINDER_DAYS = [...OFFER_REPLY_REMINDER_DAYS].sort((a, b) => a - b);

/** An open offer a reminder is due for: within `days` of its deadline, not yet reminded that close. */
function reminderDue(now: Date): SQL {
  return or(
    ...REMINDER_DAYS.map((days) =>
      and(
        lte(decisions.reply_by, new Date(now.getTime() + days * DAY_MS).toISOString()),
        or(isNull(decisions.reply_reminded_days), gt(decisions.reply_reminded_days, days)),
      ),
    ),
  )!;
}

/**
 * Reminds applicants of open offers as their deadline nears (OFFER_REPLY_REMINDER_DAYS before it): once
 * per offer and step, the tightest step due only (an offer released the day before its deadline gets one
 * reminder, not two). Answers how many reminders were sent.
 */
export async function remindOpenOffers(db: Db, now: Date, publicUrl: string): Promise<number> {
  return inBatches(db, async (tx) => {
    const due = await releaseRows(tx, and(openOffer, gt(decisions.reply_by, now.toISOString()), reminderDue(now)))
      .orderBy(asc(decisions.reply_by))
      .limit(BATCH)
      .for('update', { of: decisions, skipLocked: true });
    const releaser = new Releaser(tx, now, publicUrl, { kind: 'system' });
    let sent = 0;
    for (const row of due) {
      const remaining = Date.parse(row.decision.reply_by!) - now.getTime();
      const days = REMINDER_DAYS.find((step) => remaining <= step * DAY_MS)!;
      const [claimed] = await tx
        .update(decisions)
        .set({ reply_reminded_days: days })
        .where(
          and(
            eq(decisions.id, row.decision.id),
            or(isNull(decisions.reply_reminded_days), gt(decisions.reply_reminded_days, days)),
          ),
        )
        .returning({ id: decisions.id });
      if (!claimed) continue;
      await releaser.tell(row, 'offer_reply_reminder', 'deadline_reminders', {
        deadline: { at: row.decision.reply_by!, days },
      });
      sent += 1;
    }
    return [due.length, sent];
  });
}

/**
 * The development clock's move (DEV_CLOCK): the submission's open offer gets a deadline a second ago, and
 * the lapse pass runs now. 404 when the submission has no released offer awaiting an answer with a deadline.
 */
export async function passReplyDeadline(db: Db, submissionId: string, publicUrl: string): Promise<number> {
  const moved = await db
    .update(decisions)
    .set({ reply_by: new Date(Date.now() - 1000).toISOString() })
    .where(and(eq(decisions.submission_id, submissionId), openOffer, isNotNull(decisions.reply_by)))
    .returning({ id: decisions.id });
  if (moved.length === 0) throw new AppError('NOT_FOUND');
  return lapseDueOffers(db, new Date(), publicUrl);
}
