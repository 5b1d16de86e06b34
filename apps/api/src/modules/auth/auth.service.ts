import { createHash, randomBytes } from 'node:crypto';
import { and, eq, like, sql, type SQL } from 'drizzle-orm';
import {
  AUTH_MESSAGES,
  LANGUAGES,
  type Language,
  type InstitutionDirectoryPage,
  type PartnerSignUp,
  type SessionUser,
  type SignIn,
  type ChangePassword,
  type StudentSignUp,
  type UserType,
  SETTINGS_MESSAGES,
} from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { perDatabase } from '../../db/per-database.ts';
import {
  accounts,
  partners,
  sessions,
  staff,
  students,
  userPreferences,
  users,
  verifications,
} from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import { countryName, countryOfAddress } from '../../lib/place.ts';
import type { Device } from '../../lib/user-agent.ts';
import { enqueueEmail } from '../email/index.ts';
import { CREDENTIAL_PROVIDER, emailIs, insertAccount, isOwnPassword, normalizeEmail } from './accounts.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { CLIENT_IP_HEADER, type Auth } from './better-auth.ts';
import { assertNotCommonPassword } from './common-passwords.ts';
import { deviceCookies } from './device-cookie.ts';
import { hashPassword, verifyPassword } from './password.ts';
import {
  ACCOUNT_FAILURES,
  assertMayGuess,
  clearGuesses,
  countWrongGuess,
  resetCounter,
  type Guesser,
} from './rate-limit.ts';

export interface AuthDeps {
  db: Db;
  auth: Auth;
  /** Links in emails point here. */
  publicUrl: string;
}

/**
 * What a staff sign-up needs of the institutions. Institutions are set up by modules above this one
 * (partners, partner-settings, forms), so the app hands them in (docs/architecture.md).
 */
export interface InstitutionRegistry {
  /** A new pending institution with everything it starts with; answers its id. */
  register(tx: DbOrTx, input: PartnerSignUp): Promise<string>;
  /** The approved institution `partnerId`, or the refusal to join it. */
  joinable(tx: DbOrTx, partnerId: string): Promise<string>;
  /** Approved institutions by name, a page at a time, for the sign-up's directory. */
  search(db: Db, q: string, page: number): Promise<InstitutionDirectoryPage>;
}

/** Who the request is for, as better-auth needs it to read or set the session cookie. */
export interface Caller {
  headers: Headers;
  /** Parsed from the user agent; carried in every account email (spec section 7). */
  device: Device;
}

/** A signed-in answer: the user and the Set-Cookie values to send with it. */
export interface SignedIn {
  user: SessionUser;
  setCookies: string[];
}

const HOUR_MS = 3_600_000;
/** Emailed single-use links: what they are for, how long they last, the email and the page they open. */
const LINKS = {
  verification: {
    purpose: 'email-verification',
    ttlMs: 24 * HOUR_MS,
    template: 'email_verification',
    page: '/auth/verify-email?code=',
  },
  reset: { purpose: 'password-reset', ttlMs: HOUR_MS, template: 'password_reset', page: '/reset-password?token=' },
} as const;
type Link = (typeof LINKS)[keyof typeof LINKS];

/* ---------------------------------------------------------------- profiles */

interface Profile extends SessionUser {
  /** Greets the user in emails: the student's (or staff member's) first name, else the account name. */
  greeting: string;
  /** Words the times in emails: the student's or staff member's own, UTC for admins. */
  timezone: string;
}

function supportedLanguage(value: string | null | undefined): Language {
  return LANGUAGES.find((language) => language === value) ?? 'en';
}

const profileColumns = {
  id: users.id,
  email: users.email,
  type: users.type,
  name: users.name,
  contact_verified: users.contact_verified,
  partner_id: users.partner_id,
  student_first_name: students.first_name,
  student_preferred_name: students.preferred_name,
  student_language: students.language,
  student_timezone: students.timezone,
  student_is_complete: students.is_complete,
  staff_first_name: staff.first_name,
  staff_language: staff.language,
  staff_timezone: staff.timezone,
  // Admins have no profile: their language is kept with their settings.
  preferences_language: userPreferences.language,
  staff_approval_status: staff.approval_status,
  staff_permissions: staff.permissions,
  staff_active: staff.active,
  partner_name: partners.name,
  partner_status: partners.status,
  partner_review_reason: partners.review_reason,
};

