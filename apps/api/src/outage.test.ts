import { randomUUID } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import pg from 'pg';
import WebSocket from 'ws';
import type { RealtimeEvent } from '@kaminuza/shared';
import { openDatabase, type Database } from './db/client.ts';
import { applications, devMailbox, emailOutbox, students, waitlist } from './db/schema/index.ts';
import { publish } from './lib/realtime.ts';
import { applicantsWithDrafts, deadlineAnswers, seedDeadlineInstitution, type Applicant } from './test/deadline.ts';
import { postgresBinaries, startPostgresCluster, type PostgresCluster } from './test/postgres-cluster.ts';
import { freePort, startServerProcess, stopServerProcess } from './test/server-process.ts';

/*
 * PostgreSQL stops under load (a restart: `pg_ctl stop -m fast`; a crash: `-m immediate`) while the api
 * runs as in production, in a process of its own. Meanwhile every request must answer 503 with
 * Retry-After within 2 s (never hang, never a refused connection), /health stays 200 and /ready 503, and
 * the process stays up. When PostgreSQL is back the api must serve again by itself within 5 s: requests,
 * realtime (it listens again) and the email worker. No write the api acknowledged may be missing.
 *
 * Stopping the shared test server would break every other test file, so this one starts a cluster of its
 * own: it runs where the PostgreSQL server programs are installed (as in CI).
 */
const bin = postgresBinaries();
const APPLICANTS = 6;
const OUTAGE_MS = 3_000;
const ANSWER_WITHIN_MS = 2_000;
const RECOVER_WITHIN_MS = 5_000;

type Status = number | 'refused' | 'timeout' | 'failed';

interface Outcome {
  route: string;
  started: number;
  ms: number;
  status: Status;
  retryAfter: string | null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A WebSocket of a signed-in tab, keeping every event it receives. */
function openSocket(origin: string, cookie: string) {
  const events: RealtimeEvent[] = [];
  const socket = new WebSocket(`${origin.replace('http', 'ws')}/api/v1/realtime`, { headers: { cookie, origin } });
  socket.on('message', (data) => events.push(JSON.parse(String(data)) as RealtimeEvent));
  const opened = new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.once('unexpected-response', (_request, response) => reject(new Error(`HTTP ${response.statusCode}`)));
    socket.once('open', () => resolve());
  });
  return { socket, events, opened };
}

async function waitFor(what: string, check: () => boolean | Promise<boolean>, withinMs: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < withinMs) {
    if (await check()) return Date.now();
    await sleep(25);
  }
  throw new Error(`${what}: not within ${withinMs} ms`);
}

