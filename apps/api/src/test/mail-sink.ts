/**
 * A mail server that accepts every message and keeps none but its recipients: where an api in a process of
 * its own sends its emails (the deadline-day bench, the background jobs test), as
 * production sends them to a mail server outside the process.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface MailSink {
  url: string;
  /** Messages accepted so far. */
  received: () => number;
  /** SMTP connections opened to it so far. */
  connections: () => number;
  /** The recipients of each message accepted, in order. */
  recipients: () => string[][];
  close: () => Promise<void>;
}

/** `idleTimeoutMs`: how long it keeps a quiet connection open before closing it, as servers do (60 s). */
export async function startMailSink({ idleTimeoutMs = 60_000 }: { idleTimeoutMs?: number } = {}): Promise<MailSink> {
  let received = 0;
  let connections = 0;
  const recipients: string[][] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    socketTimeout: idleTimeoutMs,
    onConnect(_session, callback) {
      connections++;
      callback();
    },
    onData(stream, session, callback) {
      stream.resume();
      stream.on('end', () => {
        received++;
        recipients.push(session.envelope.rcptTo.map((rcpt) => rcpt.address));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received: () => received,
    connections: () => connections,
    recipients: () => recipients.map((to) => [...to]),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
