import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  dataEnvelope,
  FormCreateSchema,
  FormDuplicateSchema,
  FormSchema,
  FormSummarySchema,
  FormUpdateSchema,
  type StaffPermission,
} from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { staffGuard } from '../partners/index.ts';
import { createForm, deleteForm, duplicateForm, getForm, listForms, updateForm } from './forms.service.ts';

const PartnerParamsSchema = z.object({ partnerId: z.uuid() });
const FormParamsSchema = PartnerParamsSchema.extend({ formId: z.uuid() });
const MANAGE_FORMS = ['manage_forms'] as const satisfies readonly StaffPermission[];

/**
 * An institution's application forms (see staffGuard): any member reads them, building them needs
 * manage_forms.
 */
export const formsRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const tags = ['forms'];

  app.get(
    '/partners/:partnerId/forms',
    {
      preHandler: staffGuard(db, null),
      schema: {
        tags,
        summary: "The institution's application forms, by name",
        params: PartnerParamsSchema,
        response: { 200: dataEnvelope(z.array(FormSummarySchema)) },
      },
    },
    async (request) => ({ data: await listForms(db, request.params.partnerId) }),
  );

  app.post(
    '/partners/:partnerId/forms',
    {
      preHandler: staffGuard(db, MANAGE_FORMS),
      schema: {
        tags,
        summary: 'Create a form; without sections it starts with one empty section',
        params: PartnerParamsSchema,
        body: FormCreateSchema,
        response: { 201: dataEnvelope(FormSchema) },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return { data: await createForm(db, request.params.partnerId, request.body) };
    },
  );

  app.get(
    '/partners/:partnerId/forms/:formId',
    {
      preHandler: staffGuard(db, null),
      schema: {
        tags,
        summary: 'A form with its sections and questions in order',
        params: FormParamsSchema,
        response: { 200: dataEnvelope(FormSchema) },
      },
    },
    async (request) => ({ data: await getForm(db, request.params.partnerId, request.params.formId) }),
  );

  app.put(
    '/partners/:partnerId/forms/:formId',
    {
      preHandler: staffGuard(db, MANAGE_FORMS),
      schema: {
        tags,
        summary: 'Save the whole form',
        description:
          'Send the version you loaded: a save made since answers 409 ABORTED and changes nothing. The order of ' +
          'the arrays is the order of sections and questions.',
        params: FormParamsSchema,
        body: FormUpdateSchema,
        response: { 200: dataEnvelope(FormSchema) },
      },
    },
    async (request) => ({
      data: await updateForm(db, request.params.partnerId, request.params.formId, request.body),
    }),
  );

  app.post(
    '/partners/:partnerId/forms/:formId/duplicate',
    {
      preHandler: staffGuard(db, MANAGE_FORMS),
      schema: {
        tags,
        summary: 'Copy a form under a new name',
        params: FormParamsSchema,
        body: FormDuplicateSchema,
        response: { 201: dataEnvelope(FormSchema) },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return { data: await duplicateForm(db, request.params.partnerId, request.params.formId, request.body) };
    },
  );

  app.delete(
    '/partners/:partnerId/forms/:formId',
    {
      preHandler: staffGuard(db, MANAGE_FORMS),
      schema: {
        tags,
        summary: 'Delete a form',
        description: 'A form that submitted applications answered cannot be deleted (409 ABORTED).',
        params: FormParamsSchema,
        response: { 200: dataEnvelope(z.object({ id: z.uuid() })) },
      },
    },
    async (request) => {
      await deleteForm(db, request.params.partnerId, request.params.formId);
      return { data: { id: request.params.formId } };
    },
  );
};
