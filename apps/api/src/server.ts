import { buildApp } from './app.ts';
import { openDatabase } from './db/client.ts';
import { seedIfEmpty } from './seed/index.ts';
import { demoAccountsTable, seedDemoAccounts } from './seed/accounts.ts';
import { seedDemoDocuments } from './seed/demo-documents.ts';
import { seedDemoReview } from './seed/review.ts';
import { databaseOptions, loadEnv } from './lib/env.ts';
import { openFileStores } from './lib/storage/index.ts';
import { keepServingThroughFaults } from './lib/process-faults.ts';
import { openMailer } from './modules/email/email.jobs.ts';

const SHUTDOWN_TIMEOUT_MS = 10_000;

const env = loadEnv();
const database = await openDatabase(databaseOptions(env));
await database.migrate();
const seed = await seedIfEmpty(database.db);
// Demo accounts share a published password, so they never exist in production.
const demoAccounts = env.NODE_ENV === 'production' ? [] : await seedDemoAccounts(database.db);
const files = openFileStores(env);
if (demoAccounts.length > 0) {
  await seedDemoDocuments(database.db, files.storage);
  await seedDemoReview(database.db, files.storage, env.PUBLIC_URL);
}
const mailer = await openMailer({ env, db: database.db });
// The api process also runs the background jobs (ADR 033): any number of instances share them.
const app = await buildApp({ database, env, files, mailer, work: true });
if (mailer) app.log.info({ transport: mailer.kind }, 'email delivery started');
else app.log.warn('no mail transport: set SMTP_URL to send email; messages wait in the outbox');
// From here on an error nobody handled is logged and the process serves on (ADR 021); before, a start
// that fails should fail loudly.
keepServingThroughFaults(app.log);
if (seed.seeded) app.log.info({ universities: seed.universities }, 'seeded an empty database with demo data');

let stopping = false;
async function shutdown(signal: NodeJS.Signals): Promise<void> {
  if (stopping) {
    app.log.warn({ signal }, 'second signal: exiting now');
    process.exit(1);
  }
  stopping = true;
  app.log.info({ signal }, 'shutting down: finishing in-flight requests');
  setTimeout(() => {
    app.log.error(`shutdown took over ${SHUTDOWN_TIMEOUT_MS / 1000} s: exiting now`);
    process.exit(1);
  }, SHUTDOWN_TIMEOUT_MS).unref();
  try {
    // Stops the job queue too, once the jobs under way are done.
    await app.close();
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
  await mailer?.close();
  await database.close();
  process.exit(1);
}
console.log(`Kaminuza is running at ${env.PUBLIC_URL}`);
if (demoAccounts.length > 0) console.log(demoAccountsTable(demoAccounts));
