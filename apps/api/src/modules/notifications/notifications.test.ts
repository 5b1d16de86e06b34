import { createECDH, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import ece from 'http_ece';
import { DEFAULTS, type ApplicationDraft, type NotificationPage } from '@kaminuza/shared';
import {
  auditLog,
  cycles,
  emailOutbox,
  notifications,
  pushSubscriptions,
  remindersSent,
  serverKeys,
  students,
  userPreferences,
} from '../../db/schema/index.ts';
import { TEST_PUBLIC_URL, useTestApp } from '../../test/app.ts';
import { signInAs, type TestAccount } from '../../test/auth.ts';
import { readyInstitution, type ReadyInstitution } from '../applications/test-helpers.ts';
import { submittedApplication } from '../review/test-helpers.ts';
import type { Mailer, OutgoingMail } from '../../lib/mailer.ts';
import { deliverEmail } from '../email/email.jobs.ts';
import { QUEUE_SCHEMA } from '../../lib/jobs/queue.ts';
import { notify } from './notifications.service.ts';
import { PUSH_DELIVER_JOB, PUSH_NOTIFY_JOB, vapidKeys, VAPID_KEY_NAME } from './push.ts';
import { closingMoment, reminderKind, sendDraftReminders } from './reminders.ts';

/* ------------------------------------------------------------------ a push service of our own */

interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

let pushService: Server;
let pushBase = '';
const received: Received[] = [];
/** The status each path answers (default 201, as push services do). */
const statusOf = new Map<string, number>();

// The app runs its background jobs: pushes go out through the queue, as in a running api.
const testApp = useTestApp(undefined, { work: true });

/**
 * Waits until every notification marked for push has its jobs and none of them is waiting or running
 * (one that failed and waits for its retry is settled for now).
 */
async function pushesSettled(): Promise<void> {
  await expect
    .poll(
      async () => {
        const unqueued = await testApp.db
          .select({ id: notifications.id })
          .from(notifications)
          .where(and(eq(notifications.push, true), isNull(notifications.push_queued_at)));
        const { rows } = await testApp.db.execute<{ n: number }>(
          sql.raw(
            `select count(*)::int as n from ${QUEUE_SCHEMA}.job
              where name in ('${PUSH_NOTIFY_JOB}', '${PUSH_DELIVER_JOB}') and state in ('created', 'active')`,
          ),
        );
        return unqueued.length + Number(rows[0]?.n ?? 0);
      },
      { timeout: 10_000, interval: 25 },
    )
    .toBe(0);
}

beforeAll(async () => {
  pushService = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks) });
      response.statusCode = statusOf.get(path) ?? 201;
      response.end();
    });
  });
  await new Promise<void>((resolve) => pushService.listen(0, '127.0.0.1', resolve));
  pushBase = `http://127.0.0.1:${(pushService.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => pushService.close(resolve));
});

beforeEach(() => {
  received.length = 0;
});

const dataOf = <T>(response: { json: () => unknown }) => (response.json() as { data: T }).data;

/** A browser's subscription keys: the receiver's P-256 key pair and auth secret (RFC 8291). */
function browserKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return { ecdh, auth, p256dh: ecdh.getPublicKey('base64url'), authText: auth.toString('base64url') };
}

/**
 * Subscribes the account to our local push service. Real subscriptions are https only (the route refuses
 * anything else), so the row is written directly, as the route would.
 */
async function subscribeLocally(account: TestAccount, path = `/push/${randomBytes(6).toString('hex')}`) {
  const keys = browserKeys();
  await testApp.db.insert(pushSubscriptions).values({
    user_id: account.id,
    endpoint: `${pushBase}${path}`,
    p256dh: keys.p256dh,
    auth: keys.authText,
  });
  return { ...keys, path };
}

async function setPreferences(account: TestAccount, values: Partial<typeof userPreferences.$inferInsert>) {
  await testApp.db
    .insert(userPreferences)
    .values({ user_id: account.id, ...values })
    .onConflictDoUpdate({ target: userPreferences.user_id, set: values });
}

async function emailOf(account: TestAccount) {
  const [row] = await testApp.db
    .select({ email: students.email })
    .from(students)
    .where(eq(students.user_id, account.id));
  return row!.email;
}

async function mailTo(account: TestAccount, template: string) {
  return testApp.db
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.to, await emailOf(account)), eq(emailOutbox.template, template)));
}

async function notificationsOf(account: TestAccount, type?: string) {
  return testApp.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.user_id, account.id), type ? eq(notifications.type, type) : undefined));
}

/* ------------------------------------------------------------------ the list */

describe('the in-app list', () => {
  it('lists only the reader’s own notifications, newest first, and marks them read; others answer 404', async () => {
    const alice = await signInAs(testApp.app, 'student');
    const bob = await signInAs(testApp.app, 'student');
    await notify(testApp.db, {
      userId: alice.id,
      category: 'status_updates',
      type: 'document_verified',
      data: { institution: 'Test U', document_type: 'passport' },
      link: '/profile?tab=documents',
    });
    await notify(testApp.db, {
      userId: alice.id,
      category: 'messages',
      type: 'new_message',
      data: { sender: null },
      link: '/support',
    });

    const list = await testApp.app.inject({ method: 'GET', url: '/api/v1/notifications', headers: alice.headers });
    expect(list.statusCode).toBe(200);
    const page = dataOf<NotificationPage>(list);
    expect(page.unread).toBe(2);
    expect(page.items.map((item) => item.type)).toEqual(['new_message', 'document_verified']);

    const theirs = await testApp.app.inject({ method: 'GET', url: '/api/v1/notifications', headers: bob.headers });
    expect(dataOf<NotificationPage>(theirs)).toMatchObject({ items: [], unread: 0 });

    const id = page.items.find((item) => item.type === 'document_verified')!.id;
    const denied = await testApp.app.inject({
      method: 'POST',
      url: `/api/v1/notifications/${id}/read`,
      headers: bob.headers,
    });
    expect(denied.statusCode).toBe(404);
    const visitor = await testApp.app.inject({ method: 'GET', url: '/api/v1/notifications' });
    expect(visitor.statusCode).toBe(401);
    const visitorRead = await testApp.app.inject({ method: 'POST', url: `/api/v1/notifications/${id}/read` });
    expect(visitorRead.statusCode).toBe(401);
    const [untouched] = await testApp.db.select().from(notifications).where(eq(notifications.id, id));
    expect(untouched!.read_at).toBeNull();

    const read = await testApp.app.inject({
      method: 'POST',
      url: `/api/v1/notifications/${id}/read`,
      headers: alice.headers,
    });
    expect(read.statusCode).toBe(200);
    expect(dataOf<{ read_at: string | null }>(read).read_at).not.toBeNull();
    const after = dataOf<NotificationPage>(
      await testApp.app.inject({ method: 'GET', url: '/api/v1/notifications', headers: alice.headers }),
    );
    expect(after.unread).toBe(1);

    // Bob's read-all leaves Alice's list alone; hers clears it.
    await testApp.app.inject({ method: 'POST', url: '/api/v1/notifications/read-all', headers: bob.headers });
    expect((await notificationsOf(alice)).filter((row) => row.read_at === null)).toHaveLength(1);
    const all = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/notifications/read-all',
      headers: alice.headers,
    });
    expect(dataOf<{ unread: number }>(all).unread).toBe(0);
    expect((await notificationsOf(alice)).filter((row) => row.read_at === null)).toHaveLength(0);
  });

  it('pages with a cursor', async () => {
    const reader = await signInAs(testApp.app, 'student');
    for (let i = 0; i < 3; i += 1) {
      await notify(testApp.db, { userId: reader.id, category: 'messages', type: 'new_message', link: null });
    }
    const first = dataOf<NotificationPage>(
      await testApp.app.inject({ method: 'GET', url: '/api/v1/notifications?limit=2', headers: reader.headers }),
    );
    expect(first.items).toHaveLength(2);
    expect(first.next_before).not.toBeNull();
    const second = dataOf<NotificationPage>(
      await testApp.app.inject({
        method: 'GET',
        url: `/api/v1/notifications?limit=2&before=${encodeURIComponent(first.next_before!)}`,
        headers: reader.headers,
      }),
    );
    expect(second.items).toHaveLength(1);
    expect(second.next_before).toBeNull();
  });
});

/* ------------------------------------------------------------------ push */

describe('Web Push', () => {
  it('makes the VAPID key pair once and answers its public key', async () => {
    const keys = await vapidKeys(testApp.db);
    const rows = await testApp.db.select().from(serverKeys).where(eq(serverKeys.name, VAPID_KEY_NAME));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.public_key).toBe(keys.publicKey);
    const student = await signInAs(testApp.app, 'student');
    const response = await testApp.app.inject({
      method: 'GET',
      url: '/api/v1/notifications/push/key',
      headers: student.headers,
    });
    expect(dataOf<{ public_key: string }>(response).public_key).toBe(keys.publicKey);
    expect((await testApp.app.inject({ method: 'GET', url: '/api/v1/notifications/push/key' })).statusCode).toBe(401);
  });

  it('stores a subscription for its owner only, https only, and deletes only one’s own', async () => {
    const owner = await signInAs(testApp.app, 'student');
    const other = await signInAs(testApp.app, 'student');
    const keys = browserKeys();
    const endpoint = `https://push.example/send/${randomBytes(6).toString('hex')}`;
    const body = { endpoint, keys: { p256dh: keys.p256dh, auth: keys.authText } };
    const url = '/api/v1/notifications/push/subscriptions';

    expect((await testApp.app.inject({ method: 'POST', url, payload: body })).statusCode).toBe(401);
    const plain = await testApp.app.inject({
      method: 'POST',
      url,
      headers: owner.headers,
      payload: { ...body, endpoint: 'http://169.254.169.254/latest' },
    });
    expect(plain.statusCode).toBe(400);

    expect((await testApp.app.inject({ method: 'POST', url, headers: owner.headers, payload: body })).statusCode).toBe(
      204,
    );
    // Again (the browser re-subscribing): still one row.
    expect((await testApp.app.inject({ method: 'POST', url, headers: owner.headers, payload: body })).statusCode).toBe(
      204,
    );
    const rows = await testApp.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, endpoint));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.user_id).toBe(owner.id);

    const denied = await testApp.app.inject({ method: 'DELETE', url, headers: other.headers, payload: { endpoint } });
    expect(denied.statusCode).toBe(404);
    expect(
      await testApp.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, endpoint)),
    ).toHaveLength(1);
    const deleted = await testApp.app.inject({ method: 'DELETE', url, headers: owner.headers, payload: { endpoint } });
    expect(deleted.statusCode).toBe(204);
    expect(
      await testApp.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, endpoint)),
    ).toHaveLength(0);
  });

  it('delivers an encrypted aes128gcm message signed with VAPID; a gone endpoint is deleted, a failing one counted', async () => {
    const student = await signInAs(testApp.app, 'student');
    const good = await subscribeLocally(student);
    const gone = await subscribeLocally(student);
    const failing = await subscribeLocally(student);
    statusOf.set(gone.path, 410);
    statusOf.set(failing.path, 500);

    const pushed = await notify(testApp.db, {
      userId: student.id,
      category: 'status_updates',
      type: 'decision_released',
      data: { institution: 'Test U', program: 'Nursing' },
      link: '/partners/x/application/decision',
    });
    expect(pushed).toBe(true);
    await pushesSettled();
    // One job per subscription: the failing one waits for its retry, the others are done.
    const { rows: states } = await testApp.db.execute<{ state: string }>(
      sql.raw(`select state from ${QUEUE_SCHEMA}.job where name = '${PUSH_DELIVER_JOB}'`),
    );
    expect(states.map((row) => row.state).sort()).toEqual(['completed', 'completed', 'retry']);

    const delivered = received.find((request) => request.path === good.path)!;
    expect(delivered.headers['content-encoding']).toBe('aes128gcm');
    expect(delivered.headers.ttl).toBeDefined();
    const { publicKey } = await vapidKeys(testApp.db);
    expect(delivered.headers.authorization).toMatch(
      new RegExp(`^vapid t=[\\w-]+\\.[\\w-]+\\.[\\w-]+, k=${publicKey}$`),
    );
    const plain = ece.decrypt(delivered.body, {
      version: 'aes128gcm',
      privateKey: good.ecdh,
      authSecret: good.authText,
    });
    const message = JSON.parse(plain.toString('utf8')) as { title: string; body: string; link: string };
    expect(message).toMatchObject({
      title: 'A decision is ready',
      body: 'Test U has made a decision on your application for Nursing.',
      link: '/partners/x/application/decision',
    });

    const left = await testApp.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.user_id, student.id));
    expect(left.map((row) => row.endpoint).sort()).toEqual(
      [`${pushBase}${good.path}`, `${pushBase}${failing.path}`].sort(),
    );
    expect(left.find((row) => row.endpoint.endsWith(failing.path))!.failures).toBe(1);
    expect(left.find((row) => row.endpoint.endsWith(good.path))!.last_success_at).not.toBeNull();
  });
});

