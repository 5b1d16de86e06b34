import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AcceptInvitationSchema,
  AcknowledgedSchema,
  dataEnvelope,
  InvitationInputSchema,
  InvitationPreviewSchema,
  InvitationSchema,
  InvitationTokenSchema,
  SessionUserSchema,
  StaffMemberSchema,
  StaffMemberUpdateSchema,
  TeamInputSchema,
  TeamMembersInputSchema,
  TeamSchema,
  type StaffPermission,
} from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { authHeaders, sendCookies, consume, IP_LIMITS } from '../auth/index.ts';
import { deviceFromUserAgent } from '../../lib/user-agent.ts';
import type { Auth } from '../auth/index.ts';
import { staffGuard } from '../partners/index.ts';
import {
  acceptInvitation,
  createInvitation,
  createTeam,
  deleteTeam,
  listInvitations,
  listMembers,
  listTeams,
  makePrimaryContact,
  previewInvitation,
  resendInvitation,
  revokeInvitation,
  setTeamMembers,
  updateMember,
  updateTeam,
} from './team.service.ts';

export interface TeamRoutesOptions {
  db: Db;
  auth: Auth;
  publicUrl: string;
  /** Multiplies the per-address limit of accepting invitations (env RATE_LIMIT_MULTIPLIER). */
  ipLimitMultiplier?: number;
}

const PartnerParamsSchema = z.object({ partnerId: z.uuid() });
const StaffParamsSchema = PartnerParamsSchema.extend({ staffId: z.uuid() });
const InvitationParamsSchema = PartnerParamsSchema.extend({ invitationId: z.uuid() });
const TeamParamsSchema = PartnerParamsSchema.extend({ teamId: z.uuid() });

const MANAGE_TEAM = ['manage_team'] as const satisfies readonly StaffPermission[];
const FULL_ACCESS = ['all'] as const satisfies readonly StaffPermission[];

/** The member behind a request that passed staffGuard. */
function callerOf(request: FastifyRequest) {
  if (!request.staff) throw new Error('staffGuard did not run');
  return request.staff;
}

/**
 * An institution's team (spec section 6): members, invitations and teams. Any member reads them;
 * changes need manage_team, and moving the primary contact needs 'all'. Accepting an invitation is
 * anonymous: the emailed token is the proof.
 */
