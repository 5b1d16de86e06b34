/**
 * Deadline day (issues 7 and 24): on real PostgreSQL, 200 applicants submit at the same moment while 2,000
 * others keep autosaving their drafts. The same load is driven, one after the other, against the api (the
 * production build in its own process, working the job queue as on a small server), against the api with
 * the jobs in a second instance of their own (BACKGROUND_JOBS=false on the one measured), and against the
 * bare baseline (bench/bare-server.ts: node:http + pg with the api's SQL), each on a fresh database seeded
 * the same way; the bench prints each and their ratios to the baseline. Budgets: p99 submit < 500 ms, p99 autosave < 300 ms, 0 lost and 0 duplicated submissions, the api's
 * p99s within 1.5× the baseline's, the api ≤ 200 MB RSS idle and ≤ 350 MB at its peak.
 *
 * Accounts, sessions, drafts and paid fees are created beforehand through the api (not measured). Every
 * tenth submitter clicks twice (a double click: the same Idempotency-Key sent twice at once), and a
 * duplicate would show; a second click that meets the first still running is told 409 and retries after
 * its Retry-After, as the web app does (each request is one latency sample; the wait is not). Afterwards
 * the database is checked, for both servers: every acknowledged submission exists exactly once, with its
 * application marked submitted and its id moved to completed_applications; and the baseline must have
 * answered with the same status codes as the api.
 *
 * The load generator runs in its own process (bench/load-generator.ts), pinned to the last core with
 * taskset where there is one; the bench prints the CPU time the server under test, PostgreSQL's backends
 * of the bench's database (and, apart, PostgreSQL's server-wide processes) and the generator used during
 * the measured window. Then the throughput ceiling: for each server, autosaves at a fixed rate, doubled
 * while the server holds it (p99 < 300 ms, no error, the rate reached; a miss is tried once more) and
 * then bisected, give the highest rate held; the api/bare ratio's goal is ≥ 0.67. The server's RSS is
 * read once set up and idle (nothing asked for 15 s: the api returns a busy spell's memory after 10 s
 * quiet), and sampled every 100 ms under load for its peak.
 *
 * Needs a PostgreSQL server: DATABASE_URL=postgres://user@host:port/db npm run bench:deadline-day
 * It creates a database of its own on that server for each run and drops it at the end. Quicker runs:
 * SUBMITTERS, DRAFTS, DURATION_MS (the deadline window), CEILING_STEP_MS (each rate step; 0 skips the
 * ceiling), CEILING_START (the first rate, per second), CEILING_BISECT (bisection steps), SERVERS
 * (`api,bare`, or one of them), API_NODE_OPTIONS (Node's options for the api instead of production's), KEEP_LOGS
 * (keep the servers' logs, whose folder is printed).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { openDatabase, type Db } from '../apps/api/src/db/client.ts';
import { applications } from '../apps/api/src/db/schema/index.ts';
import { freePort, untilReady } from '../apps/api/src/test/server-process.ts';
import {
  applicantsWithDrafts,
  deadlineAnswers,
  duplicatedSubmissions,
  halfWrittenApplications,
  payFees,
  seedDeadlineInstitution,
  storedSubmissions,
  type Applicant,
} from '../apps/api/src/test/deadline.ts';
import type { Measured, Plan } from './load-generator.ts';
import { cpuBetween, cpuSnapshot, memoryOf, sampleRss } from './process-stats.ts';
import { buildApi, PRODUCTION_NODE_OPTIONS } from '../apps/api/scripts/build.ts';
import { startMailSink } from '../apps/api/src/test/mail-sink.ts';
import { startServer, stopServer } from './server.ts';
import { onServer, percentile } from './support.ts';

const SUBMITTERS = Number(process.env.SUBMITTERS ?? 200);
const DRAFTS = Number(process.env.DRAFTS ?? 2_000);
/** How long the autosaving goes on; the submitters all submit a third of the way in. */
const DURATION_MS = Number(process.env.DURATION_MS ?? 30_000);
/** An autosave waits this long after the previous one answered (typing, then the debounce). */
const THINK_MS: [number, number] = [3_000, 9_000];
/** One submitter in this many double-clicks Submit. */
const DOUBLE_CLICK_EVERY = 10;
const CEILING_STEP_MS = Number(process.env.CEILING_STEP_MS ?? 4_000);
const CEILING_START = Number(process.env.CEILING_START ?? 100);
const CEILING_MAX = 12_800;
const CEILING_BISECT = Number(process.env.CEILING_BISECT ?? 2);
const IDLE_MS = 15_000;
/** Node's options for the api: production's, unless API_NODE_OPTIONS says otherwise (`''`: V8's defaults). */
const API_NODE_OPTIONS =
  process.env.API_NODE_OPTIONS === undefined
    ? PRODUCTION_NODE_OPTIONS
    : process.env.API_NODE_OPTIONS.split(' ').filter(Boolean);
