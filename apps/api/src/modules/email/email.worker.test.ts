import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import { devMailbox, emailOutbox } from '../../db/schema/index.ts';
import { createDevMailboxMailer, type Mailer } from '../../lib/mailer.ts';
import { createTestApp, testEnv } from '../../test/app.ts';
import { createTestDatabase } from '../../test/database.ts';
import { storeDevMail } from './dev-mailbox.service.ts';
import { enqueueEmail } from './email.service.ts';
import { MAX_ATTEMPTS, flushEmailOutbox, retryDelayMs, startEmailDelivery, startEmailWorker } from './email.worker.ts';

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

/** Seconds from now until the row is due again. */
async function dueInSeconds(id: string): Promise<number> {
  const [row] = await database.db
    .select({ seconds: sql<number>`extract(epoch from (${emailOutbox.next_attempt_at} - now()))::float8` })
    .from(emailOutbox)
    .where(eq(emailOutbox.id, id));
  return Number(row?.seconds);
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const getMailbox = (url = '/api/v1/dev/mailbox') => app.inject({ method: 'GET', url });

describe('delivery through real SMTP to the dev mailbox', () => {
  it('sends an enqueued message, marks it sent and shows it in the mailbox', async () => {
    const id = await enqueueEmail(database.db, {
      to: 'newcomer@example.com',
      template: 'email_verification',
      data: { name: 'Ada', link: LINK, code: '250611', expires_in_minutes: 1440 },
    });
    const worker = startEmailWorker({ db: database.db, mailer: mailbox, log: silent, senders, intervalMs: 0 });
    try {
      expect(await worker.drain()).toEqual({ sent: 1, retried: 0, failed: 0 });
    } finally {
      await worker.stop();
    }
    expect(await outboxRow(id)).toMatchObject({ status: 'sent', attempts: 1, last_error: null });
    expect((await outboxRow(id)).sent_at).not.toBeNull();

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
        { name: 'Message-ID', value: `<${id}@kaminuza.example>` },
        { name: 'Auto-Submitted', value: 'auto-generated' },
      ]),
    );
  });

  it('lists the newest first', async () => {
    await enqueueEmail(database.db, { to: 'first@example.com', template: 'welcome' });
    const worker = startEmailWorker({ db: database.db, mailer: mailbox, log: silent, senders, intervalMs: 0 });
    await worker.drain();
    await enqueueEmail(database.db, { to: 'second@example.com', template: 'welcome' });
    await worker.drain();
    await worker.stop();
    const recipients = getMailbox().then((response) => response.json().data.map((m: { to: string }) => m.to));
    expect((await recipients).slice(0, 2)).toEqual(['second@example.com', 'first@example.com']);
  });

  it('delivers within moments of flushEmailOutbox() without waiting for a poll', async () => {
    const worker = startEmailWorker({ db: database.db, mailer: mailbox, log: silent, senders, intervalMs: 0 });
    try {
      const id = await enqueueEmail(database.db, { to: 'quick@example.com', template: 'welcome' });
      flushEmailOutbox();
      await expect.poll(async () => (await outboxRow(id)).status, { timeout: 2_000, interval: 25 }).toBe('sent');
    } finally {
      await worker.stop();
    }
  });

  it('lets two workers share the outbox without sending anything twice', async () => {
    const recipients = Array.from({ length: 24 }, (_, index) => `shared-${index}@example.com`);
    for (const to of recipients) await enqueueEmail(database.db, { to, template: 'welcome' });
    const workers = [1, 2].map(() =>
      startEmailWorker({ db: database.db, mailer: mailbox, log: silent, senders, intervalMs: 0 }),
    );
    const counts = await Promise.all(workers.map((worker) => worker.drain()));
    await Promise.all(workers.map((worker) => worker.stop()));
    expect(counts.reduce((total, { sent }) => total + sent, 0)).toBe(recipients.length);
    const delivered = await database.db
      .select({ to: devMailbox.to })
      .from(devMailbox)
      .where(inArray(devMailbox.to, recipients));
    expect(delivered.map(({ to }) => to).sort()).toEqual([...recipients].sort());
  });

  it('starts the dev mailbox transport from the default env and stops cleanly', async () => {
    const delivery = await startEmailDelivery({ env: testEnv(), db: database.db, log: silent, intervalMs: 0 });
    try {
      expect(delivery.mailer?.kind).toBe('dev-mailbox');
      const id = await enqueueEmail(database.db, { to: 'env@example.com', template: 'welcome' });
      await delivery.worker?.drain();
      expect((await outboxRow(id)).status).toBe('sent');
    } finally {
      await delivery.stop();
    }
  });
});

