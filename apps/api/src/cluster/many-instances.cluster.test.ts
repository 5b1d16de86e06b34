import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { like, sql } from 'drizzle-orm';
import WebSocket from 'ws';
import { IDEMPOTENCY_KEY_HEADER, type RealtimeEvent } from '@kaminuza/shared';
import { partners, rateLimits } from '../db/schema/index.ts';
import { createVerifiedAccount } from '../modules/auth/accounts.ts';
import { hashPassword } from '../modules/auth/password.ts';
import { cookieHeader, TEST_PASSWORD } from '../test/auth.ts';
import {
  applicantsWithDrafts,
  deadlineAnswers,
  duplicatedSubmissions,
  halfWrittenApplications,
  payFees,
  seedDeadlineInstitution,
  storedSubmissions,
  type Applicant,
} from '../test/deadline.ts';
import { startCluster, type Cluster, type Instance } from './cluster.ts';
import { missingS3ServerPrograms, S3_SERVER_PACKAGES, startS3Server, type S3Server } from '../test/s3-server.ts';
import { clusterPrerequisites } from './prerequisites.ts';
import { expectUploadResumedOnTheOtherInstance } from './uploads.ts';

/*
 * Many instances, proven (issue 21): PostgreSQL, two api instances in processes of their own and nginx as
 * a round-robin proxy in front. Every request below goes through the proxy, as a browser's would; nginx
 * names the instance that answered (X-Upstream), and the proofs check that both took part.
 * Stored files and uploads in progress are in a bucket of a local S3 server (radosgw, test/s3-server.ts);
 * the instances keep DATA_DIRs of their own, so only the shared store lets an upload resume elsewhere.
 */
const missing = [
  ...clusterPrerequisites().missing,
  ...(missingS3ServerPrograms().length > 0 ? S3_SERVER_PACKAGES : []),
];

if (missing.length > 0) {
  const why =
    `many-instances test SKIPPED: it needs ${missing.join(' and ')} installed ` +
    '(`apt-get install -y nginx postgresql`; `npm test` installs them when run as root).';
  if (process.env.CI) {
    describe('many api instances behind nginx', () => {
      it('runs under CI, where nginx and PostgreSQL are installed', () => {
        expect.fail(why);
      });
    });
  } else {
    console.warn(`\n\u26a0 ${why}\n`);
  }
}