/**
 * The servers measured: the api working the job queue itself (one process, as on a small server), the api
 * with the jobs in a second process of their own (BACKGROUND_JOBS=false on the measured one), the bare
 * baseline.
 */
type Kind = 'api' | 'api-jobs-apart' | 'bare';
const SERVERS = (process.env.SERVERS ?? 'api,api-jobs-apart,bare').split(',') as Kind[];
const API_KINDS = ['api', 'api-jobs-apart'] as const;
const BUDGET = { submitP99: 500, autosaveP99: 300, ratioP99: 1.5, idleRssMb: 200, peakRssMb: 350, ceilingRatio: 0.67 };
/** One AUTH_SECRET for both servers: the bare server checks the cookie signatures the api's sessions carry. */
const AUTH_SECRET = randomBytes(32).toString('base64url');
/**
 * The api runs as production runs it: the build (`dist/server.mjs`, made here first), NODE_ENV=production,
 * email sent over SMTP to a mail server outside it (here a sink in the bench's process, which keeps nothing).
 */
const PRODUCTION_ENV = {
  NODE_ENV: 'production',
  AUTH_SECRET,
  PAYMENTS_WEBHOOK_SECRET: randomBytes(32).toString('base64url'),
  PAYMENTS_PROVIDER: 'sandbox',
  // As the image sets it (Dockerfile, ADR 046).
  MALLOC_ARENA_MAX: '2',
};

const serverUrl = process.env.DATABASE_URL;
if (!serverUrl) {
  console.error('bench:deadline-day needs a PostgreSQL server: set DATABASE_URL=postgres://user@host:port/db');
  process.exit(2);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

function summary(times: number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: percentile(sorted, 100),
  };
}

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const generatorScript = path.join(benchDir, 'load-generator.ts');
const bareScript = path.join(benchDir, 'bare-server.ts');
const scratch = await mkdtemp(path.join(os.tmpdir(), 'kz-deadline-'));
await buildApi();
const mailSink = await startMailSink();
/** The core the generator is pinned to: the last one, when taskset exists and there is more than one. */
const generatorCore =
  os.availableParallelism() > 1 && spawnSync('taskset', ['-V']).status === 0 ? os.availableParallelism() - 1 : null;

/** Runs one plan in the generator's own process; `window` brackets its measured window. */
async function generate(plan: Plan, window: { start: () => void; end: () => void }): Promise<Measured> {
  const file = path.join(scratch, `plan-${randomBytes(4).toString('hex')}.json`);
  await writeFile(file, JSON.stringify(plan));
  const node = [process.execPath, '--disable-warning=ExperimentalWarning', generatorScript, file];
  const [command, ...args] = generatorCore === null ? node : ['taskset', '-c', String(generatorCore), ...node];
  const child = spawn(command!, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    return await new Promise<Measured>((resolve, reject) => {
      let measured: Measured | undefined;
      child.on('message', (message: { type: 'start' } | { type: 'done'; measured: Measured }) => {
        if (message.type === 'start') window.start();
        else {
          window.end();
          measured = message.measured;
        }
      });
      child.on('error', reject);
      child.on('exit', (code) =>
        measured ? resolve(measured) : reject(new Error(`the load generator exited with ${code} and no results`)),
      );
    });
  } finally {
    await rm(file, { force: true });
  }
}

