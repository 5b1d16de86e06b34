import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailSink, type MailSink } from '../test/mail-sink.ts';
import { createSmtpMailer, type Mailer } from './mailer.ts';

const message = (n: number) => ({
  from: 'Kaminuza <info@kaminuza.test>',
  to: `applicant${n}@example.com`,
  subject: `Message ${n}`,
  text: `Hello ${n}`,
  html: `<p>Hello ${n}</p>`,
});

describe('sending over SMTP', () => {
  let sink: MailSink;
  let mailer: Mailer;

  beforeAll(async () => {
    sink = await startMailSink();
    mailer = createSmtpMailer(sink.url);
  });
  afterAll(async () => {
    await mailer.close();
    await sink.close();
  });

  it('keeps its connections open for the next messages, at most four at once', async () => {
    for (let n = 0; n < 3; n++) await mailer.send(message(n));
    expect(sink.received()).toBe(3);
    expect(sink.connections()).toBe(1);

    await Promise.all(Array.from({ length: 12 }, (_, n) => mailer.send(message(3 + n))));
    expect(sink.received()).toBe(15);
    expect(sink.connections()).toBeLessThanOrEqual(4);
    expect(sink.recipients().flat()).toEqual(
      expect.arrayContaining(Array.from({ length: 15 }, (_, n) => `applicant${n}@example.com`)),
    );
  });

  it('opens a new connection when the server closed an idle one, and the message goes', async () => {
    const strict = await startMailSink({ idleTimeoutMs: 500 });
    const sender = createSmtpMailer(strict.url);
    try {
      await sender.send(message(0));
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      await sender.send(message(1));
      expect(strict.received()).toBe(2);
      expect(strict.connections()).toBe(2);
    } finally {
      await sender.close();
      await strict.close();
    }
  });
});
