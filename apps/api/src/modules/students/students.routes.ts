import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  dataEnvelope,
  ExamSittingInputSchema,
  ExamSittingParamsSchema,
  ExamSittingSchema,
  NewSchoolSchema,
  OnboardingStateSchema,
  OnboardingStepParamsSchema,
  ProfileUpdateSchema,
  SchoolPageSchema,
  SchoolSchema,
  SchoolSearchQuerySchema,
  StudentProfileSchema,
} from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { requireUserType } from '../auth/index.ts';
import { AppError } from '../../lib/errors.ts';
import { createSchool, searchSchools, toSchool } from './schools.service.ts';
import { addSitting, changeSitting, removeSitting } from './exam-sittings.service.ts';
import {
  completeOnboarding,
  getOnboarding,
  getProfile,
  saveOnboardingStep,
  updateProfile,
} from './students.service.ts';

/**
 * The signed-in student's onboarding and profile, and the schools they pick from. Students only; every
 * route acts on the caller's own record, so no other student's data is ever addressable.
 */
// Guards run before validation, so visitors and other user types learn nothing from the body rules.
export const studentsRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const student = requireUserType('student');
  const userId = (request: { user?: { id: string } }) => {
    if (!request.user) throw new AppError('UNAUTHENTICATED');
    return request.user.id;
  };
  const onboarding = { 200: dataEnvelope(OnboardingStateSchema) };
  const profile = { 200: dataEnvelope(StudentProfileSchema) };
  const tags = ['students'];

  app.get(
    '/students/me/onboarding',
    { preValidation: student, schema: { tags, response: onboarding } },
    async (request) => ({
      data: await getOnboarding(db, userId(request)),
    }),
  );

  // Each step has its own schema, so the body is checked by the service against the step's.
  app.put(
    '/students/me/onboarding/steps/:step',
    {
      preValidation: student,
      schema: {
        tags,
        params: OnboardingStepParamsSchema,
        body: z.record(z.string(), z.unknown()),
        response: onboarding,
      },
    },
    async (request) => ({ data: await saveOnboardingStep(db, userId(request), request.params.step, request.body) }),
  );

  app.post(
    '/students/me/onboarding/complete',
    { preValidation: student, schema: { tags, response: onboarding } },
    async (request) => ({ data: await completeOnboarding(db, userId(request)) }),
  );

  app.get('/students/me/profile', { preValidation: student, schema: { tags, response: profile } }, async (request) => ({
    data: await getProfile(db, userId(request)),
  }));

  app.patch(
    '/students/me/profile',
    { preValidation: student, schema: { tags, body: ProfileUpdateSchema, response: profile } },
    async (request) => ({ data: await updateProfile(db, userId(request), request.body) }),
  );

  // Examination sittings: one at a time, each answered with the student's sittings as they now stand.
  const sittings = dataEnvelope(z.array(ExamSittingSchema));
  app.post(
    '/students/me/exam-sittings',
    { preValidation: student, schema: { tags, body: ExamSittingInputSchema, response: { 201: sittings } } },
    async (request, reply) => reply.code(201).send({ data: await addSitting(db, userId(request), request.body) }),
  );

  app.put(
    '/students/me/exam-sittings/:sittingId',
    {
      preValidation: student,
      schema: { tags, params: ExamSittingParamsSchema, body: ExamSittingInputSchema, response: { 200: sittings } },
    },
    async (request) => ({
      data: await changeSitting(db, userId(request), request.params.sittingId, request.body),
    }),
  );

  app.delete(
    '/students/me/exam-sittings/:sittingId',
    { preValidation: student, schema: { tags, params: ExamSittingParamsSchema, response: { 200: sittings } } },
    async (request) => ({ data: await removeSitting(db, userId(request), request.params.sittingId) }),
  );

  app.get(
    '/schools',
    {
      preValidation: student,
      schema: {
        tags: ['schools'],
        querystring: SchoolSearchQuerySchema,
        response: { 200: dataEnvelope(SchoolPageSchema) },
      },
    },
    async (request) => ({ data: await searchSchools(db, request.query) }),
  );

  app.post(
    '/schools',
    {
      preValidation: student,
      schema: { tags: ['schools'], body: NewSchoolSchema, response: { 201: dataEnvelope(SchoolSchema) } },
    },
    async (request, reply) =>
      reply.code(201).send({ data: toSchool(await createSchool(db, userId(request), request.body)) }),
  );
};