describe('a transport failure', () => {
  it('retries with exponential backoff, never loses the row, and gives up after the last attempt', async () => {
    const env = testEnv({ SMTP_URL: `smtp://127.0.0.1:${await closedPort()}` });
    const delivery = await startEmailDelivery({ env, db: database.db, log: silent, intervalMs: 0 });
    const worker = delivery.worker;
    if (!worker) throw new Error('no worker for SMTP_URL');
    expect(delivery.mailer?.kind).toBe('smtp');
    try {
      const id = await enqueueEmail(database.db, { to: 'unlucky@example.com', template: 'welcome' });

      expect(await worker.drain()).toEqual({ sent: 0, retried: 1, failed: 0 });
      expect(await outboxRow(id)).toMatchObject({ status: 'pending', attempts: 1 });
      expect((await outboxRow(id)).last_error).toMatch(/ECONNREFUSED|connect/i);
      expect(await dueInSeconds(id)).toBeGreaterThan(25);
      expect(await dueInSeconds(id)).toBeLessThanOrEqual(30);

      // Not due yet: another pass leaves it alone.
      expect(await worker.drain()).toEqual({ sent: 0, retried: 0, failed: 0 });

      for (let attempt = 2; attempt <= MAX_ATTEMPTS; attempt += 1) {
        await database.db
          .update(emailOutbox)
          .set({ next_attempt_at: sql`now()` })
          .where(eq(emailOutbox.id, id));
        const counts = await worker.drain();
        const row = await outboxRow(id);
        expect(row.attempts).toBe(attempt);
        if (attempt < MAX_ATTEMPTS) {
          expect(counts.retried).toBe(1);
          expect(row.status).toBe('pending');
          const expected = retryDelayMs(attempt) / 1000;
          expect(await dueInSeconds(id)).toBeGreaterThan(expected - 5);
          expect(await dueInSeconds(id)).toBeLessThanOrEqual(expected);
        } else {
          expect(counts.failed).toBe(1);
          expect(row).toMatchObject({ status: 'failed', sent_at: null });
          expect(row.last_error).toBeTruthy();
        }
      }
      expect(retryDelayMs(2)).toBe(2 * retryDelayMs(1));
    } finally {
      await delivery.stop();
    }
  });

  it('claims again a message whose sender died mid-send', async () => {
    const id = await enqueueEmail(database.db, { to: 'orphan@example.com', template: 'welcome' });
    await database.db
      .update(emailOutbox)
      .set({ status: 'sending', attempts: 1, next_attempt_at: sql`now() - interval '1 second'` })
      .where(eq(emailOutbox.id, id));
    const worker = startEmailWorker({ db: database.db, mailer: mailbox, log: silent, senders, intervalMs: 0 });
    await worker.drain();
    await worker.stop();
    expect(await outboxRow(id)).toMatchObject({ status: 'sent', attempts: 2 });
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
    ['in production', { NODE_ENV: 'production', AUTH_SECRET: 'p'.repeat(32), PAYMENTS_WEBHOOK_SECRET: 'w'.repeat(32) }],
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

  it('sends no mail without a transport', async () => {
    const delivery = await startEmailDelivery({
      env: testEnv({ MAILBOX: 'off' }),
      db: database.db,
      log: silent,
      intervalMs: 0,
    });
    expect(delivery).toMatchObject({ worker: null, mailer: null });
    await delivery.stop();
  });
});