export const teamRoutes: FastifyPluginAsyncZod<TeamRoutesOptions> = async (
  app,
  { db, auth, publicUrl, ipLimitMultiplier = 1 },
) => {
  const tags = ['team'];
  const anyMember = staffGuard(db, null);
  const managesTeam = staffGuard(db, MANAGE_TEAM);

  /* ------------------------------------------------------------ members */

  app.get(
    '/partners/:partnerId/staff',
    {
      preHandler: anyMember,
      schema: {
        tags,
        summary: "The institution's approved members, primary contact first, then by name",
        params: PartnerParamsSchema,
        response: { 200: dataEnvelope(z.array(StaffMemberSchema)) },
      },
    },
    async (request) => ({ data: await listMembers(db, request.params.partnerId) }),
  );

  app.patch(
    '/partners/:partnerId/staff/:staffId',
    {
      preHandler: managesTeam,
      schema: {
        tags,
        summary: "Changes a member's job title, permissions, teams or active flag",
        description:
          'Needs manage_team; anything touching the permission "all" needs "all". Deactivating ends the ' +
          "member's sessions at once.",
        params: StaffParamsSchema,
        body: StaffMemberUpdateSchema,
        response: { 200: dataEnvelope(StaffMemberSchema) },
      },
    },
    async (request) => ({ data: await updateMember(db, callerOf(request), request.params.staffId, request.body) }),
  );

  app.post(
    '/partners/:partnerId/staff/:staffId/primary-contact',
    {
      preHandler: staffGuard(db, FULL_ACCESS),
      schema: {
        tags,
        summary: 'Makes an active member the primary contact, in place of the current one',
        params: StaffParamsSchema,
        response: { 200: dataEnvelope(StaffMemberSchema) },
      },
    },
    async (request) => ({ data: await makePrimaryContact(db, request.params.partnerId, request.params.staffId) }),
  );

  /* ------------------------------------------------------------ invitations */

  app.get(
    '/partners/:partnerId/invitations',
    {
      preHandler: managesTeam,
      schema: {
        tags,
        summary: "The institution's invitations, newest first",
        params: PartnerParamsSchema,
        response: { 200: dataEnvelope(z.array(InvitationSchema)) },
      },
    },
    async (request) => ({ data: await listInvitations(db, request.params.partnerId) }),
  );

  app.post(
    '/partners/:partnerId/invitations',
    {
      preHandler: managesTeam,
      schema: {
        tags,
        summary: 'Invites a person by email to join the institution with a job title, permissions and teams',
        params: PartnerParamsSchema,
        body: InvitationInputSchema,
        response: { 201: dataEnvelope(InvitationSchema) },
      },
    },
    async (request, reply) =>
      reply.code(201).send({ data: await createInvitation(db, publicUrl, callerOf(request), request.body) }),
  );

  app.post(
    '/partners/:partnerId/invitations/:invitationId/resend',
    {
      preHandler: managesTeam,
      schema: {
        tags,
        summary: 'Emails a new link, valid seven days; the previous link stops working',
        params: InvitationParamsSchema,
        response: { 200: dataEnvelope(InvitationSchema) },
      },
    },
    async (request) => ({
      data: await resendInvitation(db, publicUrl, callerOf(request), request.params.invitationId),
    }),
  );

  app.delete(
    '/partners/:partnerId/invitations/:invitationId',
    {
      preHandler: managesTeam,
      schema: {
        tags,
        summary: 'Revokes an invitation not yet accepted',
        params: InvitationParamsSchema,
        response: { 200: dataEnvelope(InvitationSchema) },
      },
    },
    async (request) => ({
      data: await revokeInvitation(db, request.params.partnerId, request.params.invitationId),
    }),
  );

  /* ------------------------------------------------------------ accepting (anonymous) */

  const perIp = (request: FastifyRequest) =>
    consume(db, { ...IP_LIMITS.invitation, max: IP_LIMITS.invitation.max * ipLimitMultiplier }, request.ip);

  app.post(
    '/auth/invitations/preview',
    {
      onRequest: perIp,
      schema: {
        tags,
        summary: 'What a waiting invitation offers (institution, email, job title), for its page',
        body: InvitationTokenSchema,
        response: { 200: dataEnvelope(InvitationPreviewSchema) },
      },
    },
    async (request) => ({ data: await previewInvitation(db, request.body.token) }),
  );

  app.post(
    '/auth/invitations/accept',
    {
      onRequest: perIp,
      schema: {
        tags,
        summary: 'Accepts an invitation: creates the staff account and signs it in',
        body: AcceptInvitationSchema,
        response: { 200: dataEnvelope(SessionUserSchema) },
      },
    },
    async (request, reply) => {
      const caller = { headers: authHeaders(request), device: deviceFromUserAgent(request.headers['user-agent']) };
      const { user, setCookies } = await acceptInvitation({ db, auth, publicUrl }, request.body, caller);
      sendCookies(reply, setCookies);
      return { data: user };
    },
  );

  /* ------------------------------------------------------------ teams */

  app.get(
    '/partners/:partnerId/teams',
    {
      preHandler: anyMember,
      schema: {
        tags,
        summary: "The institution's teams by name, with their members' ids",
        params: PartnerParamsSchema,
        response: { 200: dataEnvelope(z.array(TeamSchema)) },
      },
    },
    async (request) => ({ data: await listTeams(db, request.params.partnerId) }),
  );

  app.post(
    '/partners/:partnerId/teams',
    {
      preHandler: managesTeam,
      schema: {
        tags,
        summary: 'Creates a team',
        params: PartnerParamsSchema,
        body: TeamInputSchema,
        response: { 201: dataEnvelope(TeamSchema) },
      },
    },
    async (request, reply) =>
      reply.code(201).send({ data: await createTeam(db, request.params.partnerId, request.body) }),
  );

  app.put(
    '/partners/:partnerId/teams/:teamId',
    {
      preHandler: managesTeam,
      schema: {
        tags,
        summary: 'Renames a team or changes its description',
        params: TeamParamsSchema,
        body: TeamInputSchema,
        response: { 200: dataEnvelope(TeamSchema) },
      },
    },
    async (request) => ({
      data: await updateTeam(db, request.params.partnerId, request.params.teamId, request.body),
    }),
  );

  app.put(
    '/partners/:partnerId/teams/:teamId/members',
    {
      preHandler: managesTeam,
      schema: {
        tags,
        summary: "Sets a team's members (replacing the previous list)",
        params: TeamParamsSchema,
        body: TeamMembersInputSchema,
        response: { 200: dataEnvelope(TeamSchema) },
      },
    },
    async (request) => ({
      data: await setTeamMembers(db, request.params.partnerId, request.params.teamId, request.body.staff_ids),
    }),
  );

  app.delete(
    '/partners/:partnerId/teams/:teamId',
    {
      preHandler: managesTeam,
      schema: {
        tags,
        summary: 'Deletes a team and takes it off its members',
        params: TeamParamsSchema,
        response: { 200: dataEnvelope(AcknowledgedSchema) },
      },
    },
    async (request) => {
      await deleteTeam(db, request.params.partnerId, request.params.teamId);
      return { data: { ok: true as const } };
    },
  );
};