/* ------------------------------------------------------------------ events and preferences */

let institution: ReadyInstitution;

async function submitted() {
  institution ??= await readyInstitution(testApp.app, testApp.db);
  const { student, documents, receipt } = await submittedApplication(testApp.app, testApp.db, institution);
  return { student, id: receipt.id, documents };
}

async function releaseRejection(submissionId: string) {
  const drafted = await testApp.app.inject({
    method: 'PUT',
    url: `/api/v1/partners/${institution.partnerId}/review/submissions/${submissionId}/decision`,
    headers: institution.admin.headers,
    payload: { state: 'rejected' },
  });
  expect(drafted.statusCode, drafted.body).toBe(200);
  const released = await testApp.app.inject({
    method: 'POST',
    url: `/api/v1/partners/${institution.partnerId}/decisions/release`,
    headers: institution.admin.headers,
    payload: { submission_ids: [submissionId], when: 'now' },
  });
  expect(released.statusCode, released.body).toBe(200);
  await pushesSettled();
}

describe('a released decision', () => {
  it('with every preference on: in-app, email and push', async () => {
    const { student, id } = await submitted();
    const device = await subscribeLocally(student);
    await releaseRejection(id);
    const [row] = await notificationsOf(student, 'decision_released');
    expect(row).toMatchObject({
      category: 'status_updates',
      link: `/partners/${institution.partnerId}/application/decision`,
    });
    expect(await mailTo(student, 'decision_released')).toHaveLength(1);
    expect(received.filter((request) => request.path === device.path)).toHaveLength(1);
  });

  it('with application updates emails and status update pushes off: in-app only', async () => {
    const { student, id } = await submitted();
    const device = await subscribeLocally(student);
    await setPreferences(student, { email_application_updates: false, push_status_updates: false });
    await releaseRejection(id);
    expect(await notificationsOf(student, 'decision_released')).toHaveLength(1);
    expect(await mailTo(student, 'decision_released')).toHaveLength(0);
    expect(received.filter((request) => request.path === device.path)).toHaveLength(0);
  });
});

