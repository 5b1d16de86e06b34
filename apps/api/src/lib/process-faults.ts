import type { FastifyBaseLogger } from 'fastify';

/**
 * What the api process does with an error nobody handled: it logs it with what is known of where it
 * came from and keeps serving (ADR 021). Node's default, exiting, would turn one faulty request, timer
 * or callback into an outage of every request; the state that matters is in the database, committed or
 * rolled back by its transactions, so nothing half-done survives in memory to be served wrongly.
 * Returns a function that restores the previous behaviour (tests).
 */
export function keepServingThroughFaults(log: Pick<FastifyBaseLogger, 'error'>): () => void {
  const onRejection = (reason: unknown) => {
    log.error({ err: reason }, 'unhandled promise rejection: kept serving');
  };
  const onException = (error: Error, origin: NodeJS.UncaughtExceptionOrigin) => {
    log.error({ err: error, origin }, 'uncaught exception: kept serving');
  };
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  return () => {
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtException', onException);
  };
}
