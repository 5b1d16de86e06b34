import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { HealthSchema, ReadySchema, dataEnvelope } from '@kaminuza/shared';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { readiness } from './health.service.ts';

/** Liveness (the process answers) and readiness (it can serve: the database responds). Anonymous. */
export const healthRoutes: FastifyPluginAsyncZod<{ database: Pick<Database, 'ping'> }> = async (app, { database }) => {
  app.get('/health', { schema: { tags: ['health'], response: { 200: dataEnvelope(HealthSchema) } } }, () => ({
    data: { status: 'ok' as const },
  }));

  app.get('/ready', { schema: { tags: ['health'], response: { 200: dataEnvelope(ReadySchema) } } }, async () => {
    const result = await readiness(database);
    if (result.status !== 'ready') throw new AppError('UNAVAILABLE', undefined, result);
    return { data: result };
  });
};