describe('a reviewed document', () => {
  it('tells the applicant with the reason, and emails only when application updates are on', async () => {
    const { student, id, documents } = await submitted();
    const reviewUrl = (documentId: string) =>
      `/api/v1/partners/${institution.partnerId}/review/submissions/${id}/documents/${documentId}/review`;
    const rejected = await testApp.app.inject({
      method: 'POST',
      url: reviewUrl(documents.passport),
      headers: institution.admin.headers,
      payload: { status: 'rejected', reason: 'The photo page is cut off' },
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    const [notice] = await notificationsOf(student, 'document_rejected');
    expect(notice!.data).toMatchObject({ document_type: 'passport', reason: 'The photo page is cut off' });
    const [mail] = await mailTo(student, 'document_rejected');
    expect(mail!.text).toContain('The photo page is cut off');
    expect(mail!.subject).toContain('Passport');

    await setPreferences(student, { email_application_updates: false });
    const verified = await testApp.app.inject({
      method: 'POST',
      url: reviewUrl(documents.transcript),
      headers: institution.admin.headers,
      payload: { status: 'verified' },
    });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(await notificationsOf(student, 'document_verified')).toHaveLength(1);
    expect(await mailTo(student, 'document_verified')).toHaveLength(0);
  });
});

describe('a reply from an institution', () => {
  it('notifies the student, and pushes only when message pushes are on', async () => {
    institution ??= await readyInstitution(testApp.app, testApp.db);
    const student = await signInAs(testApp.app, 'student');
    const device = await subscribeLocally(student);
    const started = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/students/me/chats',
      headers: student.headers,
      payload: { partner_id: institution.partnerId },
    });
    expect(started.statusCode, started.body).toBe(200);
    const chatId = dataOf<{ id: string }>(started).id;
    const reply = () =>
      testApp.app.inject({
        method: 'POST',
        url: `/api/v1/partners/${institution.partnerId}/chats/${chatId}/messages`,
        headers: institution.admin.headers,
        payload: { body: 'Hello' },
      });
    expect((await reply()).statusCode).toBe(201);
    await pushesSettled();
    expect(await notificationsOf(student, 'new_message')).toHaveLength(1);
    expect(received.filter((request) => request.path === device.path)).toHaveLength(1);

    await setPreferences(student, { push_messages: false });
    expect((await reply()).statusCode).toBe(201);
    await pushesSettled();
    expect(await notificationsOf(student, 'new_message')).toHaveLength(2);
    expect(received.filter((request) => request.path === device.path)).toHaveLength(1);
  });
});

