import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { UserType } from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { CLIENT_IP_HEADER, type Auth } from './better-auth.ts';
import { readSession as readSessionThroughBetterAuth } from './auth.service.ts';
import { createSessionReader, type ReadSession } from './session-reader.ts';
import { AppError } from '../../lib/errors.ts';

/** The signed-in caller as route handlers see it. */
export interface RequestUser {
  id: string;
  type: UserType;
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Sessions (better-auth) and the database they live in, for the auth routes and guards, and the
     * request's session read the fast way where it can be (session-reader.ts).
     */
    accounts: { auth: Auth; db: Db; readSession: (headers: Headers) => Promise<ReadSession> };
  }
  interface FastifyRequest {
    /** Set by requireUser / requireUserType; undefined on routes without a guard. */
    user?: RequestUser;
  }
}

/**
 * What better-auth needs of a request: its cookie, its user agent, and the client address (set here,
 * from Fastify's view of the connection, never taken from the client).
 */
export function authHeaders(request: FastifyRequest): Headers {
  const headers = new Headers();
  const { cookie } = request.headers;
  const userAgent = request.headers['user-agent'];
  if (cookie) headers.set('cookie', cookie);
  if (userAgent) headers.set('user-agent', userAgent);
  headers.set(CLIENT_IP_HEADER, request.ip);
  return headers;
}

export function sendCookies(reply: FastifyReply, setCookies: string[]): void {
  if (setCookies.length > 0) reply.header('set-cookie', setCookies);
}

/** Registers the session machinery every guard reads. */
export const authentication = fp<{ auth: Auth; db: Db }>(
  async (app, { auth, db }) => {
    const readSession = createSessionReader(auth, db, (headers) => readSessionThroughBetterAuth(auth, headers));
    app.decorate('accounts', { auth, db, readSession });
  },
  { name: 'authentication' },
);

async function resolveUser(request: FastifyRequest, reply: FastifyReply): Promise<RequestUser | null> {
  if (request.user) return request.user;
  const { session, setCookies } = await request.server.accounts.readSession(authHeaders(request));
  sendCookies(reply, setCookies);
  if (!session) return null;
  request.user = { id: session.userId, type: session.type };
  return request.user;
}

/** Any signed-in user; 401 otherwise. */
export const requireUser: preHandlerAsyncHookHandler = async function requireUser(request, reply) {
  if (!(await resolveUser(request, reply))) throw new AppError('UNAUTHENTICATED');
};

/** A signed-in user of one of the given types: 401 for visitors, 403 for other types. */
export function requireUserType(...types: [UserType, ...UserType[]]): preHandlerAsyncHookHandler {
  return async function requireUserOfType(request, reply) {
    const user = await resolveUser(request, reply);
    if (!user) throw new AppError('UNAUTHENTICATED');
    if (!types.includes(user.type)) throw new AppError('PERMISSION_DENIED');
  };
}
