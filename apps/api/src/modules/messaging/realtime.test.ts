import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import WebSocket from 'ws';
import type { RealtimeEvent } from '@kaminuza/shared';
import type { App } from '../../app.ts';
import { openDatabase, type Database } from '../../db/client.ts';
import { chatMessages, chats, students, supportMessages, supportTickets } from '../../db/schema/index.ts';
import { publish } from '../../lib/realtime.ts';
import { createTestApp, TEST_PUBLIC_URL } from '../../test/app.ts';
import { signInAs, type TestAccount } from '../../test/auth.ts';
import { createTestDatabase } from '../../test/database.ts';

const TICKET = '00000000-0000-4000-8000-000000000001';
const MARKER = '00000000-0000-4000-8000-0000000000ff';

interface Client {
  socket: WebSocket;
  events: RealtimeEvent[];
  /** Resolves with the first event (already received or to come) matching. */
  next(match: (event: RealtimeEvent) => boolean, timeoutMs?: number): Promise<RealtimeEvent>;
}

function baseUrl(app: App): string {
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('app is not listening');
  return `ws://127.0.0.1:${address.port}/api/v1/realtime`;
}

/** Connects like a browser tab of the public site; rejects with the HTTP status of a refused handshake. */
function connect(app: App, { cookie, origin = TEST_PUBLIC_URL }: { cookie?: string; origin?: string | null }) {
  return new Promise<Client>((resolve, reject) => {
    const headers: Record<string, string> = {};
    if (cookie) headers.cookie = cookie;
    if (origin) headers.origin = origin;
    const socket = new WebSocket(baseUrl(app), { headers });
    const events: RealtimeEvent[] = [];
    const waiters: { match: (event: RealtimeEvent) => boolean; resolve: (event: RealtimeEvent) => void }[] = [];
    socket.on('message', (data) => {
      const event = JSON.parse(String(data)) as RealtimeEvent;
      events.push(event);
      for (const waiter of [...waiters]) {
        if (waiter.match(event)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(event);
        }
      }
      if (event.type === 'ready') resolve(client);
    });
    socket.on('unexpected-response', (_request, response) => reject(new Error(`HTTP ${response.statusCode}`)));
    socket.on('error', reject);
    const client: Client = {
      socket,
      events,
      next(match, timeoutMs = 5_000) {
        const seen = events.find(match);
        if (seen) return Promise.resolve(seen);
        return new Promise((resolveEvent, rejectEvent) => {
          const timer = setTimeout(() => rejectEvent(new Error('no matching event')), timeoutMs);
          waiters.push({
            match,
            resolve: (event) => {
              clearTimeout(timer);
              resolveEvent(event);
            },
          });
        });
      },
    };
  });
}

const isMarker = (event: RealtimeEvent) => event.type === 'support.ticket' && event.ticket_id === MARKER;

/**
 * The scenario each engine runs: two api instances; notices published through A's database reach the
 * right sockets held by B, and only those.
 */
