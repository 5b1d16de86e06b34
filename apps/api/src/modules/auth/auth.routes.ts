import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AcknowledgedSchema,
  dataEnvelope,
  ForgotPasswordSchema,
  InstitutionDirectoryPageSchema,
  InstitutionDirectoryQuerySchema,
  PartnerSignUpSchema,
  ResendVerificationSchema,
  ResetPasswordSchema,
  SessionUserSchema,
  SignInSchema,
  SignUpResultSchema,
  StudentSignUpSchema,
  VerifyEmailSchema,
} from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { authHeaders, sendCookies } from './guard.ts';
import { deviceFromUserAgent } from '../../lib/user-agent.ts';
import type { Auth } from './better-auth.ts';
import {
  forgotPassword,
  resendVerification,
  resetPassword,
  sessionUser,
  signIn,
  signOut,
  signUpPartner,
  signUpStudent,
  verifyEmail,
  type AuthDeps,
  type InstitutionRegistry,
  type Caller,
} from './auth.service.ts';
import { consume, IP_LIMITS, type Limit } from './rate-limit.ts';

export interface AuthRoutesOptions {
  db: Db;
  auth: Auth;
  publicUrl: string;
  /** Multiplies the per-address limits (env RATE_LIMIT_MULTIPLIER); 1 keeps them as written. */
  ipLimitMultiplier?: number;
  /** The institutions staff sign up with (institution-onboarding's registry). */
  institutions: InstitutionRegistry;
}

const acknowledged = { data: { ok: true as const } };

/**
 * Accounts: sign-up (student, institution staff, and the directory of institutions to join), sign-in
 * (student/staff and admin), sign-out, the session, email verification and password reset. All
 * anonymous; the session routes act on the caller's own cookie only.
 */
export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (
  app,
  { db, auth, publicUrl, ipLimitMultiplier = 1, institutions },
) => {
  const deps: AuthDeps = { db, auth, publicUrl };
  const device = (request: FastifyRequest) => deviceFromUserAgent(request.headers['user-agent']);
  const caller = (request: FastifyRequest): Caller => ({ headers: authHeaders(request), device: device(request) });
  const perIp =
    (limit: Limit): onRequestAsyncHookHandler =>
    (request) =>
      consume(db, { ...limit, max: limit.max * ipLimitMultiplier }, request.ip);

  const tags = ['auth'];
  const signedIn = { 200: dataEnvelope(SessionUserSchema) };
  const ok = { 200: dataEnvelope(AcknowledgedSchema) };

  app.post(
    '/auth/sign-up/student',
    {
      onRequest: perIp(IP_LIMITS.signUp),
      schema: { tags, body: StudentSignUpSchema, response: { 201: dataEnvelope(SignUpResultSchema) } },
    },
    async (request, reply) => reply.code(201).send({ data: await signUpStudent(deps, request.body, device(request)) }),
  );

  app.post(
    '/auth/sign-up/partner',
    {
      onRequest: perIp(IP_LIMITS.signUp),
      schema: { tags, body: PartnerSignUpSchema, response: { 201: dataEnvelope(SignUpResultSchema) } },
    },
    async (request, reply) =>
      reply.code(201).send({ data: await signUpPartner({ ...deps, institutions }, request.body, device(request)) }),
  );

  // Approved institutions a person can ask to join, by name: only id, name and city, a page at a time.
  app.get(
    '/auth/sign-up/partner/institutions',
    {
      onRequest: perIp(IP_LIMITS.institutionSearch),
      schema: {
        tags,
        querystring: InstitutionDirectoryQuerySchema,
        response: { 200: dataEnvelope(InstitutionDirectoryPageSchema) },
      },
    },
    async (request) => ({ data: await institutions.search(db, request.query.q, request.query.page) }),
  );

  for (const [url, adminOnly] of [
    ['/auth/sign-in', false],
    ['/auth/sign-in/admin', true],
  ] as const) {
    app.post(
      url,
      { onRequest: perIp(IP_LIMITS.signIn), schema: { tags, body: SignInSchema, response: signedIn } },
      async (request, reply) => {
        const { user, setCookies } = await signIn(deps, request.body, caller(request), { adminOnly });
        sendCookies(reply, setCookies);
        return { data: user };
      },
    );
  }

  app.post('/auth/sign-out', { schema: { tags, response: ok } }, async (request, reply) => {
    sendCookies(reply, await signOut(auth, authHeaders(request)));
    return acknowledged;
  });

  app.get(
    '/auth/session',
    { schema: { tags, response: { 200: dataEnvelope(z.nullable(SessionUserSchema)) } } },
    async (request, reply) => {
      const { session, setCookies } = await app.accounts.readSession(authHeaders(request));
      sendCookies(reply, setCookies);
      reply.header('cache-control', 'no-store');
      return { data: session ? await sessionUser(db, session.userId) : null };
    },
  );

  app.post(
    '/auth/verify-email',
    { onRequest: perIp(IP_LIMITS.verification), schema: { tags, body: VerifyEmailSchema, response: signedIn } },
    async (request, reply) => {
      const { user, setCookies } = await verifyEmail(deps, request.body.code, caller(request));
      sendCookies(reply, setCookies);
      return { data: user };
    },
  );

  app.post(
    '/auth/resend-verification',
    {
      onRequest: perIp(IP_LIMITS.verification),
      schema: { tags, body: ResendVerificationSchema, response: ok },
    },
    async (request) => {
      await resendVerification(deps, request.body.email, device(request));
      return acknowledged;
    },
  );

  app.post(
    '/auth/forgot-password',
    { onRequest: perIp(IP_LIMITS.password), schema: { tags, body: ForgotPasswordSchema, response: ok } },
    async (request) => {
      await forgotPassword(deps, request.body.email, device(request));
      return acknowledged;
    },
  );

  app.post(
    '/auth/reset-password',
    { onRequest: perIp(IP_LIMITS.password), schema: { tags, body: ResetPasswordSchema, response: ok } },
    async (request) => {
      await resetPassword(deps, request.body.token, request.body.password, caller(request));
      return acknowledged;
    },
  );
};
