import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AdmissionLetterIssuedSchema,
  ApplicationIdParamsSchema,
  ConditionsOutcomeSchema,
  dataEnvelope,
  DecisionDraftSchema,
  DecisionReleaseResultSchema,
  DecisionReleaseSchema,
  DecisionResponseInputSchema,
  DeferralCyclesSchema,
  DeferralOutcomeSchema,
  DeferralRequestInputSchema,
  LetterVerificationSchema,
  PlacesInputSchema,
  PlacesRowSchema,
  WaitingListEntrySchema,
  WaitingListOrderSchema,
  WaitingListQuerySchema,
  ReviewDecisionSchema,
  StudentDecisionSchema,
  VerificationCodeParamsSchema,
} from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import type { JobSender } from '../../lib/jobs/queue.ts';
import { sendReleaseAt } from './decisions.jobs.ts';
import { listPlaces, listWaitlist, orderWaitlist, setPlaces } from './places.service.ts';
import { requireUserType, consume, type Limit } from '../auth/index.ts';
import { staffGuard } from '../partners/index.ts';
import { decideConditions, draftDecision, releaseDecisions, withdrawDecision } from './staff-decisions.service.ts';
import {
  getStudentDecision,
  getStudentLetter,
  listStudentDecisions,
  respondToOffer,
  verifyLetter,
} from './applicant-decisions.service.ts';
import { decideDeferral, deferralCycles, requestDeferral, withdrawDeferral } from './deferrals.service.ts';

export interface DecisionsRoutesOptions {
  db: Db;
  publicUrl: string;
  /** A release set for a moment asks the queue for a pass at that moment. */
  jobs: JobSender;
  /** Multiplies the per-address limit of letter verification (env RATE_LIMIT_MULTIPLIER). */
  ipLimitMultiplier?: number;
}

/** Codes are 60 random bits, so guessing is hopeless anyway; the limit keeps the page from being scraped. */
export const LETTER_VERIFICATION_LIMIT: Limit = { name: 'letter-verification:ip', max: 60, windowMs: 15 * 60_000 };

const PartnerParamsSchema = z.object({ partnerId: z.uuid() });
const SubmissionParamsSchema = PartnerParamsSchema.extend({ submissionId: z.uuid() });

function callerOf(request: FastifyRequest) {
  if (!request.staff) throw new Error('staffGuard did not run');
  return request.staff;
}

/**
 * Decisions (issue 8, ADR 016): members holding make_decisions draft, withdraw and release them (another
 * institution's submission answers 404); an applicant reads only released decisions of their own
 * submissions and answers an offer once; anyone may check a letter's verification code.
 */
