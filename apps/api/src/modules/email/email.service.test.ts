import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { emailOutbox } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import { createTestDatabase } from '../../test/database.ts';
import { emailStatus, enqueueEmail, sendEmail } from './email.service.ts';

let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database.close();
});

const LINK = 'https://kaminuza.example/auth/verify-email?code=c0de';

async function row(id: string) {
  const [found] = await database.db.select().from(emailOutbox).where(eq(emailOutbox.id, id));
  return found;
}

describe('enqueueEmail', () => {
  it('stores the message rendered in the recipient language, pending and due now', async () => {
    const id = await enqueueEmail(database.db, {
      to: 'aline@example.com',
      template: 'email_verification',
      language: 'fr',
      data: { name: 'Aline', link: LINK, code: '111222' },
    });
    expect(await row(id)).toMatchObject({
      to: 'aline@example.com',
      from: 'no_reply',
      template: 'email_verification',
      language: 'fr',
      subject: 'Vérifiez votre adresse e-mail',
      status: 'pending',
      attempts: 0,
      last_error: null,
      data: { name: 'Aline', link: LINK, code: '111222' },
    });
    expect((await row(id))?.text).toContain(LINK);
    expect(await emailStatus(database.db, id)).toEqual({
      status: 'pending',
      attempts: 0,
      last_error: null,
      sent_at: null,
    });
  });

  it('sends the welcome from the info address and defaults an unknown language to English', async () => {
    const id = await enqueueEmail(database.db, { to: 'a@example.com', template: 'welcome', language: 'sw' });
    expect(await row(id)).toMatchObject({ from: 'info', language: 'en', subject: 'Welcome to Kaminuza' });
  });

  it('commits and rolls back with the caller transaction', async () => {
    const kept = await database.db.transaction((tx) =>
      enqueueEmail(tx, { to: 'kept@example.com', template: 'welcome' }),
    );
    expect(await row(kept)).toBeDefined();

    let dropped = '';
    await expect(
      database.db.transaction(async (tx) => {
        dropped = await enqueueEmail(tx, { to: 'dropped@example.com', template: 'welcome' });
        throw new Error('account creation failed');
      }),
    ).rejects.toThrow('account creation failed');
    expect(dropped).not.toBe('');
    expect(await row(dropped)).toBeUndefined();
  });
});

describe('sendEmail (the spec call)', () => {
  const valid = {
    type: 'template',
    templateOrSubject: 'password_reset',
    emailData: {
      name: 'Grace',
      link: 'https://kaminuza.example/reset-password?token=t',
      operating_system: 'macOS',
      browser_name: 'Safari',
    },
    to: 'grace@example.com',
    language: 'rw',
  };

  it('enqueues a template with the spec payload', async () => {
    const { id } = await sendEmail(database.db, valid);
    expect(await row(id)).toMatchObject({
      to: 'grace@example.com',
      template: 'password_reset',
      language: 'rw',
      subject: "Hindura ijambo ry'ibanga rya Kaminuza",
    });
    expect((await row(id))?.text).toContain('Muraho Grace,');
  });

  it('enqueues a free subject with an escaped body from the info address', async () => {
    const { id } = await sendEmail(database.db, {
      type: 'custom',
      templateOrSubject: 'About your ticket',
      emailData: { text: 'We replied <b>here</b>.' },
      to: 'student@example.com',
    });
    const stored = await row(id);
    expect(stored).toMatchObject({ template: 'custom', from: 'info', subject: 'About your ticket' });
    expect(stored?.html).toContain('We replied &lt;b&gt;here&lt;/b&gt;.');
  });

  it.each([
    ['no payload', undefined],
    ['an unknown type', { ...valid, type: 'sms' }],
    ['an unknown template', { ...valid, templateOrSubject: 'newsletter' }],
    ['a bad recipient', { ...valid, to: 'not-an-email' }],
    ['a reset without its link', { ...valid, emailData: { name: 'Grace' } }],
    ['a non-http link', { ...valid, emailData: { link: 'javascript:alert(1)' } }],
    [
      'generateVerificationCode without a link',
      { ...valid, templateOrSubject: 'welcome', emailData: {}, generateVerificationCode: true },
    ],
    ['an unknown sender', { ...valid, from: 'ceo@evil.example' }],
    ['a custom email without a body', { type: 'custom', templateOrSubject: 'Hi', emailData: {}, to: 'a@example.com' }],
  ])('refuses %s with invalid-argument and the spec message', async (_label, payload) => {
    const before = await database.db.$count(emailOutbox);
    const error = await sendEmail(database.db, payload).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      status: 'INVALID_ARGUMENT',
      httpStatus: 400,
      message: 'Please check your input and try again.',
    });
    expect((error as AppError).details).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: expect.any(String) })]),
    );
    expect(await database.db.$count(emailOutbox)).toBe(before);
  });

  it('answers the spec "Failed to send …" message when the message cannot be stored', async () => {
    const error = await database.db
      .transaction(async (tx) => {
        // An aborted transaction refuses the insert, as a lost connection would.
        await tx.execute('select 1/0').catch(() => undefined);
        await sendEmail(tx, { ...valid, templateOrSubject: 'email_verification' });
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ status: 'INTERNAL', message: 'Failed to send verification email' });
  });
});
