import type { ChildProcess } from 'node:child_process';
import { eq, isNull } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { applications, emailOutbox, students } from './db/schema/index.ts';
import { createTestDatabase } from './test/database.ts';
import {
  applicantsWithDrafts,
  deadlineAnswers,
  payFees,
  seedDeadlineInstitution,
  type Applicant,
} from './test/deadline.ts';
import { startMailSink, type MailSink } from './test/mail-sink.ts';
import { freePort, startServerProcess, stopServerProcess } from './test/server-process.ts';

/*
 * BACKGROUND_JOBS=false: an instance behind the proxy serves requests and leaves the jobs they cause (the
 * receipt email of a submission) to an instance that works the queue. Two api processes on one
 * PostgreSQL (TEST_DATABASE_URL, as in CI) and a mail server outside both.
 */
const withoutPostgres = !process.env.TEST_DATABASE_URL;
if (withoutPostgres && process.env.CI) {
  describe('background jobs on an instance of their own', () => {
    it('runs under CI, where PostgreSQL is provided', () => {
      expect.fail('TEST_DATABASE_URL is not set under CI: server.jobs.test.ts needs PostgreSQL.');
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(withoutPostgres)('background jobs on an instance of their own', () => {
  const servers: ChildProcess[] = [];
  let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  let sink: MailSink | undefined;

  afterAll(async () => {
    for (const server of servers) await stopServerProcess(server);
    await sink?.close();
    await database?.close();
  });

  it('an instance with BACKGROUND_JOBS=false sends no email itself; one that works the queue sends it', async () => {
    database = await createTestDatabase();
    const { db, url } = database;
    sink = await startMailSink();
    const [webPort, workerPort] = [await freePort(), await freePort()];
    const origin = `http://localhost:${webPort}`;
    const env = { DATABASE_URL: url!, PUBLIC_URL: origin, NODE_ENV: 'development', SMTP_URL: sink.url };
    const institution = await seedDeadlineInstitution(db);
    const web = await startServerProcess(webPort, { ...env, BACKGROUND_JOBS: 'false' });
    servers.push(web);
    const worker = await startServerProcess(workerPort, { ...env, BACKGROUND_JOBS: 'true' });
    servers.push(worker);
    const [first, second] = await applicantsWithDrafts(db, origin, institution, 2);
    await payFees(db, institution.partnerId, [first!.id, second!.id]);
    const submit = async (applicant: Applicant) => {
      const response = await fetch(`${origin}/api/v1/applications/${applicant.id}/submit`, {
        method: 'POST',
        headers: { cookie: applicant.cookie, origin, 'content-type': 'application/json' },
        body: JSON.stringify({ version: applicant.version, answers: deadlineAnswers(10) }),
      });
      expect(response.status).toBe(201);
    };
    const emailOf = async (applicant: Applicant) => {
      const [row] = await db
        .select({ email: students.email })
        .from(applications)
        .innerJoin(students, eq(students.id, applications.student_id))
        .where(eq(applications.id, applicant.id));
      return row!.email;
    };

    // Submitted through the instance without jobs: the worker relays and delivers the receipt.
    await submit(first!);
    for (let waited = 0; sink.received() === 0 && waited < 20_000; waited += 100) await sleep(100);
    expect(sink.recipients()).toEqual([[await emailOf(first!)]]);

    // Without the worker, the receipt waits in the outbox: the web instance neither relays nor delivers it.
    await stopServerProcess(worker);
    await submit(second!);
    await sleep(4_000);
    expect(sink.received()).toBe(1);
    const waiting = await db.select({ to: emailOutbox.to }).from(emailOutbox).where(isNull(emailOutbox.queued_at));
    expect(waiting).toEqual([{ to: await emailOf(second!) }]);
  }, 120_000);
});