/* ------------------------------------------------------------------ reminders */

describe('draft reminders', () => {
  it('reminds once per kind, as the preferences say, and never about a submitted application', async () => {
    institution ??= await readyInstitution(testApp.app, testApp.db);
    const now = new Date();
    const inDays = (days: number) => new Date(now.getTime() + days * 86_400_000).toISOString().slice(0, 10);

    const eager = await signInAs(testApp.app, 'student');
    const quiet = await signInAs(testApp.app, 'student');
    await setPreferences(quiet, { email_reminders: false, push_deadline_reminders: false });
    const eagerDevice = await subscribeLocally(eager);
    const quietDevice = await subscribeLocally(quiet);
    const drafts: Record<string, string> = {};
    for (const [name, account] of [
      ['eager', eager],
      ['quiet', quiet],
    ] as const) {
      const started = await testApp.app.inject({
        method: 'POST',
        url: `/api/v1/partners/${institution.partnerId}/application`,
        headers: account.headers,
        payload: { program_id: institution.single.id },
      });
      expect(started.statusCode, started.body).toBe(201);
      drafts[name] = dataOf<ApplicationDraft>(started).id;
    }
    const done = await submitted();

    // Closing in three days: the 7-day reminder.
    await testApp.db
      .update(cycles)
      .set({ closes_on: inDays(3) })
      .where(eq(cycles.id, institution.cycleId));
    await sendDraftReminders(testApp.db, now, TEST_PUBLIC_URL);
    await sendDraftReminders(testApp.db, now, TEST_PUBLIC_URL);
    await pushesSettled();

    expect(await notificationsOf(eager, 'draft_reminder')).toHaveLength(1);
    expect(await mailTo(eager, 'draft_reminder')).toHaveLength(1);
    expect(received.filter((request) => request.path === eagerDevice.path)).toHaveLength(1);
    expect(await notificationsOf(quiet, 'draft_reminder')).toHaveLength(1);
    expect(await mailTo(quiet, 'draft_reminder')).toHaveLength(0);
    expect(received.filter((request) => request.path === quietDevice.path)).toHaveLength(0);
    expect(await notificationsOf(done.student, 'draft_reminder')).toHaveLength(0);

    const [mail] = await mailTo(eager, 'draft_reminder');
    expect(mail!.text).toContain(`${TEST_PUBLIC_URL}/partners/${institution.partnerId}/application/form`);
    const claimed = await testApp.db
      .select({ kind: remindersSent.kind })
      .from(remindersSent)
      .where(eq(remindersSent.application_id, drafts.eager!));
    expect(claimed.map((row) => row.kind)).toEqual([reminderKind(7)]);

    // Later, half a day before close (the institution keeps the default time zone): the 1-day reminder, once.
    const later = new Date(closingMoment(inDays(3), DEFAULTS.timezone).getTime() - 12 * 3_600_000);
    await sendDraftReminders(testApp.db, later, TEST_PUBLIC_URL);
    await sendDraftReminders(testApp.db, later, TEST_PUBLIC_URL);
    expect(await notificationsOf(eager, 'draft_reminder')).toHaveLength(2);
    expect(await mailTo(eager, 'draft_reminder')).toHaveLength(2);
    expect(await notificationsOf(done.student, 'draft_reminder')).toHaveLength(0);

    // Two passes at once (two api instances) still send each reminder once.
    const racer = await signInAs(testApp.app, 'student');
    const raced = await testApp.app.inject({
      method: 'POST',
      url: `/api/v1/partners/${institution.partnerId}/application`,
      headers: racer.headers,
      payload: { program_id: institution.single.id },
    });
    expect(raced.statusCode).toBe(201);
    await Promise.all([
      sendDraftReminders(testApp.db, later, TEST_PUBLIC_URL),
      sendDraftReminders(testApp.db, later, TEST_PUBLIC_URL),
    ]);
    expect(await notificationsOf(racer, 'draft_reminder')).toHaveLength(1);
    expect(await mailTo(racer, 'draft_reminder')).toHaveLength(1);
    await testApp.db
      .update(cycles)
      .set({ closes_on: inDays(120) })
      .where(inArray(cycles.id, [institution.cycleId]));
  });
});

