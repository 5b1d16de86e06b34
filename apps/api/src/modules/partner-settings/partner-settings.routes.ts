import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ApiKeyCreateSchema,
  ApiKeyListSchema,
  CreatedApiKeySchema,
  CurrentCycleUpdateSchema,
  dataEnvelope,
  PartnerAdmissionsSettingsUpdateSchema,
  PartnerApiKeySchema,
  PartnerGeneralSettingsUpdateSchema,
  PartnerThemeUpdateSchema,
  StoredPartnerSettingsSchema,
} from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { staffGuard } from '../partners/index.ts';
import {
  createApiKey,
  getSettings,
  listApiKeys,
  revokeApiKey,
  updateAdmissions,
  updateCurrentCycle,
  updateGeneral,
  updateTheme,
} from './partner-settings.service.ts';

const PartnerParamsSchema = z.object({ partnerId: z.uuid() });
const ApiKeyParamsSchema = PartnerParamsSchema.extend({ keyId: z.uuid() });
const settingsResponse = { 200: dataEnvelope(StoredPartnerSettingsSchema) };

/**
 * An institution's settings (general, theme, admissions) and its partner API keys. Any member reads the
 * settings; changing them needs manage_settings (the current cycle: manage_programs too, as the cycles
 * screen sets it); keys need manage_api_keys, even to list them.
 */
export const partnerSettingsRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const tags = ['partner-settings'];
  const staffId = (staff: { staffId: string } | undefined) => staff!.staffId;

  app.get(
    '/partners/:partnerId/settings',
    {
      preHandler: staffGuard(db, null),
      schema: {
        tags,
        description: "The institution's general, theme and admissions settings. Any member may read them.",
        params: PartnerParamsSchema,
        response: settingsResponse,
      },
    },
    async (request) => ({ data: await getSettings(db, request.params.partnerId) }),
  );

  app.put(
    '/partners/:partnerId/settings/general',
    {
      preHandler: staffGuard(db, ['manage_settings']),
      schema: {
        tags,
        description: 'Replaces the languages, currency, time zone and current admission cycle.',
        params: PartnerParamsSchema,
        body: PartnerGeneralSettingsUpdateSchema,
        response: settingsResponse,
      },
    },
    async (request) => ({ data: await updateGeneral(db, request.params.partnerId, request.body) }),
  );

  app.put(
    '/partners/:partnerId/settings/current-cycle',
    {
      preHandler: staffGuard(db, ['manage_settings', 'manage_programs']),
      schema: {
        tags,
        description: 'Sets (or clears, with null) the admission cycle applicants see as current.',
        params: PartnerParamsSchema,
        body: CurrentCycleUpdateSchema,
        response: settingsResponse,
      },
    },
    async (request) => ({ data: await updateCurrentCycle(db, request.params.partnerId, request.body.cycle_id) }),
  );

  app.put(
    '/partners/:partnerId/settings/theme',
    {
      preHandler: staffGuard(db, ['manage_settings']),
      schema: {
        tags,
        description: "Replaces the theme of the institution's page and application form.",
        params: PartnerParamsSchema,
        body: PartnerThemeUpdateSchema,
        response: settingsResponse,
      },
    },
    async (request) => ({ data: await updateTheme(db, request.params.partnerId, request.body) }),
  );

  app.put(
    '/partners/:partnerId/settings/admissions',
    {
      preHandler: staffGuard(db, ['manage_settings']),
      schema: {
        tags,
        description: 'Replaces automatic decisions, the application fee, the admission letter and custom stages.',
        params: PartnerParamsSchema,
        body: PartnerAdmissionsSettingsUpdateSchema,
        response: settingsResponse,
      },
    },
    async (request) => ({ data: await updateAdmissions(db, request.params.partnerId, request.body) }),
  );

  app.get(
    '/partners/:partnerId/api-keys',
    {
      preHandler: staffGuard(db, ['manage_api_keys']),
      schema: {
        tags,
        description: "The institution's API keys, newest first. The keys themselves are never shown again.",
        params: PartnerParamsSchema,
        response: { 200: dataEnvelope(ApiKeyListSchema) },
      },
    },
    async (request) => ({ data: await listApiKeys(db, request.params.partnerId) }),
  );

  app.post(
    '/partners/:partnerId/api-keys',
    {
      preHandler: staffGuard(db, ['manage_api_keys']),
      schema: {
        tags,
        description: 'Creates a key for the partner API. The answer is the only time the key is shown.',
        params: PartnerParamsSchema,
        body: ApiKeyCreateSchema,
        response: { 201: dataEnvelope(CreatedApiKeySchema) },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .header('cache-control', 'no-store')
        .send({ data: await createApiKey(db, request.params.partnerId, staffId(request.staff), request.body) }),
  );

  app.delete(
    '/partners/:partnerId/api-keys/:keyId',
    {
      preHandler: staffGuard(db, ['manage_api_keys']),
      schema: {
        tags,
        description: 'Revokes a key: calls made with it are refused from now on.',
        params: ApiKeyParamsSchema,
        response: { 200: dataEnvelope(PartnerApiKeySchema) },
      },
    },
    async (request) => ({ data: await revokeApiKey(db, request.params.partnerId, request.params.keyId) }),
  );
};
