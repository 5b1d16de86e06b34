import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { HealthSchema, ReadySchema, dataEnvelope } from '@kaminuza/shared';
import type { Database } from '../../db/client.ts';
import type { Storage } from '../../lib/storage/index.ts';
import { AppError } from '../../lib/errors.ts';
import type { DrainSwitch } from './drain.ts';
import { readiness } from './health.service.ts';

/**
 * Liveness (the process answers: a load balancer or orchestrator restarts it when not) and readiness (it
 * should be sent requests: the database responds and it is not shutting down). Anonymous.
 */
export const healthRoutes: FastifyPluginAsyncZod<{
  database: Pick<Database, 'ping'>;
  storage: Pick<Storage, 'ping'>;
  drain?: DrainSwitch;
}> = async (app, { database, storage, drain }) => {
  // Probed every few seconds by load balancers and orchestrators: only warnings and errors are logged for them.
  app.get(
    '/health',
    { logLevel: 'warn', schema: { tags: ['health'], response: { 200: dataEnvelope(HealthSchema) } } },
    () => ({
      data: { status: 'ok' as const },
    }),
  );

  app.get(
    '/ready',
    { logLevel: 'warn', schema: { tags: ['health'], response: { 200: dataEnvelope(ReadySchema) } } },
    async () => {
      const result = await readiness(database, storage, drain);
      if (result.status !== 'ready') throw new AppError('UNAVAILABLE', undefined, result);
      return { data: result };
    },
  );
};
