import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import { devMailbox, emailOutbox } from '../../db/schema/index.ts';
import { buildApp } from '../../app.ts';
import { createDevMailboxMailer, createSmtpMailer, type Mailer } from '../../lib/mailer.ts';
import { startJobQueue, QUEUE_SCHEMA } from '../../lib/jobs/queue.ts';
import { createTestApp, testEnv } from '../../test/app.ts';
import { createTestDatabase } from '../../test/database.ts';
import { storeDevMail } from './dev-mailbox.service.ts';
import { enqueueEmail, outboxEmail } from './email.service.ts';
import { EMAIL_SEND_JOB, MAX_ATTEMPTS, deliverEmail, emailJobs, emailRelay, openMailer } from './email.jobs.ts';

const silent = { info() {}, warn() {}, error() {} } as unknown as FastifyBaseLogger;
const senders = { info: 'Kaminuza <info@kaminuza.example>', no_reply: 'Kaminuza <no-reply@kaminuza.example>' };
const LINK = 'https://kaminuza.example/auth/verify-email?code=f00d';

let database: Database;
let mailbox: Mailer;
let app: Awaited<ReturnType<typeof createTestApp>>;

beforeAll(async () => {
  database = await createTestDatabase();
  mailbox = await createDevMailboxMailer(async (mail) => {
    await storeDevMail(database.db, mail);
  });
  app = await createTestApp(database);
});

afterAll(async () => {
  await app.close();
  await mailbox.close();
  await database.close();
});