function realtimeSuite(
  open: () => Promise<{ a: Database; b: Database; close(): Promise<void> }>,
  { server = false }: { server?: boolean } = {},
) {
  let databases: Awaited<ReturnType<typeof open>>;
  let appA: App;
  let appB: App;
  let student: TestAccount;
  let otherStudent: TestAccount;
  let admin: TestAccount;
  let messenger: TestAccount;
  let reviewer: TestAccount;
  const clients: Client[] = [];

  beforeAll(async () => {
    databases = await open();
    appA = await createTestApp(databases.a);
    appB = await createTestApp(databases.b);
    await appA.listen({ port: 0, host: '127.0.0.1' });
    await appB.listen({ port: 0, host: '127.0.0.1' });
    student = await signInAs(appA, 'student');
    otherStudent = await signInAs(appA, 'student');
    admin = await signInAs(appA, 'admin');
    messenger = await signInAs(appA, 'staff', { permissions: ['message_applicants'] });
    reviewer = await signInAs(appA, 'staff', { partnerId: messenger.partnerId!, permissions: ['review_applications'] });
  }, 60_000);

  afterAll(async () => {
    for (const client of clients) client.socket.close();
    await appA?.close();
    await appB?.close();
    await databases?.close();
  });

  async function tab(account: TestAccount, app: App = appB): Promise<Client> {
    const client = await connect(app, { cookie: account.headers.cookie });
    clients.push(client);
    return client;
  }

  it('a notice published through instance A reaches the sockets on instance B of its audience only', async () => {
    const [studentTab, secondTab, otherTab, adminTab, messengerTab, reviewerTab] = await Promise.all([
      tab(student),
      tab(student, appA),
      tab(otherStudent),
      tab(admin),
      tab(messenger),
      tab(reviewer),
    ]);

    await databases.a.db.transaction(async (tx) => {
      await publish(tx, { users: [student.id] }, { type: 'support.message', ticket_id: TICKET });
    });
    expect(await studentTab.next((event) => event.type === 'support.message')).toEqual({
      type: 'support.message',
      ticket_id: TICKET,
    });
    // Every open tab of the person, whichever instance holds it.
    await secondTab.next((event) => event.type === 'support.message');

    await publish(databases.a.db, { supportTeam: true }, { type: 'support.ticket', ticket_id: TICKET });
    await adminTab.next((event) => event.type === 'support.ticket' && event.ticket_id === TICKET);

    await publish(databases.a.db, { partnerId: messenger.partnerId! }, { type: 'chat.message', chat_id: TICKET });
    await messengerTab.next((event) => event.type === 'chat.message');

    // A marker to everyone: once it arrives, anything meant for them would have arrived before it.
    await publish(
      databases.a.db,
      { users: [student.id, otherStudent.id, messenger.id, reviewer.id, admin.id] },
      { type: 'support.ticket', ticket_id: MARKER },
    );
    await Promise.all([otherTab, reviewerTab, studentTab, adminTab].map((client) => client.next(isMarker)));
    expect(otherTab.events.map((event) => event.type)).toEqual(['ready', 'support.ticket']);
    // A colleague without message_applicants hears nothing of the institution's chats.
    expect(reviewerTab.events.map((event) => event.type)).toEqual(['ready', 'support.ticket']);
    expect(studentTab.events.some((event) => event.type === 'chat.message')).toBe(false);
    expect(adminTab.events.some((event) => event.type === 'support.message')).toBe(false);
  });

  it('a notice in a transaction that rolls back is never delivered', async () => {
    const studentTab = await tab(student);
    await expect(
      databases.a.db.transaction(async (tx) => {
        await publish(tx, { users: [student.id] }, { type: 'chat.read', chat_id: TICKET });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await publish(databases.a.db, { users: [student.id] }, { type: 'support.ticket', ticket_id: MARKER });
    await studentTab.next(isMarker);
    expect(studentTab.events.some((event) => event.type === 'chat.read')).toBe(false);
  });

  it('refuses a socket from another site (403) and one without a session (401)', async () => {
    await expect(connect(appB, { cookie: student.headers.cookie, origin: 'https://evil.example' })).rejects.toThrow(
      'HTTP 403',
    );
    await expect(connect(appB, { cookie: student.headers.cookie, origin: null })).rejects.toThrow('HTTP 403');
    await expect(connect(appB, {})).rejects.toThrow('HTTP 401');
    await expect(connect(appB, { cookie: 'better-auth.session_token=forged' })).rejects.toThrow('HTTP 401');
  });

  it.runIf(server)(
    'listens again after its connection to the server is cut, and tells its sockets to refetch',
    async () => {
      const studentTab = await tab(student);
      const { rows } = (await databases.b.db.execute(
        sql`select pg_terminate_backend(pid) as done from pg_stat_activity
          where datname = current_database() and query ilike 'LISTEN%'`,
      )) as unknown as { rows: { done: boolean }[] };
      expect(rows.length).toBeGreaterThan(0);
      // Notifications sent while no listener is connected are lost (clients refetch on reconnect), so
      // publish until one arrives through the new connection.
      const deadline = Date.now() + 10_000;
      let arrived = false;
      while (!arrived && Date.now() < deadline) {
        await publish(databases.a.db, { users: [student.id] }, { type: 'chat.message', chat_id: MARKER });
        arrived = await studentTab
          .next((event) => event.type === 'chat.message' && event.chat_id === MARKER, 500)
          .then(() => true)
          .catch(() => false);
      }
      expect(arrived).toBe(true);
      // Whatever was published during the gap was never heard: the tab got a second `ready`, to refetch.
      expect(studentTab.events.filter((event) => event.type === 'ready')).toHaveLength(2);
    },
  );

  it('counts unread messages for each kind of reader', async () => {
    const { db } = databases.a;
    const [record] = await db.select({ id: students.id }).from(students).where(eq(students.user_id, student.id));
    const [ticket] = await db
      .insert(supportTickets)
      .values({ student_id: record!.id, subject: 'Help' })
      .returning({ id: supportTickets.id });
    await db.insert(supportMessages).values([
      { ticket_id: ticket!.id, sender_side: 'student', body: 'Hello' },
      { ticket_id: ticket!.id, sender_side: 'team', body: '<img src=x onerror=alert(1)>' },
      { ticket_id: ticket!.id, sender_side: 'team', body: 'Still there?' },
    ]);
    const [chat] = await db
      .insert(chats)
      .values({ student_id: record!.id, partner_id: messenger.partnerId! })
      .returning({ id: chats.id });
    await db.insert(chatMessages).values([
      { chat_id: chat!.id, sender_side: 'student', body: 'Question' },
      { chat_id: chat!.id, sender_side: 'partner', body: 'Answer' },
    ]);

    const unread = async (account: TestAccount) => {
      const response = await appB.inject({ method: 'GET', url: '/api/v1/messaging/unread', headers: account.headers });
      expect(response.statusCode).toBe(200);
      return response.json().data as { support: number; chats: number };
    };
    expect(await unread(student)).toEqual({ support: 2, chats: 1 });
    expect(await unread(otherStudent)).toEqual({ support: 0, chats: 0 });
    expect(await unread(messenger)).toEqual({ support: 0, chats: 1 });
    expect(await unread(reviewer)).toEqual({ support: 0, chats: 0 });
    const team = await unread(admin);
    expect(team.support).toBeGreaterThanOrEqual(1);

    await db
      .update(supportTickets)
      .set({ student_read_at: new Date(Date.now() + 1000).toISOString() })
      .where(eq(supportTickets.id, ticket!.id));
    expect(await unread(student)).toEqual({ support: 0, chats: 1 });

    const anonymous = await appB.inject({ method: 'GET', url: '/api/v1/messaging/unread' });
    expect(anonymous.statusCode).toBe(401);
  });
}

describe('realtime over PGlite: two app instances sharing one database', () => {
  realtimeSuite(async () => {
    const database = await openDatabase({ kind: 'pglite', dataDir: null });
    await database.migrate();
    return { a: database, b: database, close: () => database.close() };
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('realtime over PostgreSQL: two app instances, two pools', () => {
  realtimeSuite(
    async () => {
      const a = await createTestDatabase();
      const b = await openDatabase({ kind: 'postgres', url: a.url!, poolSize: 2 });
      return {
        a,
        b,
        async close() {
          await b.close();
          await a.close();
        },
      };
    },
    { server: true },
  );
});