/**
 * PostgreSQL's processes: the backends serving the bench's database (the server's pool and the bench's own
 * idle connections), and the server-wide ones (WAL writer, checkpointer, autovacuum …), shared with any
 * other database on the server.
 */
async function postgresPids(db: Db, database: string): Promise<{ backends: number[]; background: number[] }> {
  const { rows } = await db.execute<{ pid: number; ours: boolean }>(
    sql`select pid, (datname = ${database} and backend_type = 'client backend') as ours from pg_stat_activity
        where (datname = ${database} and backend_type = 'client backend') or backend_type <> 'client backend'`,
  );
  return {
    backends: rows.filter((row) => row.ours).map((row) => row.pid),
    background: rows.filter((row) => !row.ours).map((row) => row.pid),
  };
}

/** The bare baseline in a process of its own, once it answers /ready. */
async function startBare(port: number, databaseUrl: string, publicUrl: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', bareScript], {
    env: { ...process.env, PORT: String(port), DATABASE_URL: databaseUrl, PUBLIC_URL: publicUrl, AUTH_SECRET },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return untilReady(child, port, 30_000, 100);
}

/**
 * The same requests, denied ones included, asked of the server under test before the load: what each
 * answered (status, error reason, the answer's fields), to compare the baseline's answers with the api's.
 * None of them changes anything.
 */
