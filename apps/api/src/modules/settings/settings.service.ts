import { eq } from 'drizzle-orm';
import {
  ACCOUNT_NOTIFICATION_PREFERENCES,
  LANGUAGES,
  SETTINGS_MESSAGES,
  VALIDATION_MESSAGES,
  type AccountSettings,
  type AccountSettingsUpdate,
  type Language,
} from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { staff, students, userPreferences } from '../../db/schema/index.ts';
import type { RequestUser } from '../auth/index.ts';
import { AppError } from '../../lib/errors.ts';
import { readPreferences, writePreferences } from './preferences.ts';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

const languageOf = (value: string | null | undefined): Language =>
  LANGUAGES.find((language) => language === value) ?? 'en';

/**
 * The language emails and the interface use: a student's or staff member's is on their profile, where
 * every email already reads it; an admin has no profile, so theirs is kept with the preferences.
 */
async function readLanguage(db: Db | Tx, user: RequestUser): Promise<Language> {
  const [row] =
    user.type === 'student'
      ? await db.select({ language: students.language }).from(students).where(eq(students.user_id, user.id)).limit(1)
      : user.type === 'staff'
        ? await db.select({ language: staff.language }).from(staff).where(eq(staff.user_id, user.id)).limit(1)
        : await db
            .select({ language: userPreferences.language })
            .from(userPreferences)
            .where(eq(userPreferences.user_id, user.id))
            .limit(1);
  return languageOf(row?.language);
}

async function writeLanguage(tx: Tx, user: RequestUser, language: Language): Promise<void> {
  if (user.type === 'student') {
    await tx.update(students).set({ language }).where(eq(students.user_id, user.id));
  } else if (user.type === 'staff') {
    await tx.update(staff).set({ language }).where(eq(staff.user_id, user.id));
  } else {
    await writePreferences(tx, user.id, { language });
  }
}

/** The caller's own settings: theme, language and notification preferences, defaults filled in. */
export async function getSettings(db: Db, user: RequestUser): Promise<AccountSettings> {
  const preferences = await readPreferences(db, user.id);
  const language = await readLanguage(db, user);
  return { theme: preferences.theme, language, notifications: { email: preferences.email, push: preferences.push } };
}

/**
 * A switch that never sends this kind of account anything (a draft reminder to a staff member) is
 * refused rather than saved: a saved switch that does nothing would tell the caller something false.
 */
function assertApplicable(user: RequestUser, input: AccountSettingsUpdate): void {
  const applicable = ACCOUNT_NOTIFICATION_PREFERENCES[user.type];
  const details = (['email', 'push'] as const).flatMap((channel) =>
    Object.keys(input.notifications?.[channel] ?? {})
      .filter((preference) => !(applicable[channel] as readonly string[]).includes(preference))
      .map((preference) => ({
        path: `notifications.${channel}.${preference}`,
        message: SETTINGS_MESSAGES.notification_not_applicable,
      })),
  );
  if (details.length > 0) throw new AppError('INVALID_ARGUMENT', VALIDATION_MESSAGES.general, details);
}

/** Changes what the caller sent of their own settings, all or nothing, and answers all of them. */
export async function updateSettings(
  db: Db,
  user: RequestUser,
  input: AccountSettingsUpdate,
): Promise<AccountSettings> {
  assertApplicable(user, input);
  await db.transaction(async (tx) => {
    await writePreferences(tx, user.id, {
      ...(input.theme ? { theme: input.theme } : {}),
      ...(input.notifications?.email ? { email: input.notifications.email } : {}),
      ...(input.notifications?.push ? { push: input.notifications.push } : {}),
    });
    if (input.language) await writeLanguage(tx, user, input.language);
  });
  return getSettings(db, user);
}
