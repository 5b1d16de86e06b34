import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { MESSAGE_MAX_LENGTH, MESSAGE_PAGE_SIZE, SUPPORT_MESSAGES, type StaffPermission } from '@kaminuza/shared';
import { chatMessages, partners, rateLimits } from '../../db/schema/index.ts';
import { useTestApp } from '../../test/app.ts';
import { expectAccess, signInAs, type TestAccount } from '../../test/auth.ts';
import { MESSAGE_LIMIT } from './chats.service.ts';

const testApp = useTestApp();

const MISSING = '00000000-0000-4000-8000-000000000000';
const XSS = `<img src=x onerror="alert('x')"><script>alert(1)</script> & "quotes"`;

type Method = 'GET' | 'POST';
const call = (account: TestAccount | null, method: Method, url: string, payload?: object) =>
  testApp.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: account ? account.headers : {},
    ...(payload ? { payload } : {}),
  });
const dataOf = <T>(response: { json(): unknown }) => (response.json() as { data: T }).data;
const errorOf = (response: { json(): unknown }) =>
  (response.json() as { error: { status: string; message: string } }).error;

interface ChatBody {
  id: string;
  partner_id: string;
  partner_name: string;
  student_name: string | null;
  last_message: string | null;
  unread: number;
  other_read_at: string | null;
}
interface MessageBody {
  id: string;
  body: string;
  sender_side: string;
  sender_name: string | null;
}
interface PageBody {
  messages: MessageBody[];
  has_more: boolean;
}

/** A listed institution (approved and published) with an Admin holding 'all'. */
async function institution(listed = true) {
  const admin = await signInAs(testApp.app, 'staff');
  const partnerId = admin.partnerId!;
  if (listed) await testApp.database.db.update(partners).set({ published: true }).where(eq(partners.id, partnerId));
  const member = (permissions: StaffPermission[]) => signInAs(testApp.app, 'staff', { partnerId, permissions });
  return { admin, partnerId, member };
}

async function conversation() {
  const school = await institution();
  const student = await signInAs(testApp.app, 'student');
  const chat = dataOf<ChatBody>(await call(student, 'POST', '/students/me/chats', { partner_id: school.partnerId }));
  return { ...school, student, chat };
}

