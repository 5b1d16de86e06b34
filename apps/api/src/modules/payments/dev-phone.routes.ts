import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DevPhonePromptListSchema, DevPhonePromptParamsSchema, dataEnvelope } from '@kaminuza/shared';
import { AppError } from '../../lib/errors.ts';
import { decidePrompt, simulatorPrompts, type SimulatorEndpoint } from './dev-phone.client.ts';
import { ProviderError } from './providers/mobile-money.ts';

/**
 * The dev phone: the payment prompts of the local provider simulators, approved or declined as the
 * payer's phone would. Anonymous like the dev mailbox, and registered only while the server runs the
 * simulators (never in production), so everywhere else these paths answer the ordinary 404.
 */
export const devPhoneRoutes: FastifyPluginAsyncZod<{ simulators: readonly SimulatorEndpoint[] }> = async (
  app,
  { simulators },
) => {
  if (simulators.length === 0) return;

  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  const unavailable = (error: unknown): never => {
    if (error instanceof ProviderError) throw new AppError('UNAVAILABLE', undefined, undefined, { http: 502 });
    throw error;
  };

  app.get(
    '/dev/phone/prompts',
    { schema: { tags: ['dev'], response: { 200: dataEnvelope(DevPhonePromptListSchema) } } },
    async () => {
      const lists = await Promise.all(simulators.map((simulator) => simulatorPrompts(simulator).catch(unavailable)));
      return { data: lists.flat().sort((a, b) => b.created_at.localeCompare(a.created_at)) };
    },
  );

  app.post(
    '/dev/phone/prompts/:provider/:id/:decision',
    {
      schema: {
        tags: ['dev'],
        summary: 'Approve or decline a simulated payment prompt, as the payer would',
        params: DevPhonePromptParamsSchema,
      },
    },
    async (request, reply) => {
      const { provider, id, decision } = request.params;
      const simulator = simulators.find((candidate) => candidate.provider === provider);
      if (!simulator) throw new AppError('NOT_FOUND');
      const outcome = await decidePrompt(simulator, id, decision).catch(unavailable);
      if (outcome === 'not_pending') throw new AppError('ABORTED');
      return reply.code(204).send();
    },
  );
};
