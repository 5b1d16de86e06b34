import { and, eq, sql } from 'drizzle-orm';
import type { UserType } from '@kaminuza/shared';
import type { Db, DbOrTx } from '../../db/client.ts';
import { accounts, staff, students, users } from '../../db/schema/index.ts';
import { verifyPassword } from './password.ts';

/** better-auth's provider id for email + password accounts; its account_id is the user id. */
export const CREDENTIAL_PROVIDER = 'credential';

/** Whether the password is the account's own (false for an account without one): an action asking it again. */
export async function isOwnPassword(db: DbOrTx, userId: string, password: string): Promise<boolean> {
  const [row] = await db
    .select({ password: accounts.password })
    .from(accounts)
    .where(and(eq(accounts.user_id, userId), eq(accounts.provider_id, CREDENTIAL_PROVIDER)))
    .limit(1);
  return row?.password ? verifyPassword(row.password, password) : false;
}

export interface NewAccount {
  email: string;
  passwordHash: string;
  type: UserType;
  name: string;
  contactVerified: boolean;
  termsAccepted: boolean;
  partnerId?: string | null;
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** Matches the case-insensitive unique index on users.email. */
export const emailIs = (email: string) => eq(sql`lower(${users.email})`, normalizeEmail(email));

/**
 * Inserts a user and its credential account, or returns null when the email is taken (in any case).
 * The unique index decides, so two concurrent sign-ups with one address cannot both succeed.
 */
export async function insertAccount(tx: DbOrTx, account: NewAccount): Promise<{ id: string; email: string } | null> {
  const [user] = await tx
    .insert(users)
    .values({
      email: normalizeEmail(account.email),
      name: account.name,
      type: account.type,
      partner_id: account.partnerId ?? null,
      contact_verified: account.contactVerified,
      terms_accepted: account.termsAccepted,
    })
    .onConflictDoNothing()
    .returning({ id: users.id, email: users.email });
  if (!user) return null;
  await tx.insert(accounts).values({
    user_id: user.id,
    account_id: user.id,
    provider_id: CREDENTIAL_PROVIDER,
    password: account.passwordHash,
  });
  return user;
}

export interface VerifiedAccount {
  type: UserType;
  email: string;
  passwordHash: string;
  firstName: string;
  lastName: string;
  /** Staff only: the institution, and the spec's first-member defaults unless told otherwise. */
  partnerId?: string;
  role?: string;
  permissions?: string[];
  primaryContact?: boolean;
}

/**
 * A verified account with its student or staff record, for the seed, `npm run admin:create` and tests.
 * Returns null when the email is taken.
 */
export async function createVerifiedAccount(
  db: Db,
  input: VerifiedAccount,
): Promise<{ id: string; email: string } | null> {
  if (input.type === 'staff' && !input.partnerId) throw new Error('a staff account needs a partner');
  return db.transaction(async (tx) => {
    const user = await insertAccount(tx, {
      email: input.email,
      passwordHash: input.passwordHash,
      type: input.type,
      name: `${input.firstName} ${input.lastName}`,
      contactVerified: true,
      termsAccepted: true,
      partnerId: input.type === 'staff' ? input.partnerId : null,
    });
    if (!user) return null;
    const person = { user_id: user.id, email: user.email, first_name: input.firstName, last_name: input.lastName };
    if (input.type === 'student') await tx.insert(students).values(person);
    if (input.type === 'staff' && input.partnerId) {
      await tx.insert(staff).values({
        ...person,
        partner_id: input.partnerId,
        role: input.role ?? 'Admin',
        permissions: input.permissions ?? ['all'],
        primary_contact: input.primaryContact ?? true,
      });
    }
    return user;
  });
}