describe('who may call the chat routes', () => {
  it('answers 401 to visitors and 403 to other account types', async () => {
    const { partnerId } = await institution();
    const studentRoutes = [
      { method: 'GET', url: '/api/v1/students/me/chats' },
      { method: 'POST', url: '/api/v1/students/me/chats', payload: { partner_id: partnerId } },
      { method: 'GET', url: `/api/v1/students/me/chats/${MISSING}` },
      { method: 'GET', url: `/api/v1/students/me/chats/${MISSING}/messages` },
      { method: 'POST', url: `/api/v1/students/me/chats/${MISSING}/messages`, payload: { body: 'Hi' } },
      { method: 'POST', url: `/api/v1/students/me/chats/${MISSING}/read` },
    ] as const;
    for (const route of studentRoutes) {
      const student = route.url.includes(MISSING) ? 404 : 200;
      await expectAccess(testApp.app, route, { anonymous: 401, staff: 403, admin: 403, student });
    }
    const staffRoutes = [
      { method: 'GET', url: `/api/v1/partners/${partnerId}/chats` },
      { method: 'GET', url: `/api/v1/partners/${partnerId}/chats/${MISSING}` },
      { method: 'GET', url: `/api/v1/partners/${partnerId}/chats/${MISSING}/messages` },
      { method: 'POST', url: `/api/v1/partners/${partnerId}/chats/${MISSING}/messages`, payload: { body: 'Hi' } },
      { method: 'POST', url: `/api/v1/partners/${partnerId}/chats/${MISSING}/read` },
    ] as const;
    for (const route of staffRoutes) {
      // A staff member of another institution: 404, as if the institution did not exist.
      await expectAccess(testApp.app, route, { anonymous: 401, student: 403, admin: 403, staff: 404 });
    }
  });

  it('refuses members without message_applicants, and admits those holding it or all', async () => {
    const { partnerId, member, chat, student } = await conversation();
    await call(student, 'POST', `/students/me/chats/${chat.id}/messages`, { body: 'Hello' });
    const reader = await member(['manage_forms']);
    const messenger = await member(['message_applicants']);
    const everything = await member(['all']);
    const urls: [Method, string, object?][] = [
      ['GET', `/partners/${partnerId}/chats`],
      ['GET', `/partners/${partnerId}/chats/${chat.id}`],
      ['GET', `/partners/${partnerId}/chats/${chat.id}/messages`],
      ['POST', `/partners/${partnerId}/chats/${chat.id}/messages`, { body: 'Reply' }],
      ['POST', `/partners/${partnerId}/chats/${chat.id}/read`],
    ];
    for (const [method, url, payload] of urls) {
      expect((await call(reader, method, url, payload)).statusCode, `${method} ${url}`).toBe(403);
      expect((await call(messenger, method, url, payload)).statusCode, `${method} ${url}`).toBeLessThan(300);
      expect((await call(everything, method, url, payload)).statusCode, `${method} ${url}`).toBeLessThan(300);
    }
  });

  it("answers 404 to another student and to another institution's staff for an existing chat", async () => {
    const { chat } = await conversation();
    const stranger = await signInAs(testApp.app, 'student');
    for (const [method, url, payload] of [
      ['GET', `/students/me/chats/${chat.id}`],
      ['GET', `/students/me/chats/${chat.id}/messages`],
      ['POST', `/students/me/chats/${chat.id}/messages`, { body: 'Not mine' }],
      ['POST', `/students/me/chats/${chat.id}/read`],
    ] as [Method, string, object?][]) {
      const response = await call(stranger, method, url, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    // Staff of another institution naming their own institution in the path still cannot reach it.
    const elsewhere = await institution();
    for (const [method, url, payload] of [
      ['GET', `/partners/${elsewhere.partnerId}/chats/${chat.id}`],
      ['GET', `/partners/${elsewhere.partnerId}/chats/${chat.id}/messages`],
      ['POST', `/partners/${elsewhere.partnerId}/chats/${chat.id}/messages`, { body: 'Not ours' }],
      ['POST', `/partners/${elsewhere.partnerId}/chats/${chat.id}/read`],
    ] as [Method, string, object?][]) {
      expect((await call(elsewhere.admin, method, url, payload)).statusCode, `${method} ${url}`).toBe(404);
    }
    expect(dataOf<ChatBody[]>(await call(elsewhere.admin, 'GET', `/partners/${elsewhere.partnerId}/chats`))).toEqual(
      [],
    );
    const stored = await testApp.database.db.select().from(chatMessages).where(eq(chatMessages.chat_id, chat.id));
    expect(stored).toEqual([]);
  });
});

describe('starting a conversation', () => {
  it('refuses institutions that are not approved and published, and unknown ones', async () => {
    const student = await signInAs(testApp.app, 'student');
    const unpublished = await institution(false);
    const suspended = await institution();
    await testApp.database.db.update(partners).set({ status: 'suspended' }).where(eq(partners.id, suspended.partnerId));
    for (const partnerId of [unpublished.partnerId, suspended.partnerId, MISSING]) {
      const response = await call(student, 'POST', '/students/me/chats', { partner_id: partnerId });
      expect(response.statusCode).toBe(403);
      expect(errorOf(response)).toMatchObject({
        message: SUPPORT_MESSAGES.institution_unavailable,
        reason: 'institution_unavailable',
      });
    }
    expect(dataOf<ChatBody[]>(await call(student, 'GET', '/students/me/chats'))).toEqual([]);
  });

  it('returns the same conversation when started twice, and keeps it out of the inbox until written in', async () => {
    const { student, partnerId, admin, chat } = await conversation();
    const again = dataOf<ChatBody>(await call(student, 'POST', '/students/me/chats', { partner_id: partnerId }));
    expect(again.id).toBe(chat.id);
    expect(again.last_message).toBeNull();
    expect(dataOf<ChatBody[]>(await call(admin, 'GET', `/partners/${partnerId}/chats`))).toEqual([]);
    expect(dataOf<ChatBody[]>(await call(student, 'GET', '/students/me/chats')).map((c) => c.id)).toEqual([chat.id]);
  });

  it('stops a student writing once the institution is no longer listed', async () => {
    const { student, partnerId, chat } = await conversation();
    await testApp.database.db.update(partners).set({ published: false }).where(eq(partners.id, partnerId));
    const response = await call(student, 'POST', `/students/me/chats/${chat.id}/messages`, { body: 'Still there?' });
    expect(response.statusCode).toBe(403);
    expect(errorOf(response)).toMatchObject({
      message: SUPPORT_MESSAGES.institution_unavailable,
      reason: 'institution_unavailable',
    });
    expect(dataOf<ChatBody[]>(await call(student, 'GET', '/students/me/chats'))).toEqual([]);
  });
});

describe('a conversation', () => {
  it('carries messages both ways, verbatim, with unread counts and read receipts', async () => {
    const { student, partnerId, admin, chat } = await conversation();
    const sent = await call(student, 'POST', `/students/me/chats/${chat.id}/messages`, { body: `  ${XSS}  ` });
    expect(sent.statusCode).toBe(201);
    // Stored and returned as written (trimmed only): rendering it as text is the client's job.
    expect(dataOf<MessageBody>(sent)).toMatchObject({ body: XSS, sender_side: 'student' });

    const inbox = dataOf<ChatBody[]>(await call(admin, 'GET', `/partners/${partnerId}/chats`));
    expect(inbox).toHaveLength(1);
    expect(inbox[0]).toMatchObject({ id: chat.id, unread: 1, last_message: XSS, student_name: 'Test Student' });

    const reply = await call(admin, 'POST', `/partners/${partnerId}/chats/${chat.id}/messages`, {
      body: 'Welcome! Send us your transcript.',
    });
    expect(reply.statusCode).toBe(201);
    expect(dataOf<MessageBody>(reply)).toMatchObject({ sender_side: 'partner', sender_name: 'Test Staff' });
    // Replying means the institution has read what came before.
    expect(dataOf<ChatBody>(await call(admin, 'GET', `/partners/${partnerId}/chats/${chat.id}`)).unread).toBe(0);

    const mine = dataOf<ChatBody[]>(await call(student, 'GET', '/students/me/chats'));
    expect(mine[0]).toMatchObject({ unread: 1, last_message: 'Welcome! Send us your transcript.' });
    expect(mine[0]!.other_read_at).not.toBeNull();

    const read = dataOf<ChatBody>(await call(student, 'POST', `/students/me/chats/${chat.id}/read`));
    expect(read.unread).toBe(0);
    const seen = dataOf<ChatBody>(await call(admin, 'GET', `/partners/${partnerId}/chats/${chat.id}`));
    expect(seen.other_read_at).not.toBeNull();

    const page = dataOf<PageBody>(await call(student, 'GET', `/students/me/chats/${chat.id}/messages`));
    expect(page.has_more).toBe(false);
    expect(page.messages.map((m) => m.sender_side)).toEqual(['student', 'partner']);
    expect(page.messages[0]!.body).toBe(XSS);
  });

  it('refuses empty and over-long messages and stores nothing', async () => {
    const { student, chat } = await conversation();
    for (const body of ['', '   ', 'x'.repeat(MESSAGE_MAX_LENGTH + 1)]) {
      const response = await call(student, 'POST', `/students/me/chats/${chat.id}/messages`, { body });
      expect(response.statusCode).toBe(400);
    }
    const ok = await call(student, 'POST', `/students/me/chats/${chat.id}/messages`, {
      body: 'x'.repeat(MESSAGE_MAX_LENGTH),
    });
    expect(ok.statusCode).toBe(201);
    const stored = await testApp.database.db.select().from(chatMessages).where(eq(chatMessages.chat_id, chat.id));
    expect(stored).toHaveLength(1);
  });

  it('pages older messages before a cursor, oldest first within a page', async () => {
    const { student, chat } = await conversation();
    const total = MESSAGE_PAGE_SIZE + 5;
    // Inserted directly with distinct times: the rate limit guards the route, not the paging.
    await testApp.database.db.insert(chatMessages).values(
      Array.from({ length: total }, (_, i) => ({
        chat_id: chat.id,
        sender_id: student.id,
        sender_side: 'student' as const,
        body: `message ${i}`,
        created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
      })),
    );
    const newest = dataOf<PageBody>(await call(student, 'GET', `/students/me/chats/${chat.id}/messages`));
    expect(newest.has_more).toBe(true);
    expect(newest.messages).toHaveLength(MESSAGE_PAGE_SIZE);
    expect(newest.messages.at(-1)!.body).toBe(`message ${total - 1}`);
    expect(newest.messages[0]!.body).toBe('message 5');
    const older = dataOf<PageBody>(
      await call(student, 'GET', `/students/me/chats/${chat.id}/messages?before=${newest.messages[0]!.id}`),
    );
    expect(older.has_more).toBe(false);
    expect(older.messages.map((m) => m.body)).toEqual([0, 1, 2, 3, 4].map((i) => `message ${i}`));
  });

  it('limits how fast one user sends', async () => {
    const { student, chat } = await conversation();
    // Start just under the limit rather than sending 30 messages.
    await testApp.database.db.insert(rateLimits).values({
      key: `${MESSAGE_LIMIT.name}:${student.id}`,
      count: MESSAGE_LIMIT.max,
      reset_at: sql`now() + interval '1 minute'`,
    });
    const response = await call(student, 'POST', `/students/me/chats/${chat.id}/messages`, { body: 'One more' });
    expect(response.statusCode).toBe(429);
    expect(response.headers['retry-after']).toBeDefined();
    const stored = await testApp.database.db.select().from(chatMessages).where(eq(chatMessages.chat_id, chat.id));
    expect(stored).toHaveLength(0);
  });

  it('announces new messages and read receipts through NOTIFY to both sides', async () => {
    const { student, partnerId, chat } = await conversation();
    const notices: string[] = [];
    // Read back what publish() sent, on the engine the test runs (PGlite or PostgreSQL).
    const spy = await captureNotifications(notices);
    try {
      await call(student, 'POST', `/students/me/chats/${chat.id}/messages`, { body: 'Ping' });
      await call(student, 'POST', `/students/me/chats/${chat.id}/read`);
      await expect.poll(() => notices.length).toBeGreaterThanOrEqual(2);
    } finally {
      await spy();
    }
    const parsed = notices.map((n) => JSON.parse(n) as { audience: { users: string[]; partnerId: string } });
    expect(parsed[0]).toEqual({
      audience: { users: [student.id], partnerId },
      event: { type: 'chat.message', chat_id: chat.id },
    });
    expect(parsed[1]).toMatchObject({ event: { type: 'chat.read', chat_id: chat.id } });
  });
});

/** Listens on the realtime channel with the test database's own engine; returns the unlisten. */
async function captureNotifications(into: string[]): Promise<() => Promise<void>> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const client = (
      testApp.database.db as unknown as {
        $client: { listen(c: string, cb: (p: string) => void): Promise<() => Promise<void>> };
      }
    ).$client;
    return client.listen('kaminuza_realtime', (payload) => into.push(payload));
  }
  const { default: pg } = await import('pg');
  const [{ name }] = (await testApp.database.db.execute(sql`select current_database() as name`)).rows as [
    { name: string },
  ];
  const target = new URL(url);
  target.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: target.toString() });
  client.on('error', () => undefined);
  await client.connect();
  client.on('notification', (message) => into.push(message.payload ?? ''));
  await client.query('LISTEN kaminuza_realtime');
  return () => client.end();
}