async function outboxRow(id: string) {
  const [row] = await database.db.select().from(emailOutbox).where(eq(emailOutbox.id, id));
  if (!row) throw new Error(`outbox row ${id} is gone`);
  return row;
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** An api instance running the background jobs on the test database, delivering to the dev mailbox. */
function workingInstance() {
  return buildApp({ database, env: testEnv(), logger: false, mailer: mailbox, work: true });
}

async function jobsOf(id: string) {
  const { rows } = await database.db.execute<{ state: string }>(
    sql.raw(`select state from ${QUEUE_SCHEMA}.job where id = '${id}'`),
  );
  return rows;
}

const getMailbox = (url = '/api/v1/dev/mailbox') => app.inject({ method: 'GET', url });

describe('delivery through real SMTP to the dev mailbox, as jobs of the queue', () => {
  it('sends a message moments after its commit, marks it sent and shows it in the mailbox', async () => {
    const instance = await workingInstance();
    let newcomer = '';
    try {
      const id = await enqueueEmail(database.db, {
        to: 'newcomer@example.com',
        template: 'email_verification',
        data: { name: 'Ada', link: LINK, code: '250611', expires_in_minutes: 1440 },
      });
      newcomer = id;
      // The commit's NOTIFY has the listening instance create the job at once: no wait for the sweep.
      await expect.poll(async () => (await outboxRow(id)).status, { timeout: 5_000, interval: 25 }).toBe('sent');
      expect(await outboxRow(id)).toMatchObject({ status: 'sent', attempts: 1, last_error: null });
      expect((await outboxRow(id)).sent_at).not.toBeNull();
      expect((await outboxRow(id)).queued_at).not.toBeNull();
      // The job's id is the message's: one job per message.
      await expect.poll(async () => (await jobsOf(id)).map((job) => job.state)).toEqual(['completed']);
    } finally {
      await instance.close();
    }

    const list = await getMailbox();
    expect(list.statusCode).toBe(200);
    expect(list.headers['cache-control']).toBe('no-store');
    const [summary] = list.json().data;
    expect(summary).toEqual({
      id: expect.any(String),
      to: 'newcomer@example.com',
      from: '"Kaminuza" <no-reply@kaminuza.example>',
      subject: 'Verify your email address',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });

    const message = await getMailbox(`/api/v1/dev/mailbox/${summary.id}`);
    expect(message.statusCode).toBe(200);
    const { data } = message.json();
    expect(data.subject).toBe('Verify your email address');
    expect(data.text).toContain(LINK);
    expect(data.text).toContain('250611');
    expect(data.html).toContain('href="https://kaminuza.example/auth/verify-email?code=f00d"');
    expect(data.headers).toEqual(
      expect.arrayContaining([
        { name: 'Message-ID', value: `<${newcomer}@kaminuza.example>` },
        { name: 'Auto-Submitted', value: 'auto-generated' },
      ]),
    );
  });

  it('relays at start what was written while no instance listened, and the sweep finds what is left', async () => {
    // Written with no instance running (as before a deploy, or in a crash between commit and relay).
    const early = await enqueueEmail(database.db, { to: 'early@example.com', template: 'welcome' });
    expect((await outboxRow(early)).queued_at).toBeNull();
    expect(await jobsOf(early)).toEqual([]);
    const instance = await workingInstance();
    try {
      await expect.poll(async () => (await outboxRow(early)).status, { timeout: 5_000, interval: 25 }).toBe('sent');
    } finally {
      await instance.close();
    }

    // The relay itself: a row gets one job however many times it is relayed.
    const late = await enqueueEmail(database.db, { to: 'late@example.com', template: 'welcome' });
    const queue = await startJobQueue({
      backend: database.connection,
      definitions: emailJobs({ db: database.db, mailer: mailbox, senders }),
      log: silent,
      work: false,
    });
    try {
      const relay = emailRelay(database.db);
      expect(await relay.run(queue, 100)).toBe(1);
      await database.db.update(emailOutbox).set({ queued_at: null }).where(eq(emailOutbox.id, late));
      expect(await relay.run(queue, 100)).toBe(1);
      expect(await relay.run(queue, 100)).toBe(0);
      expect(await jobsOf(late)).toEqual([{ state: 'created' }]);
    } finally {
      await queue.stop();
    }
  });

  it('lets two instances share the outbox without sending anything twice', async () => {
    const instances = await Promise.all([workingInstance(), workingInstance()]);
    try {
      const recipients = Array.from({ length: 24 }, (_, index) => `shared-${index}@example.com`);
      for (const to of recipients) await enqueueEmail(database.db, { to, template: 'welcome' });
      const delivered = () =>
        database.db
          .select({ to: devMailbox.to })
          .from(devMailbox)
          .where(inArray(devMailbox.to, recipients))
          .then((rows) => rows.map(({ to }) => to).sort());
      await expect.poll(delivered, { timeout: 10_000, interval: 50 }).toEqual([...recipients].sort());
      // Still once each a moment later: no second delivery was on its way.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await delivered()).toEqual([...recipients].sort());
    } finally {
      await Promise.all(instances.map((instance) => instance.close()));
    }
  });

  it('opens the dev mailbox transport from the default env, and SMTP from SMTP_URL', async () => {
    const dev = await openMailer({ env: testEnv(), db: database.db });
    expect(dev?.kind).toBe('dev-mailbox');
    await dev?.close();
    const smtp = await openMailer({ env: testEnv({ SMTP_URL: 'smtp://mail.example:587' }), db: database.db });
    expect(smtp?.kind).toBe('smtp');
    await smtp?.close();
    expect(await openMailer({ env: testEnv({ MAILBOX: 'off' }), db: database.db })).toBeNull();
  });
});

describe('a transport failure', () => {
  it('is recorded on the message and thrown for the queue to retry; the last attempt marks it failed', async () => {
    const broken = createSmtpMailer(`smtp://127.0.0.1:${await closedPort()}`);
    const deps = { db: database.db, mailer: broken, senders };
    try {
      const id = await enqueueEmail(database.db, { to: 'unlucky@example.com', template: 'welcome' });
      await expect(deliverEmail(deps, id, { lastAttempt: false, log: silent })).rejects.toThrow(
        /ECONNREFUSED|connect/i,
      );
      expect(await outboxRow(id)).toMatchObject({ status: 'pending', attempts: 1 });
      expect((await outboxRow(id)).last_error).toMatch(/ECONNREFUSED|connect/i);
      await expect(deliverEmail(deps, id, { lastAttempt: true, log: silent })).rejects.toThrow();
      expect(await outboxRow(id)).toMatchObject({ status: 'failed', attempts: 2, sent_at: null });

      // An admin's retry later, once the transport works: delivered, never lost.
      expect(await deliverEmail({ ...deps, mailer: mailbox }, id, { lastAttempt: true, log: silent })).toBe('sent');
      expect(await outboxRow(id)).toMatchObject({ status: 'sent', attempts: 3, last_error: null });
    } finally {
      await broken.close();
    }
  });

  it('renders a message written unrendered at its delivery, keeps what was sent, and fails one that cannot render', async () => {
    const deps = { db: database.db, mailer: mailbox, senders };
    const row = outboxEmail({
      to: 'late-render@example.com',
      template: 'submission_receipt',
      language: 'fr',
      data: {
        name: 'Aline',
        institution_name: 'Test University',
        reference: 'KZ-ABCD-EFGH',
        submitted_on: '2026-11-27',
      },
    });
    const [written] = await database.db.insert(emailOutbox).values(row).returning({ id: emailOutbox.id });
    expect(await outboxRow(written!.id)).toMatchObject({ subject: null, html: null, text: null });
    expect(await deliverEmail(deps, written!.id, { lastAttempt: false, log: silent })).toBe('sent');
    const sent = await outboxRow(written!.id);
    expect(sent.status).toBe('sent');
    expect(sent.subject).toContain('Test University');
    expect(sent.text).toContain('KZ-ABCD-EFGH');
    const [copy] = await database.db.select().from(devMailbox).where(eq(devMailbox.to, 'late-render@example.com'));
    expect(copy!.subject).toBe(sent.subject);

    // Data that no longer renders (a link that is not one) is a failed attempt, recorded and retried.
    const [broken] = await database.db
      .insert(emailOutbox)
      .values({ ...row, to: 'never-renders@example.com', data: { link: 'not a link' } })
      .returning({ id: emailOutbox.id });
    await expect(deliverEmail(deps, broken!.id, { lastAttempt: false, log: silent })).rejects.toThrow();
    expect(await outboxRow(broken!.id)).toMatchObject({ status: 'pending', attempts: 1, subject: null });
  });

  it('a retried job whose message already went out sends nothing again', async () => {
    const id = await enqueueEmail(database.db, { to: 'once@example.com', template: 'welcome' });
    const deps = { db: database.db, mailer: mailbox, senders };
    expect(await deliverEmail(deps, id, { lastAttempt: false, log: silent })).toBe('sent');
    expect(await deliverEmail(deps, id, { lastAttempt: false, log: silent })).toBe('already_sent');
    const copies = await database.db.select().from(devMailbox).where(eq(devMailbox.to, 'once@example.com'));
    expect(copies).toHaveLength(1);
    expect(await deliverEmail(deps, '00000000-0000-4000-8000-000000000000', { lastAttempt: false, log: silent })).toBe(
      'missing',
    );
  });

  it('is retried with backoff for hours before the job is kept as failed', async () => {
    const queue = await startJobQueue({
      backend: database.connection,
      definitions: emailJobs({ db: database.db, mailer: mailbox, senders }),
      log: silent,
      work: false,
    });
    await queue.stop();
    const { rows } = await database.db.execute<Record<string, unknown>>(
      sql.raw(
        `select retry_limit, retry_delay, retry_backoff, retry_delay_max from ${QUEUE_SCHEMA}.queue where name = '${EMAIL_SEND_JOB}'`,
      ),
    );
    expect(rows[0]).toEqual({
      retry_limit: MAX_ATTEMPTS - 1,
      retry_delay: 30,
      retry_backoff: true,
      retry_delay_max: 3600,
    });
  });
});

describe('dev mailbox routes', () => {
  it('validates the id and answers 404 for an unknown message', async () => {
    const invalid = await getMailbox('/api/v1/dev/mailbox/not-a-uuid');
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().error).toMatchObject({
      status: 'INVALID_ARGUMENT',
      message: 'Please check your input and try again.',
    });
    const unknown = await getMailbox('/api/v1/dev/mailbox/00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: { status: 'NOT_FOUND', message: 'Not found' } });
  });

  it("serves a message's HTML under a policy of its own, which allows its inline styles and no script", async () => {
    const mail = { envelopeTo: ['styled@example.com'], messageId: null, from: senders.info, to: 'styled@example.com' };
    const html = '<!doctype html><html><body><p style="color:#0f5e4d">Murakaza neza</p></body></html>';
    const id = await storeDevMail(database.db, {
      ...mail,
      subject: 'Styled',
      html,
      text: 'Murakaza neza',
      headers: [],
    });
    const response = await getMailbox(`/api/v1/dev/mailbox/${id}/html`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toBe(html);
    const policy = String(response.headers['content-security-policy']);
    expect(policy.split('; ')).toEqual(
      expect.arrayContaining(["default-src 'none'", "style-src 'unsafe-inline'", "frame-ancestors 'self'", 'sandbox']),
    );
    expect(policy).not.toContain('script-src');
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(response.headers['cache-control']).toBe('no-store');

    // A message without an HTML part, an unknown one and a malformed id have no such document.
    const plain = await storeDevMail(database.db, { ...mail, subject: 'Plain', html: null, text: 'x', headers: [] });
    expect((await getMailbox(`/api/v1/dev/mailbox/${plain}/html`)).statusCode).toBe(404);
    expect((await getMailbox('/api/v1/dev/mailbox/00000000-0000-4000-8000-000000000000/html')).statusCode).toBe(404);
    expect((await getMailbox('/api/v1/dev/mailbox/not-a-uuid/html')).statusCode).toBe(400);
  });

  it.each([
    [
      'in production',
      {
        NODE_ENV: 'production',
        AUTH_SECRET: 'p'.repeat(32),
        PAYMENTS_WEBHOOK_SECRET: 'w'.repeat(32),
        PAYMENTS_PROVIDER: 'sandbox',
      },
    ],
    ['with MAILBOX=off', { MAILBOX: 'off' }],
    ['when SMTP_URL is set', { SMTP_URL: 'smtp://mail.example:587' }],
  ])('do not exist %s', async (_label, overrides) => {
    const other = await createTestApp(database, testEnv(overrides));
    try {
      for (const url of [
        '/api/v1/dev/mailbox',
        '/api/v1/dev/mailbox/00000000-0000-4000-8000-000000000000',
        '/api/v1/dev/mailbox/00000000-0000-4000-8000-000000000000/html',
      ]) {
        const response = await other.inject({ method: 'GET', url });
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ error: { status: 'NOT_FOUND', message: 'Not found' } });
      }
    } finally {
      await other.close();
    }
  });
});

describe('the dev mailbox SMTP server', () => {
  it('refuses a message it cannot store, so the sender keeps it for a retry', async () => {
    const failing = await createDevMailboxMailer(async () => {
      throw new Error('disk full');
    });
    try {
      await expect(
        failing.send({ from: senders.info, to: 'x@example.com', subject: 's', text: 't', html: '<p>t</p>' }),
      ).rejects.toThrow();
    } finally {
      await failing.close();
    }
  });

  it('sends no mail without a transport: messages wait in the outbox, without jobs', async () => {
    const instance = await buildApp({ database, env: testEnv({ MAILBOX: 'off' }), logger: false, work: true });
    try {
      const id = await enqueueEmail(database.db, { to: 'waiting@example.com', template: 'welcome' });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await outboxRow(id)).toMatchObject({ status: 'pending', queued_at: null });
      expect(await jobsOf(id)).toEqual([]);
    } finally {
      await instance.close();
    }
  });
});
