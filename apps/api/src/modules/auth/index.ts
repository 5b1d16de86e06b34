/** The auth module's public entry: what other modules may use (docs/architecture.md). */
export { emailIs, insertAccount, isOwnPassword, normalizeEmail } from './accounts.ts';
export { changePassword, readSession, revokeSessions, startSessionFor } from './auth.service.ts';
export type { AuthDeps, Caller, InstitutionRegistry, SignedIn } from './auth.service.ts';
export type { Auth } from './better-auth.ts';
export { assertNotCommonPassword } from './common-passwords.ts';
export { authHeaders, requireUser, requireUserType, sendCookies } from './guard.ts';
export type { RequestUser } from './guard.ts';
export { hashPassword } from './password.ts';
export { IP_LIMITS, RateLimitedError, assertUnder, consume, countEvent, resetCounter } from './rate-limit.ts';
export type { Limit } from './rate-limit.ts';
