import { eq, inArray, sql } from 'drizzle-orm';
import type { EmailPreference, PushPreference, Theme } from '@kaminuza/shared';
import type { DbOrTx } from '../../db/client.ts';
import { userPreferences } from '../../db/schema/index.ts';

/** A user's notification preferences (spec section 3) and theme, with every default filled in. */
export interface Preferences {
  theme: Theme;
  email: Record<EmailPreference, boolean>;
  push: Record<PushPreference, boolean>;
}

type PreferencesRow = typeof userPreferences.$inferSelect;

/** No row means nothing was ever changed: theme system, everything on but marketing emails. */
export const DEFAULT_PREFERENCES: Preferences = {
  theme: 'system',
  email: { marketing: false, application_updates: true, reminders: true },
  push: { messages: true, status_updates: true, deadline_reminders: true },
};

export function preferencesOf(row: PreferencesRow | undefined): Preferences {
  if (!row) return structuredClone(DEFAULT_PREFERENCES);
  return {
    theme: row.theme,
    email: {
      marketing: row.email_marketing,
      application_updates: row.email_application_updates,
      reminders: row.email_reminders,
    },
    push: {
      messages: row.push_messages,
      status_updates: row.push_status_updates,
      deadline_reminders: row.push_deadline_reminders,
    },
  };
}

export async function readPreferences(db: DbOrTx, userId: string): Promise<Preferences> {
  const [row] = await db.select().from(userPreferences).where(eq(userPreferences.user_id, userId)).limit(1);
  return preferencesOf(row);
}

/** The preferences of many users at once (one query), for jobs that notify a batch. */
export async function readPreferencesOf(db: DbOrTx, userIds: readonly string[]): Promise<Map<string, Preferences>> {
  const rows =
    userIds.length === 0
      ? []
      : await db
          .select()
          .from(userPreferences)
          .where(inArray(userPreferences.user_id, [...userIds]));
  const byUser = new Map(rows.map((row) => [row.user_id, row]));
  return new Map(userIds.map((id) => [id, preferencesOf(byUser.get(id))]));
}

/** A change to some preferences: only the switches named change; the others keep their value. */
export interface PreferencesChange {
  theme?: Theme;
  email?: Partial<Record<EmailPreference, boolean>>;
  push?: Partial<Record<PushPreference, boolean>>;
  /** Only for accounts without a profile to hold it (admins). */
  language?: string;
}

/** The columns a change sets, by their names in user_preferences. */
function columnsOf(change: PreferencesChange) {
  const columns: Partial<typeof userPreferences.$inferInsert> = {};
  if (change.theme !== undefined) columns.theme = change.theme;
  if (change.language !== undefined) columns.language = change.language;
  const { email = {}, push = {} } = change;
  if (email.marketing !== undefined) columns.email_marketing = email.marketing;
  if (email.application_updates !== undefined) columns.email_application_updates = email.application_updates;
  if (email.reminders !== undefined) columns.email_reminders = email.reminders;
  if (push.messages !== undefined) columns.push_messages = push.messages;
  if (push.status_updates !== undefined) columns.push_status_updates = push.status_updates;
  if (push.deadline_reminders !== undefined) columns.push_deadline_reminders = push.deadline_reminders;
  return columns;
}

/**
 * Saves a change to one user's preferences: the row is created at the first change (with the defaults
 * for everything else) and updated afterwards, in one statement, so two concurrent first changes
 * cannot collide.
 */
export async function writePreferences(db: DbOrTx, userId: string, change: PreferencesChange): Promise<void> {
  const columns = columnsOf(change);
  if (Object.keys(columns).length === 0) return;
  await db
    .insert(userPreferences)
    .values({ user_id: userId, ...columns })
    .onConflictDoUpdate({
      target: userPreferences.user_id,
      set: { ...columns, updated_at: new Date().toISOString() },
    });
}

/**
 * Turns marketing emails off for the holder of an unsubscribe token (the link in every marketing email
 * works without signing in). Answers whether the token was known; doing it again changes nothing more.
 */
export async function unsubscribeMarketing(db: DbOrTx, token: string): Promise<boolean> {
  const updated = await db
    .update(userPreferences)
    .set({ email_marketing: false, updated_at: sql`now()` })
    .where(eq(userPreferences.unsubscribe_token, token))
    .returning({ user_id: userPreferences.user_id });
  return updated.length > 0;
}
