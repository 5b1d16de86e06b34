/**
 * Decision day (issue 26): an institution releases a thousand decisions together at a set minute, and the
 * applicants open them as the emails arrive. Measured on PostgreSQL against the api as production runs it
 * (the build, its own process, working the job queue, email over SMTP to a sink): the institution's Admin
 * schedules them through the api, the release pass asked for that minute takes them then (letters issued,
 * applicants told), and each applicant opens the
 * decision screen (what it loads: the application's context, then the decision) at a random moment of the
 * first minute after it. A view before the job reached that decision is answered 404 and asked again ten
 * seconds later, as someone refreshing would. Budget: the screen's requests answered with p95 ≤ 100 ms.
 *
 * Needs a PostgreSQL server: DATABASE_URL=postgres://user@host:port/db npm run bench:decision-release
 * It creates a database of its own on that server and drops it at the end. APPLICANTS sets how many.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { BULK_MAX } from '@kaminuza/shared';
import { openDatabase, type Db } from '../apps/api/src/db/client.ts';
import { createVerifiedAccount } from '../apps/api/src/modules/auth/accounts.ts';
import { hashPassword } from '../apps/api/src/modules/auth/password.ts';
import { decisions, submissions } from '../apps/api/src/db/schema/index.ts';
import { freePort } from '../apps/api/src/test/server-process.ts';
import {
  applicantsWithDrafts,
  deadlineAnswers,
  inBatches,
  payFees,
  seedDeadlineInstitution,
} from '../apps/api/src/test/deadline.ts';
import { startMailSink } from '../apps/api/src/test/mail-sink.ts';
import { buildApi, PRODUCTION_NODE_OPTIONS } from '../apps/api/scripts/build.ts';
import { memoryOf } from './process-stats.ts';
import { startServer, stopServer } from './server.ts';
import { onServer, percentile, sessionCookie } from './support.ts';

const APPLICANTS = Number(process.env.APPLICANTS ?? 1_000);
const BUDGET_P95_MS = 100;
/** The views come during the first minute after the release. */
const VIEW_WINDOW_MS = 60_000;
/** Someone told "no decision yet" looks again this much later. */
const RETRY_MS = 10_000;

const serverUrl = process.env.DATABASE_URL;
if (!serverUrl) {
  console.error('bench:decision-release needs a PostgreSQL server: set DATABASE_URL=postgres://user@host:port/db');
  process.exit(2);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

function get(origin: string, url: string, cookie: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const sent = http.request(`${origin}${url}`, { agent, headers: { cookie, origin } }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, ms: performance.now() - started }));
    });
    sent.on('error', reject);
    sent.end();
  });
}

