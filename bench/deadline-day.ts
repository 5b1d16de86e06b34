/**
 * Deadline day (issue 7): on real PostgreSQL, the production server in its own process takes 200
 * applicants submitting at the same moment while 2,000 others keep autosaving their drafts. Budget:
 * p99 submit < 500 ms, p99 autosave < 300 ms, 0 lost and 0 duplicated submissions.
 *
 * Accounts, sessions, drafts and paid fees are created beforehand (not measured). Every submitter
 * Every tenth submitter clicks twice (a double click: the same Idempotency-Key sent twice at once), and a
 * duplicate would show; a second click that meets the first still running is told 409 and retries after
 * its Retry-After, as the web app does (each request is one latency sample; the wait is not).
 * Afterwards the database is checked: every acknowledged submission exists exactly once, with its
 * application marked submitted and its id moved to completed_applications.
 *
 * Needs a PostgreSQL server: DATABASE_URL=postgres://user@host:port/db npm run bench:deadline-day
 * It creates a database of its own on that server and drops it at the end.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import os from 'node:os';
import { mkdir, writeFile } from 'node:fs/promises';
import { and, eq, sql } from 'drizzle-orm';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { applications } from '../apps/api/src/db/schema/index.ts';
import {
  applicantsWithDrafts,
  deadlineAnswers,
  duplicatedSubmissions,
  halfWrittenApplications,
  payFees,
  seedDeadlineInstitution,
  storedSubmissions,
} from '../apps/api/src/test/deadline.ts';
import { startServer, stopServer } from './server.ts';
import { onServer, percentile } from './support.ts';

const SUBMITTERS = Number(process.env.SUBMITTERS ?? 200);
const DRAFTS = Number(process.env.DRAFTS ?? 2_000);
/** How long the autosaving goes on; the submitters all submit in the middle of it. */
const DURATION_MS = Number(process.env.DURATION_MS ?? 30_000);
/** An autosave waits this long after the previous one answered (typing, then the debounce). */
const THINK_MS: [number, number] = [3_000, 9_000];
/** One submitter in this many double-clicks Submit. */
const DOUBLE_CLICK_EVERY = 10;
const BUDGET = { submitP99: 500, autosaveP99: 300 };
const PORT = Number(process.env.BENCH_PORT ?? 4470);

const serverUrl = process.env.DATABASE_URL;
if (!serverUrl) {
  console.error('bench:deadline-day needs a PostgreSQL server: set DATABASE_URL=postgres://user@host:port/db');
  process.exit(2);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const between = ([low, high]: [number, number]) => low + Math.random() * (high - low);

function summary(times: number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: percentile(sorted, 100),
  };
}

const name = `kz_bench_deadline_${randomBytes(4).toString('hex')}`;
await onServer(serverUrl, `CREATE DATABASE ${name}`);
const url = new URL(serverUrl);
url.pathname = `/${name}`;
const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 8 });
const origin = `http://localhost:${PORT}`;
let server: Awaited<ReturnType<typeof startServer>> | undefined;

