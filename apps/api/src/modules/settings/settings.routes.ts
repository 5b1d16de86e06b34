import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AccountSettingsSchema,
  AccountSettingsUpdateSchema,
  AcknowledgedSchema,
  ChangePasswordSchema,
  dataEnvelope,
} from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { authHeaders, requireUser, sendCookies, type RequestUser, changePassword } from '../auth/index.ts';
import { deviceFromUserAgent } from '../../lib/user-agent.ts';
import type { Auth } from '../auth/index.ts';
import { getSettings, updateSettings } from './settings.service.ts';

export interface SettingsRoutesOptions {
  db: Db;
  auth: Auth;
  /** Links in the password-changed email point here. */
  publicUrl: string;
}

function callerOf(request: FastifyRequest): RequestUser {
  if (!request.user) throw new Error('requireUser did not run');
  return request.user;
}

/**
 * The signed-in user's own settings (spec section 2, Settings) for every kind of account. The routes
 * name no user: each acts on the session's own account, so nobody can address another's settings.
 */
export const settingsRoutes: FastifyPluginAsyncZod<SettingsRoutesOptions> = async (app, { db, auth, publicUrl }) => {
  const tags = ['settings'];
  const settings = { 200: dataEnvelope(AccountSettingsSchema) };

  app.get(
    '/me/settings',
    {
      preHandler: requireUser,
      schema: { tags, summary: 'Your theme, language and notification preferences', response: settings },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { data: await getSettings(db, callerOf(request)) };
    },
  );

  app.patch(
    '/me/settings',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Changes some of your settings',
        description:
          'Only the keys sent change; unknown keys are refused. The language of a student or staff member is ' +
          'the one of their profile, which later emails use too. Notification switches that never send this ' +
          'kind of account anything are refused (staff: email marketing and application updates only; ' +
          'admins: email marketing only).',
        body: AccountSettingsUpdateSchema,
        response: settings,
      },
    },
    async (request) => ({ data: await updateSettings(db, callerOf(request), request.body) }),
  );

  app.post(
    '/me/password',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Changes your password',
        description:
          'Needs the current password. Every other session of the account is signed out; this one continues ' +
          'with a new session cookie, and the account is told by email. Wrong current passwords count towards ' +
          'the sign-in failure limit; a common password is refused.',
        body: ChangePasswordSchema,
        response: { 200: dataEnvelope(AcknowledgedSchema) },
      },
    },
    async (request, reply) => {
      const caller = { headers: authHeaders(request), device: deviceFromUserAgent(request.headers['user-agent']) };
      const setCookies = await changePassword({ db, auth, publicUrl }, callerOf(request).id, caller, request.body);
      sendCookies(reply, setCookies);
      return { data: { ok: true as const } };
    },
  );
};