/** The institution's Admin, signed in through the api: who schedules the release. */
async function adminSession(db: Db, origin: string, partnerId: string): Promise<string> {
  const email = `admissions-${randomBytes(4).toString('hex')}@release.kaminuza.example`;
  const password = randomBytes(12).toString('base64url');
  await createVerifiedAccount(db, {
    type: 'staff',
    email,
    passwordHash: await hashPassword(password),
    firstName: 'Release',
    lastName: 'Admin',
    partnerId,
    permissions: ['all'],
  });
  const response = await fetch(`${origin}/api/v1/auth/sign-in`, {
    method: 'POST',
    headers: { origin, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (response.status !== 200) throw new Error(`sign-in answered ${response.status}: ${await response.text()}`);
  return sessionCookie(response.headers.getSetCookie());
}

async function post(origin: string, url: string, cookie: string, body: unknown): Promise<number> {
  const response = await fetch(`${origin}${url}`, {
    method: 'POST',
    headers: { cookie, origin, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  return response.status;
}

await buildApi();
const mailSink = await startMailSink();
const scratch = await mkdtemp(path.join(os.tmpdir(), 'kz-release-'));
const name = `kz_bench_release_${randomBytes(4).toString('hex')}`;
await onServer(serverUrl, `CREATE DATABASE ${name}`);
const url = new URL(serverUrl);
url.pathname = `/${name}`;
const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 8 });
const port = await freePort();
const origin = `http://localhost:${port}`;
const AUTH_SECRET = randomBytes(32).toString('base64url');
let api: Awaited<ReturnType<typeof startServer>> | undefined;

try {
  await database.migrate();
  api = await startServer(
    port,
    {
      NODE_ENV: 'production',
      AUTH_SECRET,
      PAYMENTS_WEBHOOK_SECRET: randomBytes(32).toString('base64url'),
      PAYMENTS_PROVIDER: 'sandbox',
      MALLOC_ARENA_MAX: '2',
      DATABASE_URL: url.toString(),
      PUBLIC_URL: origin,
      SMTP_URL: mailSink.url,
    },
    { bundle: true, nodeOptions: PRODUCTION_NODE_OPTIONS, log: path.join(scratch, 'api.log') },
  );
  const db = database.db;

  console.log(`setting up ${APPLICANTS} submitted applications …`);
  const setupStart = performance.now();
  const institution = await seedDeadlineInstitution(db);
  const applicants = await applicantsWithDrafts(db, origin, institution, APPLICANTS, AUTH_SECRET);
  await payFees(
    db,
    institution.partnerId,
    applicants.map((applicant) => applicant.id),
  );
  const statuses = await inBatches(applicants, 16, (applicant) =>
    post(origin, `/api/v1/applications/${applicant.id}/submit`, applicant.cookie, {
      version: applicant.version,
      answers: deadlineAnswers(30),
    }),
  );
  if (statuses.some((status) => status !== 201)) throw new Error(`a submit answered ${statuses.join(',')}`);
  console.log(`set up in ${Math.round((performance.now() - setupStart) / 1000)} s`);

  // The decisions, drafted (two in three are offers, with letters issued at release), then scheduled by the
  // institution's Admin through the api for the next whole minute at least 20 s away (the institution's
  // clock is UTC here): the release pass asked for that moment takes them then, as it would on the day.
  const releaseAt = Math.ceil((Date.now() + 20_000) / 60_000) * 60_000;
  const rows = await db
    .select({ id: submissions.id, student_id: submissions.student_id })
    .from(submissions)
    .where(eq(submissions.partner_id, institution.partnerId));
  for (let start = 0; start < rows.length; start += 500) {
    await db.insert(decisions).values(
      rows.slice(start, start + 500).map((row, index) => ({
        submission_id: row.id,
        partner_id: institution.partnerId,
        student_id: row.student_id,
        state: (start + index) % 3 === 2 ? ('rejected' as const) : ('accepted' as const),
        program_name: 'BSc Deadline Studies',
        university_name: 'Deadline University',
      })),
    );
  }
  const cookie = await adminSession(db, origin, institution.partnerId);
  for (let start = 0; start < rows.length; start += BULK_MAX) {
    const response = await fetch(`${origin}/api/v1/partners/${institution.partnerId}/decisions/release`, {
      method: 'POST',
      headers: { cookie, origin, 'content-type': 'application/json' },
      body: JSON.stringify({
        submission_ids: rows.slice(start, start + BULK_MAX).map((row) => row.id),
        when: 'at',
        at: new Date(releaseAt).toISOString().slice(0, 16),
      }),
    });
    if (response.status !== 200) throw new Error(`scheduling answered ${response.status}: ${await response.text()}`);
  }
  await db.execute(sql`vacuum analyze`);
  console.log(`${rows.length} decisions scheduled for ${new Date(releaseAt).toISOString()}; waiting …`);
  await sleep(Math.max(0, releaseAt - Date.now()));

  // Each applicant opens the decision screen once, at a random moment of the first minute.
  const times: number[] = [];
  const byStatus: Record<string, number> = {};
  let retries = 0;
  /** When each applicant first saw their decision, from the set minute. */
  const seenAfter: number[] = [];
  /** When an applicant was last told "no decision yet", from the set minute: the release still running. */
  let lastNotYet = 0;
  const windowStart = Date.now();
  await Promise.all(
    applicants.map(async (applicant) => {
      await sleep(Math.random() * VIEW_WINDOW_MS);
      for (;;) {
        const context = await get(origin, `/api/v1/partners/${institution.partnerId}/application`, applicant.cookie);
        const decision = await get(origin, `/api/v1/applications/${applicant.id}/decision`, applicant.cookie);
        for (const [kind, answer] of [
          ['context', context],
          ['decision', decision],
        ] as const) {
          byStatus[`${kind} ${answer.status}`] = (byStatus[`${kind} ${answer.status}`] ?? 0) + 1;
          times.push(answer.ms);
        }
        if (decision.status === 200) seenAfter.push(Date.now() - releaseAt);
        if (decision.status === 404) lastNotYet = Math.max(lastNotYet, Date.now() - releaseAt);
        if (decision.status !== 404 || Date.now() - windowStart > 5 * VIEW_WINDOW_MS) return;
        retries += 1;
        await sleep(RETRY_MS);
      }
    }),
  );
  const released = await db.$count(
    decisions,
    and(eq(decisions.partner_id, institution.partnerId), isNotNull(decisions.released_at)),
  );
  const sorted = [...times].sort((a, b) => a - b);
  async function passStart() {
    const [row] = await db
      .select({ at: sql<string>`min(${decisions.released_at})` })
      .from(decisions)
      .where(eq(decisions.partner_id, institution.partnerId));
    return row?.at ? Math.round((Date.parse(row.at) - releaseAt) / 100) / 10 : null;
  }
  const result = {
    when: new Date().toISOString(),
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model ?? 'unknown' },
    applicants: APPLICANTS,
    decisions: released,
    release_at: new Date(releaseAt).toISOString(),
    // When the release pass started after the set minute (released_at is the pass's moment).
    pass_started_after_s: await passStart(),
    // The last answer "no decision yet", this long after the minute: the release pass was still going.
    last_not_yet_after_s: Math.round(lastNotYet / 100) / 10,
    // The last applicant to see their decision saw it this long after the minute.
    last_seen_after_s: seenAfter.length ? Math.round(Math.max(...seenAfter) / 100) / 10 : null,
    requests: times.length,
    statuses: byStatus,
    retries_before_release: retries,
    p50_ms: Math.round(percentile(sorted, 50) * 10) / 10,
    p95_ms: Math.round(percentile(sorted, 95) * 10) / 10,
    p99_ms: Math.round(percentile(sorted, 99) * 10) / 10,
    max_ms: Math.round((sorted.at(-1) ?? 0) * 10) / 10,
    emails: mailSink.received(),
    api_rss_mb: memoryOf(api.pid!)?.rssMb ?? null,
    budget_p95_ms: BUDGET_P95_MS,
  };
  console.log(JSON.stringify(result, null, 2));
  const benchDir = path.dirname(fileURLToPath(import.meta.url));
  await mkdir(path.join(benchDir, 'results'), { recursive: true });
  await writeFile(path.join(benchDir, 'results', 'decision-release.json'), `${JSON.stringify(result, null, 2)}\n`);
  const within = result.p95_ms <= BUDGET_P95_MS && byStatus['decision 200'] === APPLICANTS;
  console.log(within ? 'decision release: within budget' : 'decision release: OVER BUDGET');
  process.exitCode = within ? 0 : 1;
} finally {
  if (api) await stopServer(api);
  await database.close();
  await onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await mailSink.close();
  await rm(scratch, { recursive: true, force: true });
}
