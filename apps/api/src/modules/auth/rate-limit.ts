import { eq, lt, sql } from 'drizzle-orm';
import { AUTH_MESSAGES } from '@kaminuza/shared';
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

/** Failed sign-ins per account (spec'd by the issue: at most 10 per 15 minutes). */
export const ACCOUNT_FAILURES: Limit = { name: 'sign-in:failures', max: 10, windowMs: 15 * MINUTE };

/** 429 with the seconds until the window resets, for the Retry-After header. */
export class RateLimitedError extends AppError {
  readonly retryAfterSeconds: number;

  constructor(resetAt: string) {
    super('RESOURCE_EXHAUSTED', AUTH_MESSAGES.too_many_attempts);
    this.retryAfterSeconds = Math.max(1, Math.ceil((Date.parse(resetAt) - Date.now()) / 1000));
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

/** Counts the event and throws 429 once the subject is over the limit. */
export async function consume(db: Db, limit: Limit, subject: string): Promise<void> {
  const { count, reset_at } = await countEvent(db, limit, subject);
  if (count > limit.max) throw new RateLimitedError(reset_at);
}

/** Throws 429 when the subject has used up its window, without counting. */
export async function assertUnder(db: Db, limit: Limit, subject: string): Promise<void> {
  const [row] = await db
    .select({ count: rateLimits.count, reset_at: rateLimits.reset_at })
    .from(rateLimits)
    .where(sql`${rateLimits.key} = ${keyOf(limit, subject)} and ${rateLimits.reset_at} > now()`);
  if (row && row.count >= limit.max) throw new RateLimitedError(row.reset_at);
}

export async function resetCounter(db: Db, limit: Limit, subject: string): Promise<void> {
  await db.delete(rateLimits).where(eq(rateLimits.key, keyOf(limit, subject)));
}