const APPLICANTS = 60;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(missing.length > 0)('many api instances behind nginx', () => {
  let cluster: Cluster;
  let passwordHash: string;
  let bootedAt: Date;
  let s3: S3Server;

  beforeAll(async () => {
    const started = Date.now();
    [s3, passwordHash] = await Promise.all([startS3Server(), hashPassword(TEST_PASSWORD)]);
    cluster = await startCluster({ instances: 2, env: s3.env });
    bootedAt = new Date();
    console.log(
      `cluster up in ${((Date.now() - started) / 1000).toFixed(1)} s (S3 server ${(s3.startedInMs / 1000).toFixed(1)} s): nginx at ${cluster.proxy.url}`,
    );
  });

  afterAll(async () => {
    await cluster?.destroy();
    await s3?.stop();
  });

  /** Prints every log of the cluster under a failed test. */
  function reportLogsOnFailure() {
    onTestFailed(() => {
      console.error(`\nLogs of the cluster (${cluster.dir}):\n${cluster.logs()}`);
    });
  }

  const db = () => cluster.database.db;

  /** A request through the proxy, as a page of the site would send it. */
  async function call(path: string, init: { method?: string; cookie?: string; body?: unknown } = {}) {
    const headers: Record<string, string> = { origin: cluster.proxy.url };
    if (init.cookie) headers.cookie = init.cookie;
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${cluster.proxy.url}${path}`, {
      method: init.method ?? 'GET',
      headers,
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    });
    const body = (await response.json().catch(() => null)) as { data?: Record<string, unknown> } | null;
    return { response, status: response.status, body, instance: cluster.answeredBy(response) };
  }

  /** A listed institution (approved and published), so students may message it. */
  async function institution(): Promise<string> {
    const [partner] = await db()
      .insert(partners)
      .values({
        slug: `cluster-university-${randomBytes(3).toString('hex')}`,
        name: 'Cluster University',
        status: 'approved',
        published: true,
        address_city: 'Kigali',
        address_country: 'RW',
        institution_type: 'public',
        year_established: 1990,
        region: 'africa',
        size: 'medium',
        setting: 'urban',
      })
      .returning({ id: partners.id });
    return partner!.id;
  }

  /** A verified account with TEST_PASSWORD, created in the database (nobody signs up here). */
  async function account(type: 'student' | 'staff', partnerId?: string) {
    const email = `${type}-${randomBytes(5).toString('hex')}@cluster.kaminuza.example`;
    const user = await createVerifiedAccount(db(), {
      type,
      email,
      passwordHash,
      firstName: 'Cluster',
      lastName: type === 'student' ? 'Student' : 'Staff',
      ...(partnerId ? { partnerId } : {}),
    });
    return { id: user!.id, email };
  }

  async function signIn(email: string) {
    const result = await call('/api/v1/auth/sign-in', { method: 'POST', body: { email, password: TEST_PASSWORD } });
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    return { ...result, cookie: cookieHeader(result.response.headers.getSetCookie()) };
  }

  /** Sends requests through the proxy until every instance has answered one; returns the answers. */
  async function untilEveryInstanceAnswers<T extends { instance: Instance | undefined }>(send: () => Promise<T>) {
    const answers: T[] = [];
    for (let attempt = 0; attempt < 8; attempt++) {
      answers.push(await send());
      if (cluster.instances.every((instance) => answers.some((answer) => answer.instance === instance))) break;
    }
    return answers;
  }

  it('keeps a session signed in on one instance valid on the other, and a sign-out ends it on both', async () => {
    reportLogsOnFailure();
    const student = await account('student');
    const { cookie, instance: signedInOn } = await signIn(student.email);
    expect(signedInOn).toBeDefined();

    // Through the proxy, round robin: each instance in turn answers with the same person.
    const answers = await untilEveryInstanceAnswers(() => call('/api/v1/auth/session', { cookie }));
    expect(new Set(answers.map((answer) => answer.instance))).toEqual(new Set(cluster.instances));
    for (const answer of answers) expect(answer.body?.data?.id).toBe(student.id);
    // And asked directly, bypassing the proxy.
    for (const instance of cluster.instances) {
      const response = await fetch(`${instance.url}/api/v1/auth/session`, { headers: { cookie } });
      expect(((await response.json()) as { data: { id: string } | null }).data?.id, instance.url).toBe(student.id);
    }

    // The session lives in the shared database, not in a cookie either instance could trust alone.
    const signOut = await call('/api/v1/auth/sign-out', { method: 'POST', cookie, body: {} });
    expect(signOut.status).toBe(200);
    for (const instance of cluster.instances) {
      const response = await fetch(`${instance.url}/api/v1/auth/session`, { headers: { cookie } });
      expect(((await response.json()) as { data: unknown }).data, instance.url).toBeNull();
    }
  });

  it('delivers a chat message sent through one instance to WebSockets held by either', async () => {
    reportLogsOnFailure();
    const partnerId = await institution();
    const staffMember = await account('staff', partnerId);
    const student = await account('student');
    const [staffSession, studentSession] = [await signIn(staffMember.email), await signIn(student.email)];

    // The staff member's tabs: sockets through the proxy until one is held by each instance.
    const sockets: { socket: WebSocket; events: RealtimeEvent[]; instance: Instance | undefined }[] = [];
    try {
      for (let attempt = 0; attempt < 8; attempt++) {
        const events: RealtimeEvent[] = [];
        const socket = new WebSocket(`${cluster.proxy.url.replace('http', 'ws')}/api/v1/realtime`, {
          headers: { cookie: staffSession.cookie, origin: cluster.proxy.url },
        });
        socket.on('message', (data) => events.push(JSON.parse(String(data)) as RealtimeEvent));
        const instance = await new Promise<Instance | undefined>((resolve, reject) => {
          let upstream: Instance | undefined;
          socket.once('upgrade', (response) => {
            upstream = cluster.answeredBy({ headers: { get: (name) => String(response.headers[name] ?? '') } });
          });
          socket.once('error', reject);
          socket.once('unexpected-response', (_request, response) => reject(new Error(`HTTP ${response.statusCode}`)));
          socket.once('open', () => resolve(upstream));
        });
        sockets.push({ socket, events, instance });
        if (cluster.instances.every((each) => sockets.some((held) => held.instance === each))) break;
      }
      expect(new Set(sockets.map((held) => held.instance))).toEqual(new Set(cluster.instances));
      // Each socket is registered and listening once it has said it is ready.
      for (const held of sockets) await waitFor(() => held.events.some((event) => event.type === 'ready'));

      const chat = await call('/api/v1/students/me/chats', {
        method: 'POST',
        cookie: studentSession.cookie,
        body: { partner_id: partnerId },
      });
      expect([200, 201]).toContain(chat.status);
      const chatId = chat.body!.data!.id as string;
      const sent = await call(`/api/v1/students/me/chats/${chatId}/messages`, {
        method: 'POST',
        cookie: studentSession.cookie,
        body: { body: 'Hello from one instance' },
      });
      expect(sent.status, JSON.stringify(sent.body)).toBe(201);
      expect(sent.instance).toBeDefined();

      // Every tab hears of it, the one held by the instance that did not take the message among them.
      const arrived = (held: (typeof sockets)[number]) =>
        held.events.some((event) => event.type === 'chat.message' && event.chat_id === chatId);
      await waitFor(() => sockets.every(arrived));
      expect(sockets.some((held) => held.instance !== sent.instance && arrived(held))).toBe(true);
    } finally {
      for (const held of sockets) held.socket.terminate();
    }
  });

  it('counts sign-in attempts against one limit across both instances', async () => {
    reportLogsOnFailure();
    const student = await account('student');
    const ipCounter = async () => {
      const rows = await db()
        .select({ count: rateLimits.count })
        .from(rateLimits)
        .where(like(rateLimits.key, 'sign-in:ip:%'));
      expect(rows.length, 'one per-address counter: every request comes from nginx as 127.0.0.1').toBe(1);
      return rows[0]!.count;
    };
    const before = await ipCounter();

    // Ten wrong passwords, from a browser the account has never seen: both instances take some of them.
    const wrong = [];
    for (let attempt = 0; attempt < 10; attempt++) {
      wrong.push(
        await call('/api/v1/auth/sign-in', { method: 'POST', body: { email: student.email, password: 'Wrong#Pass1' } }),
      );
    }
    expect(wrong.map((answer) => answer.status)).toEqual(Array(10).fill(401));
    for (const instance of cluster.instances) {
      const taken = wrong.filter((answer) => answer.instance === instance).length;
      // Neither instance alone has seen enough to lock the account out.
      expect(taken, instance.url).toBeGreaterThan(0);
      expect(taken, instance.url).toBeLessThan(10);
    }

    // The next attempts are refused on both, even with the right password: the count was shared.
    const locked = await untilEveryInstanceAnswers(() =>
      call('/api/v1/auth/sign-in', { method: 'POST', body: { email: student.email, password: TEST_PASSWORD } }),
    );
    expect(new Set(locked.map((answer) => answer.instance))).toEqual(new Set(cluster.instances));
    for (const answer of locked) {
      expect(answer.status).toBe(429);
      expect(Number(answer.response.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // And the per-address counter went up once per request, whichever instance took it.
    expect(await ipCounter()).toBe(before + wrong.length + locked.length);
  });

  it('resumes an upload started on one instance on the other, and the stored file has the same sha256 (S3)', async () => {
    reportLogsOnFailure();
    const student = await account('student');
    const { cookie } = await signIn(student.email);
    await expectUploadResumedOnTheOtherInstance(cluster, { cookie, studentId: student.id });
  });

  it('runs a scheduled job exactly once across both instances (the job queue)', async () => {
    reportLogsOnFailure();
    // Both instances schedule the release of due decisions every minute; each minute makes one job, run
    // by one of them. Wait for an occurrence that started after both were up, and count that minute's jobs.
    const since = bootedAt;
    type Row = { id: string; state: string; created_on: Date; minute: Date };
    const jobs = async () =>
      (
        await db().execute<Row>(
          sql`select id, state, created_on, date_trunc('minute', created_on) as minute
                from pgboss.job where name = 'decisions.release-due' and created_on >= ${since.toISOString()}::timestamptz
               order by created_on`,
        )
      ).rows;
    await expect
      .poll(async () => (await jobs()).some((job) => job.state === 'completed'), { timeout: 75_000, interval: 500 })
      .toBe(true);
    const done = (await jobs()).find((job) => job.state === 'completed')!;
    const sameMinute = (await jobs()).filter(
      (job) => new Date(job.minute).getTime() === new Date(done.minute).getTime(),
    );
    expect(sameMinute.map((job) => job.id)).toEqual([done.id]);
  });

  it('loses no acknowledged submission when an instance is killed under load, and retries settle the rest', async () => {
    reportLogsOnFailure();
    const institutionIds = await seedDeadlineInstitution(db());
    const applicants = await applicantsWithDrafts(db(), cluster.proxy.url, institutionIds, APPLICANTS);
    await payFees(
      db(),
      institutionIds.partnerId,
      applicants.map((applicant) => applicant.id),
    );
    const keys = new Map(applicants.map((applicant) => [applicant.id, randomUUID()]));
    const submit = async (applicant: Applicant) => {
      const response = await fetch(`${cluster.proxy.url}/api/v1/applications/${applicant.id}/submit`, {
        method: 'POST',
        headers: {
          cookie: applicant.cookie,
          origin: cluster.proxy.url,
          'content-type': 'application/json',
          [IDEMPOTENCY_KEY_HEADER]: keys.get(applicant.id)!,
        },
        body: JSON.stringify({ version: applicant.version, answers: deadlineAnswers(10) }),
      });
      const body = (await response.json().catch(() => null)) as { data?: { reference: string } } | null;
      return {
        status: response.status,
        retryAfter: response.headers.get('retry-after'),
        reference: body?.data?.reference,
        instance: cluster.answeredBy(response),
      };
    };

    // Everyone submits at once through the proxy. The second instance is killed once both have
    // acknowledged some: the rest of its requests are cut (nginx answers 502, never resending a POST).
    const acknowledged = new Map<string, string>();
    const acknowledgedBy = new Set<Instance | undefined>();
    const failed: string[] = [];
    const victim = cluster.instances[1]!;
    let killed: Promise<void> | undefined;
    const inFlight = applicants.map((applicant) =>
      submit(applicant).then(
        ({ status, reference, instance }) => {
          if ((status === 201 || status === 200) && reference) {
            acknowledged.set(applicant.id, reference);
            acknowledgedBy.add(instance);
            if (!killed && cluster.instances.every((each) => acknowledgedBy.has(each))) killed = victim.stop('SIGKILL');
          } else failed.push(`${status}`);
        },
        (error: Error) => {
          failed.push(error.message);
        },
      ),
    );
    await Promise.all(inFlight);
    await killed;
    expect(acknowledgedBy).toEqual(new Set(cluster.instances));
    expect(failed.length, 'the kill landed while requests were in flight').toBeGreaterThan(0);

    // Whatever was acknowledged is stored, exactly once, with the reference the client was given.
    const afterKill = await storedSubmissions(db(), institutionIds.partnerId);
    for (const [id, reference] of acknowledged) expect(afterKill.get(id)).toBe(reference);
    expect(await halfWrittenApplications(db(), institutionIds.partnerId)).toBe(0);
    expect(await duplicatedSubmissions(db(), institutionIds.partnerId)).toBe(0);
    const committedUnanswered = [...afterKill.keys()].filter((id) => !acknowledged.has(id)).length;

    // The clients retry through the proxy with the same keys, and the survivor settles everyone.
    let waits = 0;
    for (const applicant of applicants) {
      let { status, retryAfter, reference, instance } = await submit(applicant);
      // The killed instance's transaction may hold the key until PostgreSQL notices its closed
      // connection: the answer is then 409 with Retry-After, and the client tries again after it.
      for (let retry = 0; status === 409 && retryAfter !== null && retry < 10; retry++) {
        waits += 1;
        await sleep(Number(retryAfter) * 1000);
        ({ status, retryAfter, reference, instance } = await submit(applicant));
      }
      expect([200, 201], applicant.id).toContain(status);
      // nginx finds the killed instance refusing connections and passes each request to the survivor.
      expect(instance).toBe(cluster.instances[0]);
      if (acknowledged.has(applicant.id)) expect(reference).toBe(acknowledged.get(applicant.id));
    }
    console.log(
      `killed instance ${victim.index + 1} mid-load: ${acknowledged.size} of ${APPLICANTS} submissions acknowledged, ` +
        `${failed.length} cut (${[...new Set(failed)].join(', ')}), of which ${committedUnanswered} committed before ` +
        `the kill (their retry got the same receipt); ${waits} retries waited for a key still held`,
    );
    const settled = await storedSubmissions(db(), institutionIds.partnerId);
    expect(settled.size).toBe(APPLICANTS);
    expect(await halfWrittenApplications(db(), institutionIds.partnerId)).toBe(0);
    expect(await duplicatedSubmissions(db(), institutionIds.partnerId)).toBe(0);
    expect(victim.running()).toBe(false);
  });
});

async function waitFor(check: () => boolean, withinMs = 5_000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not within ${withinMs} ms`);
    await sleep(20);
  }
}