export const decisionsRoutes: FastifyPluginAsyncZod<DecisionsRoutesOptions> = async (
  app,
  { db, publicUrl, jobs, ipLimitMultiplier = 1 },
) => {
  const tags = ['decisions'];
  const decides = staffGuard(db, ['make_decisions']);
  const studentOnly = requireUserType('student');
  const studentDecision = dataEnvelope(StudentDecisionSchema);

  /* ------------------------------------------------------------ staff */

  app.put(
    '/partners/:partnerId/review/submissions/:submissionId/decision',
    {
      preHandler: decides,
      schema: {
        tags,
        summary: 'Drafts the decision on a submission, or changes its draft',
        description:
          'A draft stays unseen by the applicant until released. Any decision may carry a message to the ' +
          'applicant; an offer may carry conditions (written, or examination results in the entry ' +
          'requirements’ form) and a reply deadline: a day after today, the offer lapsing at its end in the ' +
          'institution’s time zone (after the release day when the draft is scheduled). A released decision ' +
          'answers 409, except a waitlisted one, which may become accepted (released at once, with its letter ' +
          'and an email offering the place) or rejected (released at once).',
        params: SubmissionParamsSchema,
        body: DecisionDraftSchema,
        response: { 200: dataEnvelope(ReviewDecisionSchema) },
      },
    },
    async (request) => ({
      data: await draftDecision(db, callerOf(request), request.params.submissionId, request.body, publicUrl),
    }),
  );

  app.post(
    '/partners/:partnerId/review/submissions/:submissionId/decision/conditions',
    {
      preHandler: decides,
      schema: {
        tags,
        summary: 'Says whether a conditional offer’s conditions were met',
        description:
          'Met: the offer becomes unconditional and its letter is issued again without conditions. Not met: ' +
          'the offer ends and its letter no longer verifies. The applicant is told either way. 409 when the ' +
          'offer has no pending conditions, or was declined or lapsed.',
        params: SubmissionParamsSchema,
        body: ConditionsOutcomeSchema,
        response: { 200: dataEnvelope(ReviewDecisionSchema) },
      },
    },
    async (request) => ({
      data: await decideConditions(db, callerOf(request), request.params.submissionId, request.body, publicUrl),
    }),
  );

  app.post(
    '/partners/:partnerId/review/submissions/:submissionId/decision/deferral',
    {
      preHandler: decides,
      schema: {
        tags,
        summary: 'Approves or declines the applicant’s request to defer their offer',
        description:
          'Answers the pending request named by `request_id` (409 when it is no longer pending), with an ' +
          'optional note to the applicant. Approved: the offer holds its place in the cycle asked for instead ' +
          'of its own, refused with 409 `no_places_left` when none is left there unless `override_capacity`; ' +
          'its letter is issued again naming that cycle, and the place it leaves proposes the next on the ' +
          'waiting list. 409 when the offer is no longer accepted and standing. Needs make_decisions.',
        params: SubmissionParamsSchema,
        body: DeferralOutcomeSchema,
        response: { 200: dataEnvelope(ReviewDecisionSchema) },
      },
    },
    async (request) => ({
      data: await decideDeferral(db, callerOf(request), request.params.submissionId, request.body, publicUrl),
    }),
  );

  app.delete(
    '/partners/:partnerId/review/submissions/:submissionId/decision',
    {
      preHandler: decides,
      schema: {
        tags,
        summary: 'Withdraws a drafted decision',
        description: '409 when there is no draft, or when the decision is released.',
        params: SubmissionParamsSchema,
      },
    },
    async (request, reply) => {
      await withdrawDecision(db, callerOf(request), request.params.submissionId);
      return reply.code(204).send();
    },
  );

  app.post(
    '/partners/:partnerId/decisions/release',
    {
      preHandler: decides,
      schema: {
        tags,
        summary: 'Releases drafted decisions now, or on their cycle’s decision release date',
        description:
          'Each released decision emails its applicant once; a repeated release changes nothing. With ' +
          '`release_date`, decisions are released at the start of that day in the institution’s time zone ' +
          '(now if it has begun); with `at`, all at that minute of the institution’s clock (`yyyy-mm-ddThh:mm`, ' +
          'in the future). A selected draft whose cycle has no release date refuses the whole request ' +
          'with 409. Submissions without a draft, already released or unknown are skipped and counted.',
        params: PartnerParamsSchema,
        body: DecisionReleaseSchema,
        response: { 200: dataEnvelope(DecisionReleaseResultSchema) },
      },
    },
    async (request) => {
      const { moment, ...result } = await releaseDecisions(db, callerOf(request), request.body, publicUrl);
      // After the commit: a job that ran before it would find nothing due. Should this fail, the minute's
      // pass still releases them.
      if (moment && result.scheduled > 0) await sendReleaseAt(jobs, moment).catch(() => undefined);
      return { data: result };
    },
  );

  /* ------------------------------------------------------------ places */

  const CycleParamsSchema = PartnerParamsSchema.extend({ cycleId: z.uuid() });
  const placesList = { 200: dataEnvelope(z.array(PlacesRowSchema)) };

  app.get(
    '/partners/:partnerId/cycles/:cycleId/places',
    {
      preHandler: staffGuard(db, null),
      schema: {
        tags,
        summary: 'The places of each program of a cycle at each campus, with the offers holding them',
        description:
          'An offer holds a place once released, until it is declined, lapses or its conditions are not met. ' +
          '`left` is null where no limit is set. Another institution’s cycle answers 404.',
        params: CycleParamsSchema,
        response: placesList,
      },
    },
    async (request) => ({ data: await listPlaces(db, request.params.partnerId, request.params.cycleId) }),
  );

  app.put(
    '/partners/:partnerId/cycles/:cycleId/places',
    {
      preHandler: staffGuard(db, ['manage_programs']),
      schema: {
        tags,
        summary: 'Sets the places of programs at campuses in a cycle',
        description:
          'Each entry names a program open in the cycle and one of its campuses (400 otherwise, nothing ' +
          'changed); `places: null` removes the limit. Needs manage_programs.',
        params: CycleParamsSchema,
        body: PlacesInputSchema,
        response: placesList,
      },
    },
    async (request) => ({
      data: await setPlaces(db, request.params.partnerId, request.params.cycleId, request.body),
    }),
  );

  const waitingList = { 200: dataEnvelope(z.array(WaitingListEntrySchema)) };

  app.get(
    '/partners/:partnerId/cycles/:cycleId/waitlist',
    {
      preHandler: decides,
      schema: {
        tags,
        summary: 'The waiting list of one program at one campus in a cycle',
        description:
          'Released waitlisted decisions, in the list’s order: rank, then average score, then first submitted. ' +
          '`proposed_at` marks an applicant proposed when a place opened. Needs make_decisions.',
        params: CycleParamsSchema,
        querystring: WaitingListQuerySchema,
        response: waitingList,
      },
    },
    async (request) => ({
      data: await listWaitlist(db, request.params.partnerId, request.params.cycleId, request.query),
    }),
  );

  app.put(
    '/partners/:partnerId/cycles/:cycleId/waitlist',
    {
      preHandler: decides,
      schema: {
        tags,
        summary: 'Orders a waiting list',
        description:
          'Lists every applicant on the waiting list, the first to be proposed first when a place opens. A list ' +
          'that changed meanwhile answers 409 and nothing changes. Needs make_decisions.',
        params: CycleParamsSchema,
        body: WaitingListOrderSchema,
        response: waitingList,
      },
    },
    async (request) => ({
      data: await orderWaitlist(db, request.params.partnerId, request.params.cycleId, request.body),
    }),
  );

  /* ------------------------------------------------------------ the applicant */

  app.get(
    '/decisions',
    {
      preHandler: studentOnly,
      schema: {
        tags,
        summary: 'The released decisions on the student’s applications, newest first',
        response: { 200: dataEnvelope(z.object({ items: z.array(StudentDecisionSchema) })) },
      },
    },
    async (request) => ({ data: { items: await listStudentDecisions(db, request.user!.id) } }),
  );

  app.get(
    '/applications/:id/decision',
    {
      preHandler: studentOnly,
      schema: {
        tags,
        summary: 'The released decision on one of the student’s applications',
        params: ApplicationIdParamsSchema,
        response: { 200: studentDecision },
      },
    },
    async (request) => ({ data: await getStudentDecision(db, request.user!.id, request.params.id) }),
  );

  app.get(
    '/applications/:id/decision/letter',
    {
      preHandler: studentOnly,
      schema: {
        tags,
        summary: 'The admission letter of an accepted application, as issued',
        params: ApplicationIdParamsSchema,
        response: { 200: dataEnvelope(AdmissionLetterIssuedSchema) },
      },
    },
    async (request) => ({ data: await getStudentLetter(db, request.user!.id, request.params.id) }),
  );

  app.post(
    '/applications/:id/decision/response',
    {
      preHandler: studentOnly,
      schema: {
        tags,
        summary: 'Accepts or declines an offer of admission',
        description:
          'Final: an offer is answered once (409 after). Only an accepted decision is an offer, and only before ' +
          'its reply deadline (409 after), unless its conditions were found not met (409: it has ended).',
        params: ApplicationIdParamsSchema,
        body: DecisionResponseInputSchema,
        response: { 200: studentDecision },
      },
    },
    async (request) => ({ data: await respondToOffer(db, request.user!.id, request.params.id, request.body) }),
  );

  app.get(
    '/applications/:id/decision/deferral/cycles',
    {
      preHandler: studentOnly,
      schema: {
        tags,
        summary: 'The later cycles an accepted offer may be deferred to',
        description:
          'Cycles of the same institution opening after the one the offer holds its place in, offering its ' +
          'program at its campus, earliest first. Empty unless the offer is accepted and standing.',
        params: ApplicationIdParamsSchema,
        response: { 200: dataEnvelope(DeferralCyclesSchema) },
      },
    },
    async (request) => ({
      data: { items: await deferralCycles(db, request.user!.id, request.params.id) },
    }),
  );

  app.post(
    '/applications/:id/decision/deferral',
    {
      preHandler: studentOnly,
      schema: {
        tags,
        summary: 'Asks to defer an accepted offer to a later cycle',
        description:
          'One of the cycles listed by …/deferral/cycles, with a reason. 409 when the offer is not accepted or ' +
          'has ended, when a request already waits, when it was deferred already or a request was declined, ' +
          'and when no later cycle offers the program; 400 for another cycle. The institution’s decision ' +
          'makers are told.',
        params: ApplicationIdParamsSchema,
        body: DeferralRequestInputSchema,
        response: { 201: studentDecision },
      },
    },
    async (request, reply) =>
      reply.code(201).send({ data: await requestDeferral(db, request.user!.id, request.params.id, request.body) }),
  );

  app.delete(
    '/applications/:id/decision/deferral',
    {
      preHandler: studentOnly,
      schema: {
        tags,
        summary: 'Withdraws the request to defer an offer while it waits for an answer',
        description: '409 when no request waits.',
        params: ApplicationIdParamsSchema,
        response: { 200: studentDecision },
      },
    },
    async (request) => ({ data: await withdrawDeferral(db, request.user!.id, request.params.id) }),
  );

  /* ------------------------------------------------------------ public */

  app.get(
    '/letters/:code',
    {
      // Counted before validation, so malformed guesses use up the window too.
      onRequest: async (request) =>
        consume(
          db,
          { ...LETTER_VERIFICATION_LIMIT, max: LETTER_VERIFICATION_LIMIT.max * ipLimitMultiplier },
          request.ip,
        ),
      schema: {
        tags,
        summary: 'Confirms an admission letter is genuine',
        description:
          'Answers the name, institution, program, decision and date of the letter with this verification ' +
          'code, and nothing more. Rate limited per address.',
        params: VerificationCodeParamsSchema,
        response: { 200: dataEnvelope(LetterVerificationSchema) },
      },
    },
    async (request) => ({ data: await verifyLetter(db, request.params.code) }),
  );
};
