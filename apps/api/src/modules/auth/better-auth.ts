import { betterAuth, type BetterAuthPlugin } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { APIError, createAuthEndpoint } from 'better-auth/api';
import { setSessionCookie } from 'better-auth/cookies';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { accounts, sessions, users, verifications } from '../../db/schema/index.ts';
import type { FastifyBaseLogger } from 'fastify';
import { databaseUnavailable } from '../../lib/db-errors.ts';
import type { Env } from '../../lib/env.ts';
import { hashPassword, verifyPassword } from './password.ts';

/** The header the api sets (never the client) so better-auth records the caller's address on a session. */
export const CLIENT_IP_HEADER = 'x-kaminuza-client-ip';

const SESSION_DAYS = 30;
const DAY_SECONDS = 86_400;

/** Secure cookies everywhere except plain-HTTP localhost, where browsers would still accept them but tools may not. */
export function secureCookies(publicUrl: string): boolean {
  const { protocol, hostname } = new URL(publicUrl);
  return protocol === 'https:' || !['localhost', '127.0.0.1', '[::1]'].includes(hostname);
}

/**
 * Starts a session for a user our own service has already checked (password, type, verification, or a
 * consumed email link), replacing the session the request carried: the token rotates at every sign-in.
 * Server-only: it is reachable through `auth.api` and never over HTTP.
 */
const sessionStarter = {
  id: 'kaminuza-session-starter',
  endpoints: {
    startSession: createAuthEndpoint.serverOnly(
      { method: 'POST', body: z.object({ userId: z.string() }), requireHeaders: true },
      async (ctx) => {
        const user = await ctx.context.internalAdapter.findUserById(ctx.body.userId);
        if (!user) throw new APIError('NOT_FOUND');
        const previous = await ctx.getSignedCookie(ctx.context.authCookies.sessionToken.name, ctx.context.secret);
        if (previous) await ctx.context.internalAdapter.deleteSession(previous);
        const session = await ctx.context.internalAdapter.createSession(user.id);
        await setSessionCookie(ctx, { session, user });
        return ctx.json({ sessionId: session.id });
      },
    ),
  },
} satisfies BetterAuthPlugin;

/**
 * better-auth owns sessions and their cookies (create, read, refresh, revoke); its user, session,
 * account and verification models are our snake_case tables. Sign-up, sign-in checks, email links and
 * password reset are the auth service's (ADR 005), so its HTTP handler and router are never mounted.
 */
/** Where better-auth's own messages go: the app's logger, so they are serialized and redacted like ours. */
export type AuthLog = Pick<FastifyBaseLogger, 'error' | 'warn' | 'info' | 'debug'>;

export function createAuth(db: Db, env: Env, log?: AuthLog) {
  const timestamps = { createdAt: 'created_at', updatedAt: 'updated_at' };
  return betterAuth({
    appName: 'Kaminuza',
    baseURL: env.PUBLIC_URL,
    secret: env.AUTH_SECRET,
    database: drizzleAdapter(db, { provider: 'pg', schema: { users, sessions, accounts, verifications } }),
    user: {
      modelName: 'users',
      fields: { emailVerified: 'contact_verified', ...timestamps },
      additionalFields: {
        type: { type: 'string', required: true, input: false },
        partner_id: { type: 'string', required: false, input: false },
        terms_accepted: { type: 'boolean', required: false, input: false, defaultValue: false },
      },
    },
    session: {
      modelName: 'sessions',
      fields: {
        userId: 'user_id',
        expiresAt: 'expires_at',
        ipAddress: 'ip_address',
        userAgent: 'user_agent',
        ...timestamps,
      },
      expiresIn: SESSION_DAYS * DAY_SECONDS,
      updateAge: DAY_SECONDS,
    },
    account: {
      modelName: 'accounts',
      fields: {
        userId: 'user_id',
        accountId: 'account_id',
        providerId: 'provider_id',
        accessToken: 'access_token',
        refreshToken: 'refresh_token',
        idToken: 'id_token',
        accessTokenExpiresAt: 'access_token_expires_at',
        refreshTokenExpiresAt: 'refresh_token_expires_at',
        ...timestamps,
      },
    },
    verification: {
      modelName: 'verifications',
      fields: { expiresAt: 'expires_at', ...timestamps },
      storeIdentifier: 'hashed',
    },
    emailAndPassword: {
      enabled: true,
      // Sign-up goes through the auth service so the student record and emails share its transaction.
      disableSignUp: true,
      requireEmailVerification: true,
      password: { hash: hashPassword, verify: ({ hash, password }) => verifyPassword(hash, password) },
    },
    advanced: {
      database: { generateId: 'uuid' },
      cookiePrefix: 'kaminuza',
      useSecureCookies: secureCookies(env.PUBLIC_URL),
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax' },
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
    },
    // Limits apply to better-auth's HTTP router, which is not mounted; the auth routes enforce their own.
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
    logger: {
      level: env.NODE_ENV === 'test' ? 'error' : 'warn',
      // Its own printer writes a failed statement with its parameters (a session token among them) to the
      // console; through the app's logger the error loses them (lib/logging.ts) and keeps the request id.
      disabled: !log,
      log: (level, message, ...args) => {
        const err = args.find((arg): arg is Error => arg instanceof Error);
        // A database outage fails the request, which the envelope logs once as a 503 (ADR 021).
        if (databaseUnavailable(err)) return;
        log?.[level]({ err }, `better-auth: ${message}`);
      },
    },
    plugins: [sessionStarter],
  });
}

export type Auth = ReturnType<typeof createAuth>;
