import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CatalogueSummarySchema, dataEnvelope } from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { catalogueSummary } from './catalogue.service.ts';

/** Public catalogue figures. Anonymous. */
export const catalogueRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/catalogue/summary',
    { schema: { tags: ['catalogue'], response: { 200: dataEnvelope(CatalogueSummarySchema) } } },
    async () => ({ data: await catalogueSummary(db) }),
  );
};