function profileQuery(db: DbOrTx) {
  return db
    .select(profileColumns)
    .from(users)
    .leftJoin(students, eq(students.user_id, users.id))
    .leftJoin(staff, eq(staff.user_id, users.id))
    .leftJoin(partners, eq(partners.id, users.partner_id))
    .leftJoin(userPreferences, eq(userPreferences.user_id, users.id));
}

type ProfileRow = Awaited<ReturnType<ReturnType<typeof profileQuery>['execute']>>[number];

function preparedProfileById(db: Db) {
  return profileQuery(db)
    .where(eq(users.id, sql.placeholder('id')))
    .limit(1)
    .prepare('profile_by_id');
}

/** Read on every page load of every signed-in user (GET /auth/session). */
const profileById = perDatabase(preparedProfileById);

async function findProfile(db: DbOrTx, where: SQL): Promise<Profile | null> {
  const [row] = await profileQuery(db).where(where).limit(1);
  return toProfile(row);
}

function toProfile(row: ProfileRow | undefined): Profile | null {
  if (!row) return null;
  const firstName = row.student_first_name ?? row.staff_first_name ?? null;
  return {
    id: row.id,
    email: row.email,
    type: row.type,
    first_name: firstName,
    preferred_name: row.student_preferred_name ?? null,
    language: supportedLanguage(row.student_language ?? row.staff_language ?? row.preferences_language),
    contact_verified: row.contact_verified,
    partner_id: row.partner_id,
    onboarding_complete: row.type !== 'student' || row.student_is_complete === true,
    partner_name: row.partner_name ?? null,
    partner_status: row.partner_status ?? null,
    partner_review_reason: row.partner_review_reason ?? null,
    staff_approval_status: row.staff_approval_status ?? null,
    staff_permissions: (row.staff_permissions as SessionUser['staff_permissions']) ?? null,
    staff_active: row.staff_active ?? null,
    greeting: firstName ?? row.name,
    timezone: row.student_timezone ?? row.staff_timezone ?? 'UTC',
  };
}

function toSessionUser({ greeting: _greeting, timezone: _timezone, ...user }: Profile): SessionUser {
  return user;
}

/** The signed-in user's summary, or null when the user no longer exists. */
export async function sessionUser(db: Db, userId: string): Promise<SessionUser | null> {
  const [row] = await profileById(db).execute({ id: userId });
  const profile = toProfile(row);
  return profile && toSessionUser(profile);
}

/* ---------------------------------------------------------------- single-use links */

const digest = (code: string) => createHash('sha256').update(code).digest('base64url');
const identifierOf = (link: Link, code: string) => `${link.purpose}:${digest(code)}`;

/** A new random code; only its hash is stored, so a database leak yields no usable link. */
async function issueLink(tx: DbOrTx, link: Link, userId: string): Promise<string> {
  const code = randomBytes(32).toString('base64url');
  await tx.insert(verifications).values({
    identifier: identifierOf(link, code),
    value: userId,
    expires_at: new Date(Date.now() + link.ttlMs).toISOString(),
  });
  return code;
}

/**
 * Uses a code up: the row is deleted as it is read, so of two concurrent uses only one gets the user id.
 * An expired code is deleted too and answers its own message; a used or unknown one the other.
 */
async function consumeLink(db: Db, link: Link, code: string): Promise<string> {
  const [row] = await db
    .delete(verifications)
    .where(eq(verifications.identifier, identifierOf(link, code)))
    .returning({ userId: verifications.value, expiresAt: verifications.expires_at });
  if (!row) throw new AppError('INVALID_ARGUMENT', AUTH_MESSAGES.link_invalid);
  if (Date.parse(row.expiresAt) <= Date.now()) throw new AppError('INVALID_ARGUMENT', AUTH_MESSAGES.link_expired);
  return row.userId;
}