/* ------------------------------------------------------------------ marketing */

describe('marketing announcements and unsubscribing', () => {
  it('emails only those who opted in, with their unsubscribe link and one-click headers; the link works without signing in', async () => {
    const admin = await signInAs(testApp.app, 'admin');
    const fan = await signInAs(testApp.app, 'student');
    const other = await signInAs(testApp.app, 'student');
    await setPreferences(fan, { email_marketing: true });

    const url = '/api/v1/admin/announcements';
    const payload = { subject: 'New universities on Kaminuza', body: 'Ten new universities joined.' };
    expect((await testApp.app.inject({ method: 'POST', url, headers: fan.headers, payload })).statusCode).toBe(403);
    expect((await testApp.app.inject({ method: 'POST', url, payload })).statusCode).toBe(401);
    const sent = await testApp.app.inject({ method: 'POST', url, headers: admin.headers, payload });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(dataOf<{ recipients: number }>(sent).recipients).toBeGreaterThanOrEqual(1);
    const [audit] = await testApp.db.select().from(auditLog).where(eq(auditLog.action, 'announcement.sent'));
    expect(audit!.actor_id).toBe(admin.id);

    const [mail] = await mailTo(fan, 'marketing');
    expect(await mailTo(other, 'marketing')).toHaveLength(0);
    const [prefs] = await testApp.db.select().from(userPreferences).where(eq(userPreferences.user_id, fan.id));
    const token = prefs!.unsubscribe_token;
    expect(mail!.text).toContain(`${TEST_PUBLIC_URL}/unsubscribe/${token}`);
    expect(mail!.html).toContain(`${TEST_PUBLIC_URL}/unsubscribe/${token}`);

    // The worker sends it with List-Unsubscribe and List-Unsubscribe-Post (RFC 8058).
    const outgoing: OutgoingMail[] = [];
    const mailer: Mailer = {
      kind: 'smtp',
      send: async (message) => {
        outgoing.push(message);
        return { messageId: message.messageId ?? 'x' };
      },
      close: async () => undefined,
    };
    const log = { info: () => undefined } as never;
    await deliverEmail(
      { db: testApp.db, mailer, senders: { info: 'info@kaminuza.example', no_reply: 'no-reply@kaminuza.example' } },
      mail!.id,
      { lastAttempt: false, log },
    );
    const delivered = outgoing.find((message) => message.to === mail!.to && message.subject === payload.subject)!;
    expect(delivered.headers).toMatchObject({
      'List-Unsubscribe': `<${TEST_PUBLIC_URL}/api/v1/unsubscribe/${token}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });

    // A wrong token changes nothing; the right one, posted as a mail client does, turns marketing off.
    const wrong = await testApp.app.inject({ method: 'POST', url: `/api/v1/unsubscribe/${crypto.randomUUID()}` });
    expect(wrong.statusCode).toBe(404);
    expect((await testApp.app.inject({ method: 'POST', url: '/api/v1/unsubscribe/not-a-token' })).statusCode).toBe(400);
    const [still] = await testApp.db.select().from(userPreferences).where(eq(userPreferences.user_id, fan.id));
    expect(still!.email_marketing).toBe(true);

    const oneClick = await testApp.app.inject({
      method: 'POST',
      url: `/api/v1/unsubscribe/${token}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.statusCode, oneClick.body).toBe(200);
    const again = await testApp.app.inject({ method: 'POST', url: `/api/v1/unsubscribe/${token}` });
    expect(again.statusCode).toBe(200);
    const [off] = await testApp.db.select().from(userPreferences).where(eq(userPreferences.user_id, fan.id));
    expect(off!.email_marketing).toBe(false);
  });
});
