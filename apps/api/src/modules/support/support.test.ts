import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { MESSAGE_MAX_LENGTH, MESSAGE_PAGE_SIZE, SUPPORT_MESSAGES } from '@kaminuza/shared';
import { rateLimits, supportMessages, supportTickets } from '../../db/schema/index.ts';
import { useTestApp } from '../../test/app.ts';
import { expectAccess, signInAs, type TestAccount } from '../../test/auth.ts';
import { MESSAGE_LIMIT } from './support.service.ts';

let student: TestAccount;
let other: TestAccount;
let admin: TestAccount;

const testApp = useTestApp();

beforeAll(async () => {
  [student, other, admin] = await Promise.all([
    signInAs(testApp.app, 'student'),
    signInAs(testApp.app, 'student'),
    signInAs(testApp.app, 'admin'),
  ]);
});

async function call(account: TestAccount, method: 'GET' | 'POST', url: string, payload?: object) {
  return testApp.app.inject({ method, url, headers: account.headers, ...(payload ? { payload } : {}) });
}

async function openTicket(account: TestAccount = student, body = 'I cannot upload my transcript') {
  const response = await call(account, 'POST', '/api/v1/support/tickets', { subject: 'Upload help', body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data as { ticket: { id: string }; messages: { body: string }[] };
}

describe('student support tickets', () => {
  it('opens a ticket with its first message, lists it and reads it', async () => {
    const { ticket, messages } = await openTicket();
    expect(messages.map((m) => m.body)).toEqual(['I cannot upload my transcript']);
    const list = await call(student, 'GET', '/api/v1/support/tickets');
    expect(list.json().data.map((t: { id: string }) => t.id)).toContain(ticket.id);
    const read = await call(student, 'GET', `/api/v1/support/tickets/${ticket.id}`);
    expect(read.json().data.ticket).toMatchObject({ id: ticket.id, status: 'open', subject: 'Upload help' });
  });

  it('takes the first words of the message as the subject when none is given', async () => {
    const response = await call(student, 'POST', '/api/v1/support/tickets', { body: 'Where is my offer letter?' });
    expect(response.json().data.ticket.subject).toBe('Where is my offer letter?');
  });

  it("hides another student's ticket as not found, for every action", async () => {
    const { ticket } = await openTicket();
    for (const [method, path, payload] of [
      ['GET', '', undefined],
      ['POST', '/messages', { body: 'hi' }],
      ['POST', '/resolve', undefined],
      ['POST', '/read', undefined],
    ] as const) {
      const response = await call(other, method, `/api/v1/support/tickets/${ticket.id}${path}`, payload);
      expect(response.statusCode, `${method} ${path}`).toBe(404);
    }
    const list = await call(other, 'GET', '/api/v1/support/tickets');
    expect(list.json().data.map((t: { id: string }) => t.id)).not.toContain(ticket.id);
  });

  it('stores and returns markup verbatim', async () => {
    const payload = '<img src=x onerror="alert(1)"><script>alert(2)</script>';
    const { ticket } = await openTicket(student, payload);
    const sent = await call(student, 'POST', `/api/v1/support/tickets/${ticket.id}/messages`, { body: payload });
    expect(sent.statusCode).toBe(201);
    expect(sent.json().data.body).toBe(payload);
    const read = await call(admin, 'GET', `/api/v1/admin/support/tickets/${ticket.id}`);
    expect(read.json().data.messages.map((m: { body: string }) => m.body)).toEqual([payload, payload]);
  });

  it('refuses empty and over-long messages', async () => {
    const { ticket } = await openTicket();
    const empty = await call(student, 'POST', `/api/v1/support/tickets/${ticket.id}/messages`, { body: '   ' });
    expect(empty.statusCode).toBe(400);
    const long = await call(student, 'POST', `/api/v1/support/tickets/${ticket.id}/messages`, {
      body: 'x'.repeat(MESSAGE_MAX_LENGTH + 1),
    });
    expect(long.statusCode).toBe(400);
  });

  it('resolves a ticket, after which nothing more is sent', async () => {
    const { ticket } = await openTicket();
    const resolved = await call(student, 'POST', `/api/v1/support/tickets/${ticket.id}/resolve`);
    expect(resolved.json().data).toMatchObject({ status: 'closed', closed_by: 'student' });
    const sent = await call(student, 'POST', `/api/v1/support/tickets/${ticket.id}/messages`, { body: 'again' });
    expect(sent.statusCode).toBe(409);
    expect(sent.json().error.message).toBe(SUPPORT_MESSAGES.ticket_closed);
    expect(sent.json().error.reason).toBe('ticket_closed');
    const twice = await call(student, 'POST', `/api/v1/support/tickets/${ticket.id}/resolve`);
    expect(twice.statusCode).toBe(409);
  });

  it('blocks the student from a ticket the team closed', async () => {
    const { ticket } = await openTicket();
    const closed = await call(admin, 'POST', `/api/v1/admin/support/tickets/${ticket.id}/close`);
    expect(closed.json().data).toMatchObject({ status: 'closed', closed_by: 'team' });
    const read = await call(student, 'GET', `/api/v1/support/tickets/${ticket.id}`);
    expect(read.json().data.ticket).toMatchObject({ status: 'closed', closed_by: 'team' });
    const sent = await call(student, 'POST', `/api/v1/support/tickets/${ticket.id}/messages`, { body: 'hello?' });
    expect(sent.json().error.message).toBe(SUPPORT_MESSAGES.ticket_closed);
    const reply = await call(admin, 'POST', `/api/v1/admin/support/tickets/${ticket.id}/messages`, { body: 'late' });
    expect(reply.statusCode).toBe(409);
  });

  it('attaches only the student’s own documents', async () => {
    const { ticket } = await openTicket();
    const foreign = await call(student, 'POST', `/api/v1/support/tickets/${ticket.id}/messages`, {
      body: 'see attached',
      document_id: randomUUID(),
    });
    expect(foreign.statusCode).toBe(400);
    const documents = await call(student, 'GET', '/api/v1/support/documents');
    expect(documents.json().data).toEqual([]);
  });

  it('pages messages oldest first, with a cursor to the older ones', async () => {
    const { ticket } = await openTicket(student, 'message 0');
    await testApp.db.insert(supportMessages).values(
      Array.from({ length: MESSAGE_PAGE_SIZE + 4 }, (_, i) => ({
        ticket_id: ticket.id,
        sender_side: 'student' as const,
        sender_id: student.id,
        body: `message ${i + 1}`,
        created_at: new Date(Date.now() + (i + 1) * 1000).toISOString(),
      })),
    );
    const first = (await call(student, 'GET', `/api/v1/support/tickets/${ticket.id}`)).json().data;
    expect(first.messages).toHaveLength(MESSAGE_PAGE_SIZE);
    expect(first.messages.at(-1).body).toBe(`message ${MESSAGE_PAGE_SIZE + 4}`);
    expect(first.older_cursor).not.toBeNull();
    const older = (
      await call(student, 'GET', `/api/v1/support/tickets/${ticket.id}?before=${first.older_cursor}`)
    ).json().data;
    expect(older.messages.map((m: { body: string }) => m.body)).toEqual([
      'message 0',
      'message 1',
      'message 2',
      'message 3',
      'message 4',
    ]);
    expect(older.older_cursor).toBeNull();
  });

  it('rate limits messages per user', async () => {
    const sender = await signInAs(testApp.app, 'student');
    const { ticket } = await openTicket(sender);
    const [row] = await testApp.db
      .select()
      .from(rateLimits)
      .where(eq(rateLimits.key, `${MESSAGE_LIMIT.name}:${sender.id}`));
    expect(row?.count).toBe(1);
    await testApp.db
      .update(rateLimits)
      .set({ count: MESSAGE_LIMIT.max })
      .where(eq(rateLimits.key, `${MESSAGE_LIMIT.name}:${sender.id}`));
    const response = await call(sender, 'POST', `/api/v1/support/tickets/${ticket.id}/messages`, { body: 'one more' });
    expect(response.statusCode).toBe(429);
    const stored = await testApp.db.select().from(supportMessages).where(eq(supportMessages.ticket_id, ticket.id));
    expect(stored).toHaveLength(1);
  });
});

describe('support team inbox', () => {
  it('lists open and closed tickets, searches, and counts unread', async () => {
    const { ticket } = await openTicket(student, 'Scholarship question about zebra-stripes');
    const open = (await call(admin, 'GET', '/api/v1/admin/support/tickets?status=open')).json().data;
    const row = open.items.find((t: { id: string }) => t.id === ticket.id);
    expect(row).toMatchObject({ status: 'open', unread: 1, student_name: 'Test Student' });
    const closed = (await call(admin, 'GET', '/api/v1/admin/support/tickets?status=closed')).json().data;
    expect(closed.items.map((t: { id: string }) => t.id)).not.toContain(ticket.id);
    const search = (await call(admin, 'GET', `/api/v1/admin/support/tickets?q=${student.email}`)).json().data;
    expect(search.items.map((t: { id: string }) => t.id)).toContain(ticket.id);
    const miss = (await call(admin, 'GET', '/api/v1/admin/support/tickets?q=nothing-matches-this')).json().data;
    expect(miss.total).toBe(0);
  });

  it('replies, and read receipts reach each side', async () => {
    const { ticket } = await openTicket();
    const reply = await call(admin, 'POST', `/api/v1/admin/support/tickets/${ticket.id}/messages`, {
      body: 'We are on it',
    });
    expect(reply.json().data).toMatchObject({ sender_side: 'team', body: 'We are on it' });
    const seen = (await call(student, 'GET', `/api/v1/support/tickets/${ticket.id}`)).json().data.ticket;
    expect(seen.unread).toBe(1);
    const read = (await call(student, 'POST', `/api/v1/support/tickets/${ticket.id}/read`)).json().data;
    expect(read.unread).toBe(0);
    const teamView = (await call(admin, 'GET', `/api/v1/admin/support/tickets/${ticket.id}`)).json().data.ticket;
    expect(teamView.other_read_at).not.toBeNull();
  });

  it('assigns to self, to another admin, and to nobody; refuses non-admins', async () => {
    const { ticket } = await openTicket();
    const colleague = await signInAs(testApp.app, 'admin');
    const url = `/api/v1/admin/support/tickets/${ticket.id}/assign`;
    expect((await call(admin, 'POST', url, { admin_id: admin.id })).json().data.assigned_to).toBe(admin.id);
    const mine = (await call(admin, 'GET', '/api/v1/admin/support/tickets?mine=true')).json().data;
    expect(mine.items.map((t: { id: string }) => t.id)).toContain(ticket.id);
    expect((await call(admin, 'POST', url, { admin_id: colleague.id })).json().data).toMatchObject({
      assigned_to: colleague.id,
      assigned_name: 'Test Admin',
    });
    expect((await call(admin, 'POST', url, { admin_id: student.id })).statusCode).toBe(400);
    expect((await call(admin, 'POST', url, { admin_id: null })).json().data.assigned_to).toBeNull();
    const agents = (await call(admin, 'GET', '/api/v1/admin/support/agents')).json().data;
    expect(agents.map((a: { id: string }) => a.id)).toEqual(expect.arrayContaining([admin.id, colleague.id]));
  });

  it('answers 404 for a ticket that does not exist', async () => {
    const response = await call(admin, 'GET', `/api/v1/admin/support/tickets/${randomUUID()}`);
    expect(response.statusCode).toBe(404);
  });

  it('does not let a close race a reply onto a closed ticket', async () => {
    const { ticket } = await openTicket();
    const [closed, sent] = await Promise.all([
      call(admin, 'POST', `/api/v1/admin/support/tickets/${ticket.id}/close`),
      call(student, 'POST', `/api/v1/support/tickets/${ticket.id}/messages`, { body: 'racing' }),
    ]);
    expect(closed.statusCode).toBe(200);
    const [row] = await testApp.db.select().from(supportTickets).where(eq(supportTickets.id, ticket.id));
    const messages = await testApp.db.select().from(supportMessages).where(eq(supportMessages.ticket_id, ticket.id));
    // Either the message landed before the close, or it was refused: never stored after it.
    if (sent.statusCode === 201) expect(messages).toHaveLength(2);
    else expect(messages).toHaveLength(1);
    expect(row?.status).toBe('closed');
  });
});

describe('who may call the support routes', () => {
  const id = '00000000-0000-4000-8000-000000000000';
  it.each([
    { method: 'GET', url: '/api/v1/support/tickets' },
    { method: 'POST', url: '/api/v1/support/tickets', payload: { body: 'hi' } },
    { method: 'GET', url: '/api/v1/support/documents' },
    { method: 'POST', url: `/api/v1/support/tickets/${id}/resolve` },
  ] as const)('$method $url is for students', async (route) => {
    await expectAccess(testApp.app, route, {
      anonymous: 401,
      staff: 403,
      admin: 403,
      student: route.method === 'GET' ? 200 : route.url.endsWith('resolve') ? 404 : 201,
    });
  });

  it.each([
    { method: 'GET', url: '/api/v1/admin/support/tickets' },
    { method: 'GET', url: '/api/v1/admin/support/agents' },
    { method: 'POST', url: `/api/v1/admin/support/tickets/${id}/close` },
    { method: 'POST', url: `/api/v1/admin/support/tickets/${id}/assign`, payload: { admin_id: null } },
    { method: 'POST', url: `/api/v1/admin/support/tickets/${id}/messages`, payload: { body: 'hi' } },
  ] as const)('$method $url is for admins', async (route) => {
    await expectAccess(testApp.app, route, {
      anonymous: 401,
      staff: 403,
      student: 403,
      admin: route.method === 'GET' ? 200 : 404,
    });
  });
});