/** Every outstanding link of one purpose for a user stops working (after it has served its purpose). */
async function revokeLinks(tx: DbOrTx, link: Link, userId: string): Promise<void> {
  await tx
    .delete(verifications)
    .where(and(eq(verifications.value, userId), like(verifications.identifier, `${link.purpose}:%`)));
}

/* ---------------------------------------------------------------- emails */

/** Issues a link and, in the same transaction, the email that carries it. */
async function enqueueLinkEmail(tx: DbOrTx, deps: AuthDeps, link: Link, profile: Profile, device: Device) {
  const code = await issueLink(tx, link, profile.id);
  await enqueueEmail(tx, {
    to: profile.email,
    template: link.template,
    language: profile.language,
    data: {
      name: profile.greeting,
      link: `${deps.publicUrl}${link.page}${encodeURIComponent(code)}`,
      expires_in_minutes: link.ttlMs / 60_000,
      ...device,
    },
  });
}

const enqueueVerification = (tx: DbOrTx, deps: AuthDeps, profile: Profile, device: Device) =>
  enqueueLinkEmail(tx, deps, LINKS.verification, profile, device);

/** The moment in the reader's language and time zone, e.g. '26 novembre 2026 à 15:39 UTC+2'. */
function momentIn(language: Language, timezone: string, at: Date): string {
  const options = { dateStyle: 'long', timeStyle: 'short' } as const;
  const zoned = (timeZone: string) =>
    `${new Intl.DateTimeFormat(language, { ...options, timeZone }).format(at)} ${zoneName(language, timeZone, at)}`;
  try {
    return zoned(timezone);
  } catch {
    // A time zone the runtime does not know (set by hand in the database) reads as UTC rather than failing.
    return zoned('UTC');
  }
}

function zoneName(language: Language, timeZone: string, at: Date): string {
  const parts = new Intl.DateTimeFormat(language, { timeZone, timeZoneName: 'short' }).formatToParts(at);
  return parts.find((part) => part.type === 'timeZoneName')?.value ?? timeZone;
}

/**
 * A security email (password changed, new device): what happened, when, from which browser and roughly
 * where, and a link to secure the account. The link opens the forgot-password page rather than carrying a
 * reset token: the email is a notice that may be read late or forwarded, so it holds no credential, and a
 * reset made from there ends every session of the account (ADR 022).
 */
async function enqueueSecurityEmail(
  tx: DbOrTx,
  deps: AuthDeps,
  template: 'password_changed' | 'new_device_sign_in',
  profile: Profile,
  caller: Caller,
): Promise<void> {
  const country = countryOfAddress(caller.headers.get(CLIENT_IP_HEADER));
  await enqueueEmail(tx, {
    to: profile.email,
    template,
    language: profile.language,
    data: {
      name: profile.greeting,
      ...caller.device,
      occurred_at: momentIn(profile.language, profile.timezone, new Date()),
      ...(country ? { place: countryName(country, profile.language) } : {}),
      link: `${deps.publicUrl}/forgot-password`,
    },
  });
}

/* ---------------------------------------------------------------- sessions */

function setCookiesOf(headers: Headers): string[] {
  return headers.getSetCookie();
}

/**
 * Starts a session after the browser proved the account (a password, an email link, an invitation), and
 * gives it a new device cookie for the account: from now on it is one of the account's known devices.
 */
async function startSession(deps: AuthDeps, caller: Caller, profile: Profile): Promise<SignedIn> {
  const { headers } = await deps.auth.api.startSession({
    body: { userId: profile.id },
    headers: caller.headers,
    returnHeaders: true,
  });
  return {
    user: toSessionUser(profile),
    setCookies: [...setCookiesOf(headers), deviceCookies(deps.auth).issue(profile.id)],
  };
}

/** Who is guessing the account's password: the request's device cookie for it decides (ADR 022). */
function guesserOf(deps: AuthDeps, caller: Caller, userId: string): Guesser {
  return { userId, deviceNonce: deviceCookies(deps.auth).read(caller.headers.get('cookie'), userId) };
}