async function probe(
  origin: string,
  mine: Applicant,
  another: Applicant,
  unpaid: Applicant,
): Promise<Record<string, string>> {
  const ask = async (method: string, path: string, cookie: string | null, body?: object) => {
    const response = await fetch(`${origin}${path}`, {
      method,
      headers: { origin, 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const answer = (await response.json()) as { data?: object | null; error?: { reason?: string; status: string } };
    const what = answer.error
      ? `${answer.error.status} ${answer.error.reason ?? ''}`.trim()
      : answer.data
        ? Object.keys(answer.data).sort().join(',')
        : String(answer.data);
    return `${response.status} ${what}`;
  };
  const save = (version: number) => ({ version, answers: deadlineAnswers(1), current_step: 0 });
  return {
    'GET session, signed in': await ask('GET', '/api/v1/auth/session', mine.cookie),
    'GET session, no cookie': await ask('GET', '/api/v1/auth/session', null),
    'PATCH, no cookie': await ask('PATCH', `/api/v1/applications/${mine.id}`, null, save(mine.version)),
    'PATCH, forged cookie': await ask(
      'PATCH',
      `/api/v1/applications/${mine.id}`,
      mine.cookie.replace(/(session_token=)[^.;]+/, '$1forged'),
      save(mine.version),
    ),
    "PATCH, another student's draft": await ask(
      'PATCH',
      `/api/v1/applications/${another.id}`,
      mine.cookie,
      save(another.version),
    ),
    'PATCH, stale version': await ask('PATCH', `/api/v1/applications/${mine.id}`, mine.cookie, save(mine.version + 5)),
    'PATCH, no answers': await ask('PATCH', `/api/v1/applications/${mine.id}`, mine.cookie, { version: mine.version }),
    // The api checks the body before the session.
    'PATCH, no answers, no cookie': await ask('PATCH', `/api/v1/applications/${mine.id}`, null, {
      version: mine.version,
    }),
    'PATCH, not an id': await ask('PATCH', '/api/v1/applications/not-an-id', mine.cookie, save(mine.version)),
    'POST submit, fee unpaid': await ask('POST', `/api/v1/applications/${unpaid.id}/submit`, unpaid.cookie, {
      version: unpaid.version,
      answers: deadlineAnswers(30),
    }),
    'POST submit, stale version': await ask('POST', `/api/v1/applications/${mine.id}/submit`, mine.cookie, {
      version: mine.version + 5,
      answers: deadlineAnswers(30),
    }),
  };
}

interface CeilingStep {
  rate: number;
  sent_per_s: number;
  p50: number;
  p99: number;
  errors: number;
  skipped: number;
  held: boolean;
  cpu_ms: {
    server: number;
    postgres: number;
    postgres_background: number;
    generator: number;
    server_per_request: number;
    postgres_per_request: number;
  };
}

/** Measures one plan with the CPU time of the server, PostgreSQL and the generator over its window. */
async function measured(db: Db, database: string, serverPid: number, plan: Plan, workerPid?: number) {
  const none = () => ({
    server: 0,
    worker: 0,
    backends: new Map<number, number>(),
    background: new Map<number, number>(),
  });
  let before = none();
  let after = none();
  // The pids are read before and after: /proc reads inside the window's callbacks stay synchronous.
  const pidsBefore = await postgresPids(db, database);
  let stopSampling = () => 0;
  const result = await generate(plan, {
    start: () => {
      before = {
        server: cpuSnapshot([serverPid]).get(serverPid) ?? 0,
        worker: workerPid ? (cpuSnapshot([workerPid]).get(workerPid) ?? 0) : 0,
        backends: cpuSnapshot(pidsBefore.backends),
        background: cpuSnapshot(pidsBefore.background),
      };
      stopSampling = sampleRss(serverPid);
    },
    end: () => {
      after = {
        ...none(),
        server: cpuSnapshot([serverPid]).get(serverPid) ?? 0,
        worker: workerPid ? (cpuSnapshot([workerPid]).get(workerPid) ?? 0) : 0,
      };
    },
  });
  const peakRssMb = stopSampling();
  // Backends opened during the window count from their start; all are read right after it.
  const pidsAfter = await postgresPids(db, database);
  after.backends = cpuSnapshot([...new Set([...pidsBefore.backends, ...pidsAfter.backends])]);
  after.background = cpuSnapshot([...new Set([...pidsBefore.background, ...pidsAfter.background])]);
  const cpu = {
    window_s: round(result.windowMs / 1000, 1),
    server_ms: Math.round(after.server - before.server),
    /** The second api process working the job queue (api-jobs-apart only). */
    worker_ms: Math.round(after.worker - before.worker),
    postgres_ms: cpuBetween(before.backends, after.backends),
    postgres_background_ms: cpuBetween(before.background, after.background),
    generator_ms: Math.round(result.cpuMs),
    /** CPU per answered request: less at the mercy of other work on the machine than latencies are. */
    per_request_ms: { server: 0, postgres: 0 },
  };
  const requests = result.autosave.length + result.submit.length;
  if (requests > 0)
    cpu.per_request_ms = { server: round(cpu.server_ms / requests), postgres: round(cpu.postgres_ms / requests) };
  return { result, cpu, peakRssMb };
}

/** The highest autosave rate the server holds: doubling while it holds, then bisecting. */
async function ceiling(db: Db, database: string, serverPid: number, origin: string, drafts: Applicant[]) {
  const steps: CeilingStep[] = [];
  const answers = Array.from({ length: 41 }, (_, step) => deadlineAnswers(step));
  const step = async (rate: number) => {
    const { result, cpu } = await measured(db, database, serverPid, {
      mode: 'rate',
      origin,
      answers,
      drafts,
      rate,
      durationMs: CEILING_STEP_MS,
    });
    for (const draft of drafts) draft.version = result.versions[draft.id] ?? draft.version;
    const times = summary(result.autosave);
    const sentPerSecond = result.autosave.length / (CEILING_STEP_MS / 1000);
    const held =
      times.p99 < BUDGET.autosaveP99 &&
      result.autosaveErrors.length === 0 &&
      result.skipped === 0 &&
      sentPerSecond >= rate * 0.95;
    steps.push({
      rate,
      sent_per_s: Math.round(sentPerSecond),
      p50: times.p50,
      p99: times.p99,
      errors: result.autosaveErrors.length,
      skipped: result.skipped,
      held,
      cpu_ms: {
        server: cpu.server_ms,
        postgres: cpu.postgres_ms,
        postgres_background: cpu.postgres_background_ms,
        generator: cpu.generator_ms,
        server_per_request: cpu.per_request_ms.server,
        postgres_per_request: cpu.per_request_ms.postgres,
      },
    });
    console.log(
      `  ${rate}/s: sent ${Math.round(sentPerSecond)}/s, p50 ${times.p50} ms, p99 ${times.p99} ms, ${held ? 'held' : 'not held'}`,
    );
    // The next step starts on a quiet server.
    await sleep(1_000);
    return held;
  };
  /**
   * A rate missed once is tried again before it counts as not held: the machine is shared, and one burst
   * of someone else's work in five seconds is enough to push a p99 over. Both servers get the same second
   * chance.
   */
  const holds = async (rate: number) => (await step(rate)) || (await step(rate));
  let held = 0;
  let failed = Infinity;
  for (let rate = CEILING_START; failed === Infinity && rate <= CEILING_MAX; rate *= 2) {
    if (await holds(rate)) held = rate;
    else failed = rate;
  }
  for (let i = 0; i < CEILING_BISECT && failed !== Infinity && failed - held > Math.max(10, held * 0.05); i++) {
    const rate = Math.round((held + failed) / 2);
    if (await holds(rate)) held = rate;
    else failed = rate;
  }
  return { highest_held_per_s: held, lowest_not_held_per_s: failed === Infinity ? null : failed, steps };
}

async function run(kind: Kind) {
  const name = `kz_bench_deadline_${randomBytes(4).toString('hex')}`;
  await onServer(serverUrl!, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl!);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 8 });
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  let api: ChildProcess | undefined;
  let worker: ChildProcess | undefined;
  let bare: ChildProcess | undefined;
  const mailBefore = mailSink.received();
  try {
    await database.migrate();
    console.log(`\n== ${kind}: setting up on a fresh database, through the api …`);
    // The api seeds the demo catalogue into an empty database; the bench's institution comes after.
    const apiEnv = { ...PRODUCTION_ENV, DATABASE_URL: url.toString(), PUBLIC_URL: origin, SMTP_URL: mailSink.url };
    const apiOptions = { bundle: true, nodeOptions: API_NODE_OPTIONS };
    api = await startServer(
      port,
      { ...apiEnv, BACKGROUND_JOBS: String(kind !== 'api-jobs-apart') },
      { ...apiOptions, log: path.join(scratch, `${kind}-api.log`) },
    );
    // The jobs' own instance: the same build, not sent any request.
    if (kind === 'api-jobs-apart')
      worker = await startServer(await freePort(), apiEnv, {
        ...apiOptions,
        log: path.join(scratch, `${kind}-worker.log`),
      });
    const rssAfterStart = memoryOf(api.pid!)?.rssMb ?? 0;
    const db = database.db;
    const institution = await seedDeadlineInstitution(db);
    const setupStart = performance.now();
    const drafts = await applicantsWithDrafts(db, origin, institution, SUBMITTERS + DRAFTS, AUTH_SECRET);
    const submitters = drafts.slice(0, SUBMITTERS);
    const savers = drafts.slice(SUBMITTERS);
    await payFees(
      db,
      institution.partnerId,
      submitters.map((draft) => draft.id),
    );
    console.log(`${SUBMITTERS + DRAFTS} applicants set up in ${Math.round((performance.now() - setupStart) / 1000)} s`);
    if (kind === 'bare') {
      await stopServer(api);
      api = undefined;
      bare = await startBare(port, url.toString(), origin);
    }
    const server = (api ?? bare)!;
    // A submitter (paid) and two savers (unpaid), before any of them saves or submits.
    const probes = await probe(origin, submitters[0]!, savers[0]!, savers[1]!);
    await db.execute(sql`vacuum analyze`);
    // Idle: set up, then nothing asked for longer than the api waits before returning memory (10 s).
    await sleep(IDLE_MS);
    const rssBeforeLoad = memoryOf(server.pid!)?.rssMb ?? 0;

    console.log(
      `${kind}: ${savers.length} drafts autosaving for ${DURATION_MS / 1000} s, ${submitters.length} submitting at once …`,
    );
    const load = await measured(
      db,
      name,
      server.pid!,
      {
        mode: 'deadline',
        origin,
        // Autosave step n sends the answers after n steps; the last entry is what the submitters submit.
        answers: [...Array.from({ length: 41 }, (_, step) => deadlineAnswers(step)), deadlineAnswers(30)],
        savers,
        submitters,
        durationMs: DURATION_MS,
        thinkMs: THINK_MS,
        doubleClickEvery: DOUBLE_CLICK_EVERY,
      },
      worker?.pid,
    );
    const { result } = load;
    for (const draft of drafts) draft.version = result.versions[draft.id] ?? draft.version;

    // What the database holds now.
    const acknowledged = new Map(result.acknowledged);
    const stored = await storedSubmissions(db, institution.partnerId);
    const lost = [...acknowledged].filter(([id, reference]) => stored.get(id) !== reference).length;
    const duplicated = await duplicatedSubmissions(db, institution.partnerId);
    const halfWritten = await halfWrittenApplications(db, institution.partnerId);
    const submittedDrafts = await db
      .select({ id: applications.id })
      .from(applications)
      .where(and(eq(applications.partner_id, institution.partnerId), eq(applications.status, 'submitted')));

    console.log(`${kind}: throughput ceiling (autosaves at a fixed rate, ${CEILING_STEP_MS / 1000} s a step) …`);
    // The deadline window's leftovers (the receipt emails the api's worker sends, late answers) die down first.
    await sleep(5_000);
    const stopCeilingSampling = sampleRss(server.pid!);
    const throughput =
      CEILING_STEP_MS > 0 ? await ceiling(db, name, server.pid!, origin, savers) : { highest_held_per_s: null };
    const ceilingPeakRss = stopCeilingSampling();

    if (result.submitErrors.length) console.log(`${kind} submit errors (first 5):`, result.submitErrors.slice(0, 5));
    if (result.autosaveErrors.length)
      console.log(`${kind} autosave errors (first 5):`, result.autosaveErrors.slice(0, 5));
    return {
      server: {
        api: 'the api as built for production (apps/api/dist/server.mjs, NODE_ENV=production), working the job queue',
        'api-jobs-apart': 'the same api with BACKGROUND_JOBS=false, a second instance working the job queue',
        bare: 'the bare baseline (bench/bare-server.ts)',
      }[kind],
      node_options: kind === 'bare' ? '' : API_NODE_OPTIONS.join(' '),
      submit: {
        ...summary(result.submit),
        errors: result.submitErrors.length,
        in_progress_retries: result.inProgressRetries,
      },
      autosave: { ...summary(result.autosave), errors: result.autosaveErrors.length },
      statuses: result.statuses,
      probes,
      acknowledged: acknowledged.size,
      stored: stored.size,
      lost,
      duplicated,
      stored_without_acknowledgement: [...stored.keys()].filter((id) => !acknowledged.has(id)).length,
      half_written: halfWritten,
      submitted_drafts: submittedDrafts.length,
      every_submitter_acknowledged: submitters.every((draft) => acknowledged.has(draft.id)),
      // The api's receipt emails (and any other) that reached the mail server by the end of the run.
      emails_received: mailSink.received() - mailBefore,
      // A message delivered twice (at-least-once SMTP: a send whose answer was lost is sent again) shows here.
      emails_distinct_recipients: new Set(mailSink.recipients().slice(mailBefore).flat()).size,
      cpu: load.cpu,
      rss_mb: {
        after_start: kind === 'bare' ? null : rssAfterStart,
        idle_before_load: rssBeforeLoad,
        peak_deadline: load.peakRssMb,
        peak_ceiling: ceilingPeakRss,
      },
      ceiling: throughput,
    };
  } finally {
    if (api) await stopServer(api);
    if (worker) await stopServer(worker);
    if (bare) await stopServer(bare);
    await database.close();
    await onServer(serverUrl!, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

try {
  const runs: Partial<Record<Kind, Awaited<ReturnType<typeof run>>>> = {};
  for (const kind of SERVERS) runs[kind] = await run(kind);
  const { bare } = runs;
  const measuredApis = API_KINDS.flatMap((kind) => (runs[kind] ? [[kind, runs[kind]] as const] : []));
  const ratio = (a: number | null | undefined, b: number | null | undefined) =>
    a != null && b != null && b > 0 ? round(a / b) : null;
  const ratiosOf = (api: NonNullable<typeof bare>, base: NonNullable<typeof bare>) => ({
    submit_p50: ratio(api.submit.p50, base.submit.p50),
    submit_p99: ratio(api.submit.p99, base.submit.p99),
    autosave_p50: ratio(api.autosave.p50, base.autosave.p50),
    autosave_p99: ratio(api.autosave.p99, base.autosave.p99),
    ceiling_api_over_bare: ratio(api.ceiling.highest_held_per_s, base.ceiling.highest_held_per_s),
    server_cpu_per_request: ratio(api.cpu.per_request_ms.server, base.cpu.per_request_ms.server),
  });
  const ratios = bare ? Object.fromEntries(measuredApis.map(([kind, api]) => [kind, ratiosOf(api, bare)])) : null;
  // The baseline answers as the api does: the same status codes under load, the same answers to the probes.
  const sameStatuses = measuredApis.every(
    ([, api]) =>
      !bare || JSON.stringify(Object.keys(api.statuses).sort()) === JSON.stringify(Object.keys(bare.statuses).sort()),
  );
  const probesDiffering = bare
    ? measuredApis.flatMap(([kind, api]) =>
        Object.keys(api.probes)
          .filter((what) => api.probes[what] !== bare.probes[what])
          .map((what) => `${kind}: ${what}`),
      )
    : [];
  if (probesDiffering.length > 0) console.log('the servers answered differently:', probesDiffering);

  const results = {
    when: new Date().toISOString(),
    machine: { cpus: os.cpus().length, load: os.loadavg().map((n) => round(n)) },
    database: 'PostgreSQL (server process separate from the servers under test)',
    load: {
      submitters: SUBMITTERS,
      drafts: DRAFTS,
      duration_s: DURATION_MS / 1000,
      generator: generatorCore === null ? 'own process, not pinned' : `own process, pinned to core ${generatorCore}`,
      ceiling_step_s: CEILING_STEP_MS / 1000,
    },
    budgets: BUDGET,
    runs,
    api_over_bare: ratios,
    same_status_codes: sameStatuses,
    probes_answered_differently: probesDiffering,
  };

  const row = (r: NonNullable<typeof bare>) => ({
    'submit p50': r.submit.p50,
    'submit p99': r.submit.p99,
    'autosave p50': r.autosave.p50,
    'autosave p99': r.autosave.p99,
    lost: r.lost,
    duplicated: r.duplicated,
    'ceiling /s': r.ceiling.highest_held_per_s,
    'cpu server s': round(r.cpu.server_ms / 1000, 1),
    'cpu jobs s': round(r.cpu.worker_ms / 1000, 1),
    'cpu postgres s': round(r.cpu.postgres_ms / 1000, 1),
    'cpu pg bg s': round(r.cpu.postgres_background_ms / 1000, 1),
    'cpu generator s': round(r.cpu.generator_ms / 1000, 1),
    'server cpu ms/request': r.cpu.per_request_ms.server,
    'rss idle MB': r.rss_mb.idle_before_load,
    'rss peak MB': Math.max(r.rss_mb.peak_deadline, r.rss_mb.peak_ceiling),
  });
  console.log('\nDeadline day, ms (CPU over the deadline window of', DURATION_MS / 1000, 's, 2 cores):');
  console.table(Object.fromEntries(Object.entries(runs).map(([kind, r]) => [kind, row(r)])));
  for (const [kind, r] of Object.entries(runs)) {
    const capacity = r.cpu.window_s * 1000 * os.availableParallelism();
    const share = (ms: number) => `${round(ms / 1000, 1)} s (${Math.round((ms / capacity) * 100)} %)`;
    console.log(
      `${kind}: of the ${os.availableParallelism()} cores over ${r.cpu.window_s} s, the server used ${share(r.cpu.server_ms)},` +
        (r.cpu.worker_ms > 0 ? ` the jobs' instance ${share(r.cpu.worker_ms)},` : '') +
        ` PostgreSQL's backends ${share(r.cpu.postgres_ms)} (its server-wide processes ${share(r.cpu.postgres_background_ms)}),` +
        ` the generator ${share(r.cpu.generator_ms)}; the rest was idle or other work on the machine`,
    );
  }
  if (ratios) console.log('over the bare baseline:', ratios);
  console.log(JSON.stringify(results, null, 2));
  await mkdir(path.join(benchDir, 'results'), { recursive: true });
  await writeFile(path.join(benchDir, 'results', 'deadline-day.json'), `${JSON.stringify(results, null, 2)}\n`);

  const correct = Object.values(runs).every(
    (r) => r.lost === 0 && r.duplicated === 0 && r.half_written === 0 && r.every_submitter_acknowledged,
  );
  const checks: Array<[string, boolean]> = [
    ['0 lost, 0 duplicated, none half-written, every submitter acknowledged (each server)', correct],
    ['the baseline answered the same status codes as the api', sameStatuses],
    ['the baseline answered the probes (denied requests included) as the api', probesDiffering.length === 0],
  ];
  for (const [kind, api] of measuredApis) {
    checks.push(
      [`${kind} submit p99 < ${BUDGET.submitP99} ms`, api.submit.p99 < BUDGET.submitP99],
      [`${kind} autosave p99 < ${BUDGET.autosaveP99} ms`, api.autosave.p99 < BUDGET.autosaveP99],
      [`${kind} idle RSS ≤ ${BUDGET.idleRssMb} MB`, api.rss_mb.idle_before_load <= BUDGET.idleRssMb],
      [
        `${kind} peak RSS ≤ ${BUDGET.peakRssMb} MB`,
        Math.max(api.rss_mb.peak_deadline, api.rss_mb.peak_ceiling) <= BUDGET.peakRssMb,
      ],
    );
    const against = ratios?.[kind];
    if (!against) continue;
    checks.push(
      [`${kind}/bare submit p99 ≤ ${BUDGET.ratioP99}`, (against.submit_p99 ?? Infinity) <= BUDGET.ratioP99],
      [`${kind}/bare autosave p99 ≤ ${BUDGET.ratioP99}`, (against.autosave_p99 ?? Infinity) <= BUDGET.ratioP99],
    );
    if (CEILING_STEP_MS > 0)
      checks.push([
        `${kind}/bare throughput ceiling ≥ ${BUDGET.ceilingRatio}`,
        (against.ceiling_api_over_bare ?? 0) >= BUDGET.ceilingRatio,
      ]);
  }
  for (const [what, ok] of checks) console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  const within = checks.every(([, ok]) => ok);
  console.log(within ? 'deadline day: within budget' : 'deadline day: OVER BUDGET');
  process.exitCode = correct && sameStatuses && probesDiffering.length === 0 ? (within ? 0 : 1) : 3;
} finally {
  await mailSink.close();
  if (process.env.KEEP_LOGS) console.log(`the servers' logs: ${scratch}`);
  else await rm(scratch, { recursive: true, force: true });
}
