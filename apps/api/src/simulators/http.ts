import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

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