/** Signs in a user whose account was just created or proved otherwise (an accepted invitation). */
export async function startSessionFor(deps: AuthDeps, caller: Caller, userId: string): Promise<SignedIn> {
  const profile = await findProfile(deps.db, eq(users.id, userId));
  if (!profile) throw new Error('the user to sign in cannot be read back');
  return startSession(deps, caller, profile);
}

/** Ends every session of a user at once (a deactivated member): their next request is anonymous. */
export async function revokeSessions(db: DbOrTx, userId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.user_id, userId));
}

/** The session the request's cookie names, if it is valid; refreshing it may set a new cookie. */
export async function readSession(
  auth: Auth,
  headers: Headers,
): Promise<{ session: { userId: string; type: UserType } | null; setCookies: string[] }> {
  const { headers: responseHeaders, response } = await auth.api.getSession({ headers, returnHeaders: true });
  const session = response ? { userId: response.user.id, type: response.user.type as UserType } : null;
  return { session, setCookies: setCookiesOf(responseHeaders) };
}

/** Revokes the request's session (if any) and expires the cookie. */
export async function signOut(auth: Auth, headers: Headers): Promise<string[]> {
  if (!headers.has('cookie')) return [];
  const { headers: responseHeaders } = await auth.api.signOut({ headers, returnHeaders: true });
  return setCookiesOf(responseHeaders);
}

/* ---------------------------------------------------------------- flows */

interface NewAccount {
  email: string;
  password: string;
  type: 'student' | 'staff';
  name: string;
  termsAccepted: boolean;
  /** Staff only: creates or finds the institution, in the transaction, before the account. */
  institution?: (tx: Tx) => Promise<string>;
  /** The student or staff record of the new user. */
  record: (tx: Tx, user: { id: string; email: string }, partnerId: string | null) => Promise<void>;
}

/**
 * The sign-up both kinds of account share: the account, its records, a verification link and the
 * welcome email are committed together or not at all. Nobody is signed in: sign-in needs verification.
 */
async function signUp(
  deps: AuthDeps,
  account: NewAccount,
  device: Device,
): Promise<{ email: string; verification_sent: true }> {
  assertNotCommonPassword(account.password, 'password');
  const email = normalizeEmail(account.email);
  const taken = () => new AppError('ABORTED', AUTH_MESSAGES.email_taken);
  const [existing] = await deps.db.select({ id: users.id }).from(users).where(emailIs(email)).limit(1);
  if (existing) throw taken();

  // Hashed before the transaction: argon2 takes tens of milliseconds and needs no database.
  const passwordHash = await hashPassword(account.password);
  await deps.db.transaction(async (tx) => {
    const partnerId = account.institution ? await account.institution(tx) : null;
    const user = await insertAccount(tx, {
      email,
      passwordHash,
      type: account.type,
      name: account.name,
      contactVerified: false,
      termsAccepted: account.termsAccepted,
      partnerId,
    });
    if (!user) throw taken();
    await account.record(tx, user, partnerId);
    const profile = await findProfile(tx, eq(users.id, user.id));
    if (!profile) throw new Error('the new user cannot be read back');
    await enqueueVerification(tx, deps, profile, device);
    await enqueueEmail(tx, {
      to: email,
      template: 'welcome',
      language: profile.language,
      data: { name: profile.greeting, ...device },
    });
  });
  return { email, verification_sent: true };
}

/** A student account and its student record with the spec's defaults. */
export function signUpStudent(deps: AuthDeps, input: StudentSignUp, device: Device) {
  return signUp(
    deps,
    {
      email: input.email,
      password: input.password,
      type: 'student',
      name: `${input.first_name} ${input.last_name}`,
      termsAccepted: input.accept_terms,
      record: async (tx, user) => {
        await tx.insert(students).values({
          user_id: user.id,
          email: user.email,
          first_name: input.first_name,
          last_name: input.last_name,
          preferred_name: input.preferred_name || null,
          phone: input.phone,
          language: input.language,
          date_of_birth: input.date_of_birth,
          gender: input.gender,
          city: input.city,
          country: input.country,
          education_level: input.education_level,
        });
      },
    },
    device,
  );
}

