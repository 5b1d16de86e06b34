import { eq, lt, sql } from 'drizzle-orm';
import { AUTH_MESSAGES, lockedOutMessage } from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { rateLimits } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';

export interface Limit {
  /** Names the counter, e.g. `sign-in:ip`. */
  name: string;
  max: number;
  windowMs: number;
}

const MINUTE = 60_000;

/** Per client address, on every request of the route (valid or not). */
export const IP_LIMITS = {
  signIn: { name: 'sign-in:ip', max: 60, windowMs: 15 * MINUTE },
  signUp: { name: 'sign-up:ip', max: 20, windowMs: 60 * MINUTE },
  password: { name: 'password-reset:ip', max: 20, windowMs: 15 * MINUTE },
  verification: { name: 'verification:ip', max: 20, windowMs: 15 * MINUTE },
  /** Opening and accepting staff invitations: the token is long and random, this only slows guessing. */
  invitation: { name: 'invitation:ip', max: 30, windowMs: 15 * MINUTE },
  /** The sign-up screen searches as the person types, so this allows many small reads. */
  institutionSearch: { name: 'institution-search:ip', max: 300, windowMs: 15 * MINUTE },
} as const satisfies Record<string, Limit>;

/**
 * Failed sign-ins per account from browsers without a valid device cookie for it (ADR 022): at most 10
 * per 15 minutes, after which only the account's known devices may still try.
 */
export const ACCOUNT_FAILURES: Limit = { name: 'sign-in:failures', max: 10, windowMs: 15 * MINUTE };

/** Failed sign-ins per account and known device (its cookie's nonce): past it, that cookie is locked out too. */
export const DEVICE_FAILURES: Limit = { name: 'sign-in:device-failures', max: 10, windowMs: 15 * MINUTE };

const secondsUntil = (resetAt: string) => Math.max(1, Math.ceil((Date.parse(resetAt) - Date.now()) / 1000));

/** 429 with the seconds until the window resets, which the envelope sends as Retry-After. */
export class RateLimitedError extends AppError {
  constructor(resetAt: string, message: string = AUTH_MESSAGES.too_many_attempts, details?: unknown) {
    super('RESOURCE_EXHAUSTED', message, details, { retryAfterSeconds: secondsUntil(resetAt) });
  }
}

/**
 * A sign-in locked out for a while: the message tells how many minutes to wait, and the details carry the
 * seconds so a screen can word the wait in its reader's language.
 */
export class LockedOutError extends RateLimitedError {
  constructor(resetAt: string) {
    const seconds = secondsUntil(resetAt);
    super(resetAt, lockedOutMessage(Math.ceil(seconds / 60)), { retry_after_seconds: seconds });
  }
}

const keyOf = (limit: Limit, subject: string) => `${limit.name}:${subject}`;

/** Expired counters are deleted now and then, so the table holds only live windows. */
const SWEEP_EVERY = 500;
let hitsSinceSweep = 0;

/**
 * Counts one event in the subject's fixed window, atomically (one upsert, so concurrent requests on any
 * api instance never lose a count), and returns the new count and when the window ends.
 */
export async function countEvent(db: Db, limit: Limit, subject: string) {
  const window = sql`now() + ${limit.windowMs} * interval '1 millisecond'`;
  const expired = sql`${rateLimits.reset_at} <= now()`;
  const [row] = await db
    .insert(rateLimits)
    .values({ key: keyOf(limit, subject), count: 1, reset_at: window })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${expired} then 1 else ${rateLimits.count} + 1 end`,
        reset_at: sql`case when ${expired} then ${window} else ${rateLimits.reset_at} end`,
        updated_at: sql`now()`,
      },
    })
    .returning({ count: rateLimits.count, reset_at: rateLimits.reset_at });
  if (++hitsSinceSweep >= SWEEP_EVERY) {
    hitsSinceSweep = 0;
    await db.delete(rateLimits).where(lt(rateLimits.reset_at, sql`now()`));
  }
  if (!row) throw new Error('rate limit upsert returned no row');
  return row;
}

type Refusal = (resetAt: string) => RateLimitedError;
const tooMany: Refusal = (resetAt) => new RateLimitedError(resetAt);

/** Counts the event and throws 429 once the subject is over the limit. */
export async function consume(db: Db, limit: Limit, subject: string, refuse: Refusal = tooMany): Promise<void> {
  const { count, reset_at } = await countEvent(db, limit, subject);
  if (count > limit.max) throw refuse(reset_at);
}

/** Throws 429 when the subject has used up its window, without counting. */
export async function assertUnder(db: Db, limit: Limit, subject: string, refuse: Refusal = tooMany): Promise<void> {
  const [row] = await db
    .select({ count: rateLimits.count, reset_at: rateLimits.reset_at })
    .from(rateLimits)
    .where(sql`${rateLimits.key} = ${keyOf(limit, subject)} and ${rateLimits.reset_at} > now()`);
  if (row && row.count >= limit.max) throw refuse(row.reset_at);
}

export async function resetCounter(db: Db, limit: Limit, subject: string): Promise<void> {
  await db.delete(rateLimits).where(eq(rateLimits.key, keyOf(limit, subject)));
}

/** Who is guessing an account's password: from a known device (its cookie's nonce) or from anywhere else. */
export interface Guesser {
  userId: string;
  deviceNonce: string | null;
}

const lockedOut: Refusal = (resetAt) => new LockedOutError(resetAt);

/**
 * The counter a guess counts against (ADR 022): a known device's own, else the account's for unknown
 * devices, so the owner on a known device never shares a counter with strangers.
 */
function counterOf({ userId, deviceNonce }: Guesser): [Limit, string] {
  return deviceNonce ? [DEVICE_FAILURES, `${userId}:${deviceNonce}`] : [ACCOUNT_FAILURES, userId];
}

/** Throws the lockout (429 with the wait) when the guesser's counter is used up. */
export function assertMayGuess(db: Db, guesser: Guesser): Promise<void> {
  const [limit, subject] = counterOf(guesser);
  return assertUnder(db, limit, subject, lockedOut);
}

/** Counts a wrong password; throws the lockout when that was one too many. */
export function countWrongGuess(db: Db, guesser: Guesser): Promise<void> {
  const [limit, subject] = counterOf(guesser);
  return consume(db, limit, subject, lockedOut);
}

/** A right password clears the guesser's own counter (never another device's, nor the account's from a known one). */
export function clearGuesses(db: Db, guesser: Guesser): Promise<void> {
  const [limit, subject] = counterOf(guesser);
  return resetCounter(db, limit, subject);
}
