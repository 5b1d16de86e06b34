import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { GENERIC_MESSAGES } from '@kaminuza/shared';
import { AppError } from './errors.ts';

// With the `u` flag a paired surrogate reads as one character, so \p{Cs} matches only lone halves.
// eslint-disable-next-line no-control-regex
const UNSAFE_CHARACTER = /[\u0000\p{Cs}]/u;

/**
 * Text PostgreSQL cannot store as sent: a NUL (U+0000) is refused by every text and jsonb column
 * ("invalid byte sequence for encoding UTF8: 0x00"), and a lone UTF-16 surrogate is not a character at
 * all (the drivers would silently store U+FFFD in its place).
 */
export function isSafeText(text: string): boolean {
  return !UNSAFE_CHARACTER.test(text);
}

/** More issues than this say nothing new to the caller; the walk stops there. */
const MAX_ISSUES = 20;

/** A place in a value: its key and the place holding it, so the path is only spelled out when reported. */
interface Place {
  key: string;
  parent: Place | null;
}

function pathOf(place: Place | null): string {
  const keys: string[] = [];
  for (let current = place; current; current = current.parent) keys.push(current.key);
  return keys.reverse().join('.');
}

/**
 * Whether any string in a parsed value (keys included) is unsafe: the check every request pays, so it
 * allocates nothing but its stack of values. Iterative, so a body nested thousands of levels deep cannot
 * exhaust the stack.
 */
function hasUnsafeText(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current === 'string') {
      if (!isSafeText(current)) return true;
    } else if (Array.isArray(current)) {
      for (const item of current) pending.push(item);
    } else if (isPlainRecord(current)) {
      for (const key in current) {
        if (!Object.hasOwn(current, key)) continue;
        if (!isSafeText(key)) return true;
        pending.push(current[key]);
      }
    }
  }
  return false;
}

/**
 * The paths (`address.city`, `items.2.name`) of every unsafe string in a parsed value, keys included.
 * Iterative, so a body nested thousands of levels deep cannot exhaust the stack.
 */
export function unsafeTextPaths(value: unknown): string[] {
  if (!hasUnsafeText(value)) return [];
  const found: string[] = [];
  const pending: Array<{ value: unknown; place: Place | null }> = [{ value, place: null }];
  while (pending.length > 0 && found.length < MAX_ISSUES) {
    const { value: current, place } = pending.pop()!;
    if (typeof current === 'string') {
      if (!isSafeText(current)) found.push(pathOf(place));
    } else if (Array.isArray(current)) {
      current.forEach((item, index) => pending.push({ value: item, place: { key: String(index), parent: place } }));
    } else if (isPlainRecord(current)) {
      for (const [key, item] of Object.entries(current)) {
        const at = { key, parent: place };
        if (!isSafeText(key)) found.push(pathOf(at));
        else pending.push({ value: item, place: at });
      }
    }
  }
  return found;
}

/*
 * Parsed JSON and headers are plain records; a parsed query string's prototype is an empty object without
 * one. A Buffer or stream body (payment callbacks, file uploads) is checked where it is decoded.
 */
function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null || Object.getPrototypeOf(prototype) === null;
}

/** The failure answered for unsafe text, shaped like a failed Zod schema: one issue per field. */
function unsafeTextError(paths: string[]): AppError {
  return new AppError(
    'INVALID_ARGUMENT',
    GENERIC_MESSAGES.check_input,
    paths.map((path) => ({ path, message: GENERIC_MESSAGES.check_input })),
  );
}

/** Throws the 400 of unsafe text if any string in the value (or any of its keys) is unsafe. */
export function assertSafeText(value: unknown): void {
  const paths = unsafeTextPaths(value);
  if (paths.length > 0) throw unsafeTextError(paths);
}

function checkRequest(request: FastifyRequest): void {
  const paths = [
    ...unsafeTextPaths(request.params),
    ...unsafeTextPaths(request.query),
    ...unsafeTextPaths(request.body),
    // Headers over HTTP cannot carry a NUL (Node refuses them), but injected and proxied ones might, and
    // some (User-Agent) are stored with the session.
    ...unsafeTextPaths(request.headers),
  ];
  if (paths.length > 0) throw unsafeTextError(paths.slice(0, MAX_ISSUES));
}

/**
 * Every request's path parameters, query, parsed body and headers are checked for unsafe text before
 * any schema, guard or handler sees them. An app-level hook rather than a step of each route's schema:
 * it also covers routes and parts that declare no schema, so no route can forget it.
 */
export const safeInput = fp(
  async (app) => {
    app.addHook('preValidation', async (request) => checkRequest(request));
  },
  { name: 'safe-input' },
);
