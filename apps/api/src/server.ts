import { buildApp } from './app.ts';
import { openDatabase } from './db/client.ts';
import { seedIfEmpty } from './seed/index.ts';
import { demoAccountsTable, seedDemoAccounts } from './seed/accounts.ts';
import { seedDemoDocuments } from './seed/demo-documents.ts';
import { seedDemoReview } from './seed/review.ts';
import { databaseOptions, loadEnv } from './lib/env.ts';
import { openFileStores } from './lib/storage/index.ts';
import { keepServingThroughFaults } from './lib/process-faults.ts';
import { releaseMemoryWhenQuiet } from './lib/idle-memory.ts';
import { createMetrics } from './lib/metrics.ts';
import { drainSwitch } from './modules/health/drain.ts';
import { openMailer } from './modules/email/email.jobs.ts';
import { startPaymentSimulators } from './dev/payment-simulators.ts';

const SHUTDOWN_TIMEOUT_MS = 10_000;

// Outside production, providers left unconfigured are pointed at local simulators before anything reads the env.
const simulators = await startPaymentSimulators(loadEnv(), undefined, {
  cardProvider: process.env.PAYMENTS_PROVIDER !== undefined,
});
const env = simulators.env;
const database = await openDatabase(databaseOptions(env));
// Under a lock, so instances starting together take turns; off where the deploy runs `npm run db:migrate`,
// and then an instance started before that step refuses to serve the new code on the old schema.
if (env.MIGRATE_ON_START) await database.migrate();
else {
  const pending = await database.pendingMigrations();
  if (pending > 0) {
    console.error(
      `The database lacks ${pending} migration(s): run \`npm run db:migrate\` first (MIGRATE_ON_START=false).`,
    );
    process.exit(1);
  }
}
const files = openFileStores(env);
// Instances starting together on an empty database take turns: one seeds, the others find it done.
const { seed, demoAccounts } = await database.exclusively('boot-seed', async () => {
  const seed = await seedIfEmpty(database.db);
  // Demo accounts share a published password, so they never exist in production.
  const demoAccounts = env.NODE_ENV === 'production' ? [] : await seedDemoAccounts(database.db);
  if (demoAccounts.length > 0) {
    await seedDemoDocuments(database.db, files.storage);
    await seedDemoReview(database.db, files.storage, env.PUBLIC_URL);
  }
  return { seed, demoAccounts };
});
const mailer = await openMailer({ env, db: database.db });
// The instance's metrics: the app times its requests into them, and anything started here may add its own.
const metrics = createMetrics({ poolCounts: database.poolCounts ? () => database.poolCounts!() : undefined });
const drain = drainSwitch();
// The api process also runs the background jobs (ADR 033), unless BACKGROUND_JOBS=false leaves them to another
// instance: any number of instances share them.
const app = await buildApp({
  database,
  env,
  files,
  mailer,
  work: env.BACKGROUND_JOBS,
  metrics,
  drain,
  paymentSimulators: simulators.endpoints,
});
if (!env.BACKGROUND_JOBS)
  app.log.info('background jobs: off here (BACKGROUND_JOBS=false), another instance works them');
else if (mailer) app.log.info({ transport: mailer.kind }, 'email delivery started');
else app.log.warn('no mail transport: set SMTP_URL to send email; messages wait in the outbox');
// From here on an error nobody handled is logged and the process serves on (ADR 021); before, a start
// that fails should fail loudly.
keepServingThroughFaults(app.log);
if (env.IDLE_MEMORY_RELEASE_SECONDS > 0) {
  const idleMemory = releaseMemoryWhenQuiet({
    quietMs: env.IDLE_MEMORY_RELEASE_SECONDS * 1000,
    onRelease: (released) => app.log.debug(released, 'quiet: memory released'),
  });
  app.server.on('request', idleMemory.activity);
}
if (seed.seeded) app.log.info({ universities: seed.universities }, 'seeded an empty database with demo data');

let stopping = false;
async function shutdown(signal: NodeJS.Signals): Promise<void> {
  if (stopping) {
    app.log.warn({ signal }, 'second signal: exiting now');
    process.exit(1);
  }
  stopping = true;
  // /ready answers 503 from now on; requests are still served for the drain delay, so a load balancer
  // polling /ready sends new ones elsewhere before the port closes.
  drain.start();
  const drainMs = env.SHUTDOWN_DRAIN_SECONDS * 1000;
  app.log.info(
    { signal, drainSeconds: env.SHUTDOWN_DRAIN_SECONDS },
    'shutting down: draining, then finishing in-flight requests',
  );
  setTimeout(() => {
    app.log.error(`shutdown took over ${(drainMs + SHUTDOWN_TIMEOUT_MS) / 1000} s: exiting now`);
    process.exit(1);
  }, drainMs + SHUTDOWN_TIMEOUT_MS).unref();
  try {
    if (drainMs > 0) await new Promise((resolve) => setTimeout(resolve, drainMs));
    // Stops the job queue too, once the jobs under way are done.
    await app.close();
    await simulators.stop();
    await mailer?.close();
    await database.close();
    await files.close();
    process.exit(0);
  } catch (error) {
    app.log.error({ err: error }, 'shutdown failed');
    process.exit(1);
  }
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);

try {
  await app.listen({ port: env.PORT, host: env.HOST });
} catch (error) {
  app.log.fatal({ err: error }, 'could not start listening');
  await app.close();
  await simulators.stop();
  await mailer?.close();
  await database.close();
  process.exit(1);
}
console.log(`Kaminuza is running at ${env.PUBLIC_URL}`);
if (demoAccounts.length > 0) console.log(demoAccountsTable(demoAccounts));
if (simulators.banner) console.log(simulators.banner);