describe.skipIf(!bin)('the api through a PostgreSQL outage (needs the PostgreSQL server programs)', () => {
  let cluster: PostgresCluster | undefined;
  let server: ChildProcess | undefined;
  let database: Database | undefined;

  afterAll(async () => {
    if (server) await stopServerProcess(server, 'SIGKILL');
    await database?.close();
    await cluster?.destroy();
  });

  it('answers 503 with Retry-After while the database is down, stays up, and serves again within 5 s of its return', async () => {
    cluster = await startPostgresCluster(bin!);
    const port = await freePort();
    const origin = `http://localhost:${port}`;
    server = await startServerProcess(port, {
      DATABASE_URL: cluster.url,
      PUBLIC_URL: origin,
      NODE_ENV: 'test',
      MAILBOX: 'on',
      // Each failed request of an outage is logged; the test's own output is what matters here.
      LOG_LEVEL: 'error',
    });
    const child = server;
    database = await openDatabase({ kind: 'postgres', url: cluster.url, poolSize: 2 });
    const { db } = database;
    const institution = await seedDeadlineInstitution(db);
    const applicants = await applicantsWithDrafts(db, origin, institution, APPLICANTS);

    const outcomes: Outcome[] = [];
    async function call(route: string, path: string, init: RequestInit = {}) {
      const started = Date.now();
      let status: Status;
      let retryAfter: string | null = null;
      let body: unknown = null;
      try {
        const response = await fetch(`${origin}${path}`, { ...init, signal: AbortSignal.timeout(10_000) });
        status = response.status;
        retryAfter = response.headers.get('retry-after');
        body = await response.json().catch(() => null);
      } catch (error) {
        const cause = (error as { cause?: { code?: string } }).cause;
        status =
          cause?.code === 'ECONNREFUSED' ? 'refused' : (error as Error).name === 'TimeoutError' ? 'timeout' : 'failed';
      }
      outcomes.push({ route, started, ms: Date.now() - started, status, retryAfter });
      return { status, body: body as { data?: { version?: number } } | null };
    }

    // The load: applicants autosaving their drafts one save after another, sign-ups to the waitlist, and
    // catalogue searches. Every 2xx of a write is remembered, to be found in the database at the end.
    const savedVersion = new Map<string, number>();
    const joined = new Set<string>();
    let loading = true;
    const json = (cookie: string | null, method: string, body: unknown): RequestInit => ({
      method,
      headers: { ...(cookie ? { cookie } : {}), origin, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const autosave = async (applicant: Applicant) => {
      for (let step = 1; loading; step += 1) {
        const body = {
          version: applicant.version,
          answers: deadlineAnswers(step),
          current_step: 0,
          current_section_index: 0,
        };
        const saved = await call(
          'autosave',
          `/api/v1/applications/${applicant.id}`,
          json(applicant.cookie, 'PATCH', body),
        );
        if (saved.status === 200 && saved.body?.data?.version) {
          applicant.version = saved.body.data.version;
          savedVersion.set(applicant.id, applicant.version);
        } else if (saved.status === 409) {
          // A save answered 503 may still have committed: the draft is read again, as the web app would.
          const read = await call('draft', `/api/v1/applications/${applicant.id}`, {
            headers: { cookie: applicant.cookie },
          });
          if (read.status === 200 && read.body?.data?.version) applicant.version = read.body.data.version;
        } else await sleep(50);
      }
    };
    const signUps = async (worker: number) => {
      for (let n = 0; loading; n += 1) {
        const email = `outage-${worker}-${n}@waitlist.kaminuza.example`;
        const answer = await call('waitlist', '/api/v1/waitlist', json(null, 'POST', { email }));
        if (answer.status === 201 || answer.status === 200) joined.add(email);
        else await sleep(50);
      }
    };
    const searches = async () => {
      while (loading) {
        const answer = await call('search', '/api/v1/catalogue/universities?q=university', {
          headers: { cookie: applicants[0]!.cookie },
        });
        if (answer.status !== 200) await sleep(50);
      }
    };
    const load = Promise.all([...applicants.map(autosave), signUps(0), signUps(1), searches()]);

    // A signed-in tab with the realtime socket open from before the first outage to after the last.
    const [owner] = await db
      .select({ user_id: students.user_id })
      .from(applications)
      .innerJoin(students, eq(students.id, applications.student_id))
      .where(eq(applications.id, applicants[0]!.id));
    const tab = openSocket(origin, applicants[0]!.cookie);
    await tab.opened;
    await waitFor('the first ready event', () => tab.events.some((event) => event.type === 'ready'), 5_000);

    const databaseBackedOk = async () =>
      (
        await fetch(`${origin}/api/v1/applications/${applicants[1]!.id}`, {
          headers: { cookie: applicants[1]!.cookie },
        })
      ).status === 200;
    const accepting = async () => {
      const client = new pg.Client({ connectionString: cluster!.url, connectionTimeoutMillis: 1_000 });
      client.on('error', () => undefined);
      try {
        await client.connect();
        await client.query('select 1');
        return true;
      } catch {
        return false;
      } finally {
        await client.end().catch(() => undefined);
      }
    };

    await sleep(1_500);
    const beforeOutages = outcomes.length;
    expect(savedVersion.size, 'autosaves acknowledged before the outage').toBeGreaterThan(0);

    const recoveries: Record<string, number> = {};
    for (const mode of ['fast', 'immediate'] as const) {
      const readyEventsBefore = tab.events.filter((event) => event.type === 'ready').length;
      await cluster.stop(mode);
      const down = Date.now();
      await sleep(OUTAGE_MS / 2);
      const health = await fetch(`${origin}/health`);
      const ready = await fetch(`${origin}/ready`);
      expect(health.status, `/health during the ${mode} outage`).toBe(200);
      expect(ready.status, `/ready during the ${mode} outage`).toBe(503);
      expect(ready.headers.get('retry-after')).toMatch(/^\d+$/);
      await sleep(OUTAGE_MS / 2);
      expect(child.exitCode, `api process after the ${mode} stop`).toBeNull();
      expect(child.signalCode).toBeNull();

      // Everything sent while the server was down was answered 503, with Retry-After, within 2 s.
      const whileDown = outcomes.filter(
        (outcome) => outcome.started >= down && outcome.started + outcome.ms <= Date.now(),
      );
      expect(whileDown.length, `requests during the ${mode} outage`).toBeGreaterThan(20);
      for (const outcome of whileDown) {
        expect(outcome, `${outcome.route} during the ${mode} outage`).toMatchObject({ status: 503, retryAfter: '5' });
        expect(outcome.ms, `${outcome.route} during the ${mode} outage`).toBeLessThanOrEqual(ANSWER_WITHIN_MS);
      }

      // Back: from the moment it accepts connections to the api's first 200 on a route that reads it.
      const starting = cluster.start();
      const [dbBack, apiBack] = await Promise.all([
        waitFor('PostgreSQL accepting connections', accepting, 30_000),
        waitFor('the api serving again', databaseBackedOk, 30_000),
      ]);
      await starting;
      recoveries[mode] = Math.max(0, apiBack - dbBack);
      console.log(`outage (pg_ctl stop -m ${mode}): database back to the api's first 200: ${recoveries[mode]} ms`);
      expect(recoveries[mode]).toBeLessThanOrEqual(RECOVER_WITHIN_MS);

      // Realtime listens again: the tab is told to refetch, and an event published now reaches it.
      await waitFor(
        'realtime listening again (a second ready)',
        () => tab.events.filter((event) => event.type === 'ready').length > readyEventsBefore,
        RECOVER_WITHIN_MS,
      );
      const marker = randomUUID();
      await publish(db, { users: [owner!.user_id] }, { type: 'notification', id: marker });
      await waitFor(
        'an event published after the restart',
        () => tab.events.some((event) => event.type === 'notification' && event.id === marker),
        RECOVER_WITHIN_MS,
      );

      // The email worker runs again: a message queued now is delivered (to the dev mailbox).
      const to = `after-${mode}-${randomUUID()}@kaminuza.example`;
      await db
        .insert(emailOutbox)
        .values({ to, from: 'info', template: 'outage_check', subject: 'Outage check', html: '<p>ok</p>', text: 'ok' });
      await waitFor(
        'an email queued after the restart delivered',
        async () => (await db.select().from(devMailbox).where(eq(devMailbox.to, to))).length === 1,
        RECOVER_WITHIN_MS,
      );
      await sleep(1_000);
    }
    loading = false;
    await load;
    tab.socket.close();

    // Nothing was refused, timed out or failed otherwise; no answer but the expected ones.
    const statuses = new Set(outcomes.map((outcome) => outcome.status));
    for (const status of statuses) expect([200, 201, 409, 503]).toContain(status);
    expect(outcomes.slice(0, beforeOutages).every((outcome) => outcome.status === 200 || outcome.status === 201)).toBe(
      true,
    );
    expect(child.exitCode).toBeNull();

    // Every acknowledged write is there: each draft at least at the version last acknowledged, each sign-up.
    const drafts = await db
      .select({ id: applications.id, version: applications.version })
      .from(applications)
      .where(inArray(applications.id, [...savedVersion.keys()]));
    for (const [id, version] of savedVersion) {
      expect(drafts.find((draft) => draft.id === id)?.version, `draft ${id}`).toBeGreaterThanOrEqual(version);
    }
    const emails = [...joined];
    const stored = await db.select({ email: waitlist.email }).from(waitlist).where(inArray(waitlist.email, emails));
    expect(stored.map((row) => row.email).sort()).toEqual(emails.sort());
    console.log(
      `outage test: ${outcomes.length} requests, ${outcomes.filter((o) => o.status === 503).length} answered 503, ${joined.size} sign-ups and ${savedVersion.size} drafts acknowledged`,
    );
  }, 90_000);
});