/**
 * A staff account (spec sections 5 and 6). A new institution is created pending with its default
 * settings, and its first member is its Admin: permissions 'all', primary contact, approved with it.
 * Joining an approved institution makes a Staff member with no permissions, awaiting its approval.
 */
export function signUpPartner(
  deps: AuthDeps & { institutions: InstitutionRegistry },
  input: PartnerSignUp,
  device: Device,
) {
  const joining = input.existing_institution_id;
  return signUp(
    deps,
    {
      email: input.email,
      password: input.password,
      type: 'staff',
      name: `${input.contact_first_name} ${input.contact_last_name}`,
      termsAccepted: input.accept_terms,
      institution: (tx) => (joining ? deps.institutions.joinable(tx, joining) : deps.institutions.register(tx, input)),
      record: async (tx, user, partnerId) => {
        await tx.insert(staff).values({
          user_id: user.id,
          partner_id: partnerId!,
          email: user.email,
          first_name: input.contact_first_name,
          last_name: input.contact_last_name,
          phone: input.phone,
          job_title: input.job_title,
          work_email: normalizeEmail(input.work_email),
          language: input.language,
          ...(joining
            ? { role: 'Staff', permissions: [], primary_contact: false, approval_status: 'pending' as const }
            : { role: 'Admin', permissions: ['all'], primary_contact: true, approval_status: 'approved' as const }),
        });
      },
    },
    device,
  );
}

/**
 * Spec section 5, in this order: an unknown email, then the password, then for the admin sign-in the type,
 * then verification (which sends a new link). Only then is a session started. Wrong passwords are limited
 * per device (ADR 022): from a browser with a valid device cookie for the account, 10 per 15 minutes for
 * that cookie; from anywhere else, 10 per 15 minutes for the account, which known devices never count
 * against. A sign-in without such a cookie is a new device: the account is told by email.
 */
export async function signIn(
  deps: AuthDeps,
  input: SignIn,
  caller: Caller,
  options: { adminOnly: boolean },
): Promise<SignedIn> {
  const [row] = await deps.db
    .select({ id: users.id, password: accounts.password })
    .from(users)
    .leftJoin(accounts, and(eq(accounts.user_id, users.id), eq(accounts.provider_id, CREDENTIAL_PROVIDER)))
    .where(emailIs(input.email))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND', AUTH_MESSAGES.no_account);

  const guesser = guesserOf(deps, caller, row.id);
  await assertMayGuess(deps.db, guesser);
  if (!row.password || !(await verifyPassword(row.password, input.password))) {
    await countWrongGuess(deps.db, guesser);
    throw new AppError('UNAUTHENTICATED', AUTH_MESSAGES.wrong_password);
  }
  await clearGuesses(deps.db, guesser);

  const profile = await findProfile(deps.db, eq(users.id, row.id));
  if (!profile) throw new AppError('NOT_FOUND', AUTH_MESSAGES.no_account);
  if (options.adminOnly && profile.type !== 'admin') {
    throw new AppError('PERMISSION_DENIED', AUTH_MESSAGES.admin_only);
  }
  if (!profile.contact_verified) {
    await deps.db.transaction((tx) => enqueueVerification(tx, deps, profile, caller.device));
    throw new AppError('PERMISSION_DENIED', AUTH_MESSAGES.verify_first, undefined, { reason: 'verify_first' });
  }
  const signedIn = await startSession(deps, caller, profile);
  if (!guesser.deviceNonce) await enqueueSecurityEmail(deps.db, deps, 'new_device_sign_in', profile, caller);
  return signedIn;
}

/** The spec's verifyLink: marks the email verified and signs the user in. */
export async function verifyEmail(deps: AuthDeps, code: string, caller: Caller): Promise<SignedIn> {
  const userId = await consumeLink(deps.db, LINKS.verification, code);
  const profile = await deps.db.transaction(async (tx) => {
    await tx.update(users).set({ contact_verified: true }).where(eq(users.id, userId));
    await revokeLinks(tx, LINKS.verification, userId);
    return findProfile(tx, eq(users.id, userId));
  });
  if (!profile) throw new AppError('INVALID_ARGUMENT', AUTH_MESSAGES.link_invalid);
  return startSession(deps, caller, profile);
}

