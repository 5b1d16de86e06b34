import type { AddressInfo } from 'node:net';
import nodemailer, { type Transporter } from 'nodemailer';
import type { AddressObject, ParsedMail } from 'mailparser';

export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** A stable Message-ID, so a message retried after a crash can be recognised as the same one. */
  messageId?: string;
  headers?: Record<string, string>;
}

/** Sends over SMTP: a real server (SMTP_URL) or the in-process dev mailbox server. */
export interface Mailer {
  readonly kind: 'smtp' | 'dev-mailbox';
  send(mail: OutgoingMail): Promise<{ messageId: string }>;
  close(): Promise<void>;
}

/** What the dev mailbox server received, parsed. */
export interface ReceivedMail {
  envelopeTo: string[];
  messageId: string | null;
  from: string;
  to: string;
  subject: string;
  html: string | null;
  text: string | null;
  headers: { name: string; value: string }[];
}

const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/**
 * Connections kept open and reused, as bulk senders do: a new connection per message costs a TCP (and TLS)
 * handshake and the greeting, several round trips and, on deadline day, more CPU than the message itself.
 * At most as many connections as the email job's concurrency, and a fresh one now and then (maxMessages).
 * A connection the server closes while idle is dropped from the pool; a message caught by such a close
 * fails and its job retries it.
 */
const POOL = { pool: true, maxConnections: 4, maxMessages: 100 } as const;
const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

function wrap(kind: Mailer['kind'], transport: Transporter, onClose?: () => Promise<void>): Mailer {
  return {
    kind,
    async send(mail) {
      const info = await transport.sendMail(mail);
      return { messageId: info.messageId };
    },
    async close() {
      transport.close();
      await onClose?.();
    },
  };
}

/** A real SMTP server, e.g. `smtps://user:pass@mail.example:465` or `smtp://mail.example:587`. */
export function createSmtpMailer(url: string): Mailer {
  return wrap('smtp', nodemailer.createTransport({ url, ...POOL, ...TIMEOUTS }));
}

/**
 * The default mode's transport: an SMTP server on a loopback port of this process, reached through
 * nodemailer's ordinary SMTP transport, handing each message it receives to `onMessage` (which stores
 * it). A message is accepted only once `onMessage` has finished, so a storage failure is a send failure.
 * Its server and parser are development dependencies, loaded only here: production sends through SMTP_URL.
 */
export async function createDevMailboxMailer(onMessage: (mail: ReceivedMail) => Promise<void>): Promise<Mailer> {
  const [{ SMTPServer }, { simpleParser }] = await Promise.all([import('smtp-server'), import('mailparser')]);
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    banner: 'Kaminuza dev mailbox',
    size: MAX_MESSAGE_BYTES,
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then(async (parsed) => {
          if (stream.sizeExceeded) throw Object.assign(new Error('Message too large'), { responseCode: 552 });
          await onMessage(
            received(
              parsed,
              session.envelope.rcptTo.map((rcpt) => rcpt.address),
            ),
          );
        })
        .then(
          () => callback(),
          (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
        );
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.server.address() as AddressInfo;
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port,
    secure: false,
    ignoreTLS: true,
    ...POOL,
    ...TIMEOUTS,
  });
  return wrap('dev-mailbox', transport, () => new Promise<void>((resolve) => server.close(() => resolve())));
}

function addresses(value: AddressObject | AddressObject[] | undefined): string {
  if (!value) return '';
  return (Array.isArray(value) ? value : [value]).map((address) => address.text).join(', ');
}

function received(parsed: ParsedMail, envelopeTo: string[]): ReceivedMail {
  return {
    envelopeTo,
    messageId: parsed.messageId ?? null,
    from: addresses(parsed.from),
    to: addresses(parsed.to) || envelopeTo.join(', '),
    subject: parsed.subject ?? '',
    html: typeof parsed.html === 'string' ? parsed.html : null,
    text: parsed.text ?? null,
    headers: parsed.headerLines.map(({ line }) => {
      const colon = line.indexOf(':');
      return {
        name: colon === -1 ? line : line.slice(0, colon),
        value:
          colon === -1
            ? ''
            : line
                .slice(colon + 1)
                .replace(/\r?\n[ \t]+/g, ' ')
                .trim(),
      };
    }),
  };
}