try {
  await database.migrate();
  // The server seeds the demo catalogue into an empty database; the bench's institution comes after.
  server = await startServer(PORT, { DATABASE_URL: url.toString(), PUBLIC_URL: origin, NODE_ENV: 'development' });
  const db = database.db;

  console.log('setting up: an institution ready to receive applications …');
  const institution = await seedDeadlineInstitution(db);
  const { partnerId } = institution;
  const total = SUBMITTERS + DRAFTS;
  console.log(`setting up: ${total} applicants, each with a session and a draft …`);
  const setupStart = performance.now();
  const drafts = await applicantsWithDrafts(db, origin, institution, total);
  const submitters = drafts.slice(0, SUBMITTERS);
  const savers = drafts.slice(SUBMITTERS);
  // The submitters paid their fee earlier in the week.
  await payFees(
    db,
    partnerId,
    submitters.map((draft) => draft.id),
  );
  console.log(`set up in ${Math.round((performance.now() - setupStart) / 1000)} s`);
  await db.execute(sql`vacuum analyze`);

  const autosave: number[] = [];
  const autosaveErrors: string[] = [];
  const submit: number[] = [];
  const submitErrors: string[] = [];
  /** Second clicks told 409 (the first still running) and sent again after Retry-After. */
  let inProgressRetries = 0;
  const acknowledged = new Map<string, string>();
  const deadline = Date.now() + DURATION_MS;

  console.log(
    `running: ${savers.length} drafts autosaving for ${DURATION_MS / 1000} s, ${submitters.length} submitting at once …`,
  );
  const saving = Promise.all(
    savers.map(async (draft) => {
      let step = 0;
      await sleep(Math.random() * THINK_MS[1]);
      while (Date.now() < deadline) {
        step += 1;
        const started = performance.now();
        try {
          const response = await fetch(`${origin}/api/v1/applications/${draft.id}`, {
            method: 'PATCH',
            headers: { cookie: draft.cookie, origin, 'content-type': 'application/json' },
            body: JSON.stringify({
              version: draft.version,
              answers: deadlineAnswers(step),
              current_step: 0,
              current_section_index: step % 3,
            }),
          });
          const body = (await response.json()) as { data?: { version: number } };
          autosave.push(performance.now() - started);
          if (response.status === 200 && body.data) draft.version = body.data.version;
          else autosaveErrors.push(String(response.status));
        } catch (error) {
          autosave.push(performance.now() - started);
          autosaveErrors.push((error as Error).message);
        }
        await sleep(between(THINK_MS));
      }
    }),
  );

  // The rush: everyone submits in the same second, a third of the way in; every tenth with a double click.
  await sleep(DURATION_MS / 3);
  const submitting = Promise.all(
    submitters.map(async (draft, index) => {
      const key = randomUUID();
      /** One request, timed on its own: a wait for Retry-After is the client's, not the server's. */
      const post = async () => {
        const started = performance.now();
        try {
          const response = await fetch(`${origin}/api/v1/applications/${draft.id}/submit`, {
            method: 'POST',
            headers: { cookie: draft.cookie, origin, 'content-type': 'application/json', 'idempotency-key': key },
            body: JSON.stringify({ version: draft.version, answers: deadlineAnswers(30) }),
          });
          const body = (await response.json()) as { data?: { reference: string } };
          return { response, body };
        } finally {
          submit.push(performance.now() - started);
        }
      };
      const send = async () => {
        try {
          let { response, body } = await post();
          // The second click of a double click meets the first still running: like the web app, it
          // waits the Retry-After and asks again, then gets the first click's receipt.
          for (let retry = 0; response.status === 409 && response.headers.has('retry-after') && retry < 5; retry++) {
            inProgressRetries += 1;
            await sleep(Number(response.headers.get('retry-after')) * 1000);
            ({ response, body } = await post());
          }
          if ((response.status === 201 || response.status === 200) && body.data) {
            const earlier = acknowledged.get(draft.id);
            if (earlier && earlier !== body.data.reference) submitErrors.push('two references for one application');
            acknowledged.set(draft.id, body.data.reference);
          } else submitErrors.push(`${response.status} ${JSON.stringify(body).slice(0, 120)}`);
        } catch (error) {
          submitErrors.push((error as Error).message);
        }
      };
      await Promise.all(index % DOUBLE_CLICK_EVERY === 0 ? [send(), send()] : [send()]);
    }),
  );
  await Promise.all([saving, submitting]);

  // What the database holds now.
  const submitterIds = submitters.map((draft) => draft.id);
  const stored = await storedSubmissions(db, partnerId);
  const lost = [...acknowledged].filter(([id, reference]) => stored.get(id) !== reference).length;
  const duplicated = await duplicatedSubmissions(db, partnerId);
  const unacknowledgedStored = [...stored.keys()].filter((id) => !acknowledged.has(id)).length;
  const halfWritten = await halfWrittenApplications(db, partnerId);
  const submittedDrafts = await db
    .select({ id: applications.id })
    .from(applications)
    .where(and(eq(applications.partner_id, partnerId), eq(applications.status, 'submitted')));

  const results = {
    when: new Date().toISOString(),
    machine: { cpus: os.cpus().length, load: os.loadavg().map((n) => Number(n.toFixed(2))) },
    database: 'PostgreSQL (server process separate from the api process)',
    submitters: submitters.length,
    drafts: savers.length,
    duration_s: DURATION_MS / 1000,
    submit: {
      ...summary(submit),
      errors: submitErrors.length,
      in_progress_retries: inProgressRetries,
      budget_p99_ms: BUDGET.submitP99,
    },
    autosave: { ...summary(autosave), errors: autosaveErrors.length, budget_p99_ms: BUDGET.autosaveP99 },
    acknowledged: acknowledged.size,
    stored: stored.size,
    lost,
    duplicated,
    stored_without_acknowledgement: unacknowledgedStored,
    half_written: halfWritten,
    submitted_drafts: submittedDrafts.length,
    every_submitter_acknowledged: submitterIds.every((id) => acknowledged.has(id)),
  };
  console.log(JSON.stringify(results, null, 2));
  if (submitErrors.length) console.log('submit errors (first 5):', submitErrors.slice(0, 5));
  if (autosaveErrors.length) console.log('autosave errors (first 5):', autosaveErrors.slice(0, 5));
  await mkdir(new URL('./results/', import.meta.url), { recursive: true });
  await writeFile(new URL('./results/deadline-day.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);

  const within =
    results.submit.p99 < BUDGET.submitP99 &&
    results.autosave.p99 < BUDGET.autosaveP99 &&
    lost === 0 &&
    duplicated === 0 &&
    results.half_written === 0 &&
    results.every_submitter_acknowledged;
  console.log(within ? 'deadline day: within budget' : 'deadline day: OVER BUDGET');
  process.exitCode = within ? 0 : 1;
} finally {
  if (server) await stopServer(server);
  await database.close();
  await onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}