/** Always succeeds, so the answer never tells whether an account exists or is verified. */
export async function resendVerification(deps: AuthDeps, email: string, device: Device): Promise<void> {
  const profile = await findProfile(deps.db, emailIs(email));
  if (!profile || profile.contact_verified) return;
  await deps.db.transaction((tx) => enqueueVerification(tx, deps, profile, device));
}

/** Always succeeds; when the account exists, emails a one-hour, single-use reset link greeting it by name. */
export async function forgotPassword(deps: AuthDeps, email: string, device: Device): Promise<void> {
  const profile = await findProfile(deps.db, emailIs(email));
  if (!profile) return;
  await deps.db.transaction((tx) => enqueueLinkEmail(tx, deps, LINKS.reset, profile, device));
}

/**
 * Sets the new password and revokes every session and every other reset link of the account; the account
 * is told by email. A common password is refused before the link is used up, so it can be tried again.
 */
export async function resetPassword(deps: AuthDeps, token: string, password: string, caller: Caller): Promise<void> {
  assertNotCommonPassword(password, 'password');
  const userId = await consumeLink(deps.db, LINKS.reset, token);
  const passwordHash = await hashPassword(password);
  await deps.db.transaction(async (tx) => {
    const updated = await tx
      .update(accounts)
      .set({ password: passwordHash })
      .where(and(eq(accounts.user_id, userId), eq(accounts.provider_id, CREDENTIAL_PROVIDER)))
      .returning({ id: accounts.id });
    // Every account is created with a credential; none means the user is gone.
    if (updated.length === 0) throw new AppError('INVALID_ARGUMENT', AUTH_MESSAGES.link_invalid);
    await revokeSessions(tx, userId);
    await revokeLinks(tx, LINKS.reset, userId);
    const profile = await findProfile(tx, eq(users.id, userId));
    if (profile) await enqueueSecurityEmail(tx, deps, 'password_changed', profile, caller);
  });
  await resetCounter(deps.db, ACCOUNT_FAILURES, userId);
}

/**
 * A signed-in user's password change (settings): the current password is checked and wrong ones count
 * like wrong sign-ins from this browser, so a borrowed session cannot be used to guess it. The new hash,
 * the end of every session of the account and the email telling of it are committed together; then this
 * browser gets a new session, so only the other devices are signed out. Answers the Set-Cookie values.
 */
export async function changePassword(
  deps: AuthDeps,
  userId: string,
  caller: Caller,
  input: ChangePassword,
): Promise<string[]> {
  const guesser = guesserOf(deps, caller, userId);
  await assertMayGuess(deps.db, guesser);
  if (!(await isOwnPassword(deps.db, userId, input.currentPassword))) {
    await countWrongGuess(deps.db, guesser);
    throw new AppError('INVALID_ARGUMENT', SETTINGS_MESSAGES.wrong_current_password, [
      { path: 'currentPassword', message: SETTINGS_MESSAGES.wrong_current_password },
    ]);
  }
  await clearGuesses(deps.db, guesser);
  assertNotCommonPassword(input.newPassword, 'newPassword');

  const passwordHash = await hashPassword(input.newPassword);
  const profile = await deps.db.transaction(async (tx) => {
    await tx
      .update(accounts)
      .set({ password: passwordHash })
      .where(and(eq(accounts.user_id, userId), eq(accounts.provider_id, CREDENTIAL_PROVIDER)));
    await revokeSessions(tx, userId);
    const changed = await findProfile(tx, eq(users.id, userId));
    if (!changed) throw new AppError('UNAUTHENTICATED');
    await enqueueSecurityEmail(tx, deps, 'password_changed', changed, caller);
    return changed;
  });
  return (await startSession(deps, caller, profile)).setCookies;
}
