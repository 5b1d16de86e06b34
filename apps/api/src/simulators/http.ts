import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/*
 * What every payment simulator's HTTP side shares: a constant-time secret check, a JSON answer, a bounded
 * JSON or text body, and one header's value. Each simulator keeps its own routes and provider's shapes.
 */

/** A request body a provider's API would take: anything far bigger is refused. */
export const MAX_BODY = 64 * 1024;

/** Whether `given` is the secret, compared in constant time (a missing or non-text value is not). */
export function sameSecret(given: unknown, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Answers `status` with `body` as JSON, or with no body at all. */
export function send(res: ServerResponse, status: number, body?: object): void {
  if (body === undefined) {
    res.writeHead(status).end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) }).end(text);
}

/** The request's body as text, up to MAX_BODY (more throws). */
export async function readText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new Error('body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The request's JSON body, null when empty (malformed JSON throws). */
export async function readBody(req: IncomingMessage): Promise<unknown> {
  const text = await readText(req);
  return text === '' ? null : JSON.parse(text);
}

/** One header's value (the first when sent twice). */
export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Whether the API answers (`normal`), answers 503 to everything, answers 429 to everything (the provider's
 * rate limit, reached), or drops every connection (`close`).
 */
export type SimulatorMode = 'normal' | '503' | '429' | 'close';

export function isSimulatorMode(value: unknown): value is SimulatorMode {
  return value === 'normal' || value === '503' || value === '429' || value === 'close';
}

export interface ListeningSimulator {
  url: string;
  /** Stops listening and drops the connections still open (keep-alive sockets would hold it up). */
  close(): Promise<void>;
}

/**
 * Serves `route` on `host:port` (an ephemeral port by default). A route that throws is answered 500 by
 * `internalError`, in the provider's own error shape, when no answer has started.
 */
export async function listenSimulator(
  route: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  internalError: (res: ServerResponse) => void,
  options: { host?: string; port?: number },
): Promise<ListeningSimulator> {
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    route(req, res).catch(() => {
      if (!res.headersSent) internalError(res);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
