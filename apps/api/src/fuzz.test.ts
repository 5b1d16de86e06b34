import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { eq } from 'drizzle-orm';
import type { App } from './app.ts';
import type { Database } from './db/client.ts';
import {
  applications,
  campuses,
  cycles,
  documents,
  forms,
  partners,
  programs,
  staff,
  students,
} from './db/schema/index.ts';
import { readyInstitution } from './modules/applications/test-helpers.ts';
import { submittedApplication } from './modules/review/test-helpers.ts';
import { PAYMENT_SIGNATURE_HEADER } from '@kaminuza/shared';
import { signCallback } from './modules/payments/providers/signature.ts';
import { createTestApp, testEnv, TEST_PUBLIC_URL } from './test/app.ts';
import { signInAs } from './test/auth.ts';
import { createTestDatabase } from './test/database.ts';

/*
 * Every operation of the api's own OpenAPI document, sent requests built from its schema with hostile
 * values, as each kind of caller. Nothing may answer 5xx, and the server must still answer /health.
 *
 * Bounded: FUZZ_RUNS requests per operation and caller (default 3); FUZZ_SEED replays a run.
 */
const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const RUNS = Number(process.env.FUZZ_RUNS ?? 3);

type Role = 'anonymous' | 'student' | 'staff' | 'admin';
const ROLES: Role[] = ['anonymous', 'student', 'staff', 'admin'];

/*
 * Operations sent separately rather than from their schema, each for its reason. Nothing else is left out.
 * - The tus upload protocol (POST/HEAD/PATCH/DELETE /uploads…) is not JSON: its input is in headers
 *   (Upload-Metadata, Upload-Length, Upload-Offset) and a byte body. Fuzzed below with hostile headers.
 * - The realtime websocket (/api/v1/realtime) is hidden from the document; it reads no client messages,
 *   and its upgrade is fuzzed below.
 * - The payment provider's callback takes the exact bytes the provider signed; fuzzed below with raw bodies.
 * Routes hidden from the document besides the socket serve files and take no input that reaches the
 * database: the built web app's pages and assets (not served by a test app) and the API docs' viewer.
 * Paths nobody serves are fuzzed below too.
 */
const SEPARATE = new Set([
  'POST /api/v1/uploads',
  'HEAD /api/v1/uploads/{*}',
  'PATCH /api/v1/uploads/{*}',
  'DELETE /api/v1/uploads/{*}',
  'POST /api/v1/payments/callbacks/{provider}',
]);

/*
 * Operations that end the caller's session or account run last, so the other operations are sent as
 * that caller while it still exists.
 */
const LAST = ['POST /api/v1/auth/sign-out', 'POST /api/v1/me/deletion', 'POST /api/v1/me/password'];

interface JsonSchema {
  type?: string | string[];
  format?: string;
  pattern?: string;
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  nullable?: boolean;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

interface Parameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  required?: boolean;
  schema: JsonSchema;
}

interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
  body: JsonSchema | null;
}

/* ---------------------------------------------------------------- hostile values */

const MEGABYTE = 1024 * 1024;
const hostileText = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    'ab\u0000cd',
    '\u0000',
    '\ud800',
    'x\udfffy',
    '\udc00\ud800',
    'invoice\u202egpj.exe',
    '\u202d\u2066\u2069',
    '😀👩🏽‍🎓🇷🇼',
    'Élodie Ñandú İstanbul',
    '\r\nX-Injected: 1',
    '../../../etc/passwd',
    '%00%ff',
    "'; select pg_sleep(5); --",
    '\\',
    '%_\\%',
    'NaN',
    'Infinity',
    '-0',
    '1e309',
    '9007199254740993',
    '-1',
    '0x1F',
    'null',
    'true',
    '{}',
    '[]',
    '2024-02-30',
    '0000-00-00',
    '99999-12-31',
    '2024-01-01T25:61:00Z',
    '00000000-0000-0000-0000-000000000000',
    'ffffffff-ffff-ffff-ffff-ffffffffffff',
  ),
  fc.constant('x'.repeat(MEGABYTE)),
  fc.constant('é'.repeat(70_000)),
  fc.string({ unit: 'binary', maxLength: 40 }),
  // Any UTF-16 unit, so lone surrogates in the middle of text.
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)), maxLength: 40 }),
);

const edgeNumber = fc.oneof(
  fc.constantFrom(
    0,
    -0,
    -1,
    1,
    0.5,
    -0.5,
    1e-7,
    2 ** 15,
    2 ** 31 - 1,
    2 ** 31,
    -(2 ** 31) - 1,
    2 ** 53,
    -(2 ** 53),
    2 ** 63,
    1e21,
    1e308,
    -1e308,
    Number.MIN_VALUE,
  ),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

const deepJsonText = fc.constantFrom(
  `${'['.repeat(50_000)}${']'.repeat(50_000)}`,
  `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`,
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{"admin":true}}}',
  '{',
  '',
  'null',
  '[]',
  '"\\u0000"',
  '{"a":"\\ud800"}',
);

function deepValue(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let level = 0; level < depth; level++) value = level % 2 ? [value] : { nested: value };
  return value;
}

/** A value of any type: what a client sends when it ignores the schema. */
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  edgeNumber,
  hostileText,
  fc.constant([]),
  fc.constant({}),
  fc.constant(deepValue(500)),
  fc.array(hostileText, { maxLength: 3 }),
  fc.dictionary(hostileText, hostileText, { maxKeys: 3 }),
);

/* ---------------------------------------------------------------- values from the schema */

interface IdPool {
  /** Real ids of the caller's own records, by the parameter names that take them. */
  byName: Map<string, string[]>;
}

/*
 * Two kinds of request: hostile ones, where any value may be of any type and any text hostile, and
 * fitting ones, where the request matches its schema (real ids of the caller's own records, numbers in
 * range) except for the odd hostile text, so it gets past validation to the service and the database.
 */
type Mode = 'hostile' | 'fitting';

interface Context {
  ids: IdPool;
  mode: Mode;
}

function stringPattern(pattern: string): fc.Arbitrary<string> | null {
  try {
    return fc.stringMatching(new RegExp(pattern));
  } catch {
    return null;
  }
}

function typeOf(schema: JsonSchema): string | undefined {
  return Array.isArray(schema.type) ? schema.type.find((type) => type !== 'null') : schema.type;
}

function valueFor(schema: JsonSchema, context: Context, name: string, depth = 0): fc.Arbitrary<unknown> {
  const fitting = fittingValue(schema, context, name, depth);
  if (context.mode === 'fitting') return fitting;
  return fc.oneof({ arbitrary: fitting, weight: 5 }, { arbitrary: anyValue, weight: 1 });
}

function fittingValue(schema: JsonSchema, context: Context, name: string, depth: number): fc.Arbitrary<unknown> {
  if (depth > 6) return anyValue;
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives && alternatives.length > 0) {
    return fc.oneof(...alternatives.map((part) => fittingValue(part, context, name, depth + 1)));
  }
  if (schema.allOf && schema.allOf.length > 0) {
    const merged: JsonSchema = { type: 'object', properties: {}, required: [] };
    for (const part of schema.allOf) {
      Object.assign(merged.properties!, part.properties ?? {});
      merged.required!.push(...(part.required ?? []));
    }
    return fittingValue(merged, context, name, depth + 1);
  }
  const nullable = schema.nullable || (Array.isArray(schema.type) && schema.type.includes('null'));
  const value = typedValue(schema, context, name, depth);
  return nullable ? fc.oneof({ arbitrary: value, weight: 3 }, { arbitrary: fc.constant(null), weight: 1 }) : value;
}

function typedValue(schema: JsonSchema, context: Context, name: string, depth: number): fc.Arbitrary<unknown> {
  const fitting = context.mode === 'fitting';
  switch (typeOf(schema)) {
    case 'string':
      return stringValue(schema, context, name);
    case 'integer': {
      const min = Math.max(schema.minimum ?? -(2 ** 31), Number.MIN_SAFE_INTEGER);
      const max = Math.min(schema.maximum ?? 2 ** 31, Number.MAX_SAFE_INTEGER);
      const inRange = fc.oneof(fc.integer({ min, max }), fc.constantFrom(min, max));
      return fitting ? inRange : fc.oneof(inRange, edgeNumber);
    }
    case 'number': {
      const min = schema.minimum ?? -1e308;
      const max = schema.maximum ?? 1e308;
      const inRange = fc.oneof(
        fc.double({ min, max, noNaN: true, noDefaultInfinity: true }),
        fc.constantFrom(min, max),
      );
      return fitting ? inRange : fc.oneof(inRange, edgeNumber);
    }
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(valueFor(schema.items ?? {}, context, name, depth + 1), { maxLength: 4 });
    case 'object':
      return objectValue(schema, context, depth);
    default:
      return anyValue;
  }
}

/** Text a person might really type: accents, emoji, right-to-left marks, as long as the field allows. */
function typedText(schema: JsonSchema): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = Math.max(min, Math.min(schema.maxLength ?? 80, 4000));
  const fit = (text: string) => text.padEnd(min, 'a').slice(0, max);
  return fc.oneof(
    fc.string({ minLength: min, maxLength: Math.min(max, 80) }),
    fc.constantFrom('Élodie Uwase', 'Kigali', '😀👩🏽‍🎓', 'مرحبا\u202ebad', '+250788123456', 'a'.repeat(max)).map(fit),
  );
}

function stringValue(schema: JsonSchema, context: Context, name: string): fc.Arbitrary<string> {
  const own = context.ids.byName.get(name) ?? [];
  const choices: Array<{ arbitrary: fc.Arbitrary<string>; weight: number }> = [];
  const add = (arbitrary: fc.Arbitrary<string>, weight = 2) => choices.push({ arbitrary, weight });
  add(hostileText, context.mode === 'fitting' ? 1 : 3);
  if (own.length > 0) add(fc.constantFrom(...own), 6);
  if (schema.format === 'uuid') add(fc.uuid());
  else if (schema.format === 'date')
    add(
      fc
        .date({ noInvalidDate: true, min: new Date('1900-01-01'), max: new Date('2100-12-31') })
        .map((date) => date.toISOString().slice(0, 10)),
    );
  else if (schema.format === 'date-time')
    add(
      fc
        .date({ noInvalidDate: true, min: new Date('1900-01-01'), max: new Date('2100-12-31') })
        .map((date) => date.toISOString()),
    );
  else if (schema.format === 'email' || /email/i.test(name)) {
    add(fc.emailAddress());
    add(fc.stringMatching(/^[a-z]{2,12}(\+[a-z0-9]{1,6})?@[a-z]{3,10}\.example$/), 4);
  } else if (schema.pattern) {
    const matching = stringPattern(schema.pattern);
    if (matching) add(matching, 4);
  } else add(typedText(schema), 4);
  return fc.oneof(...choices);
}

function objectValue(schema: JsonSchema, context: Context, depth: number): fc.Arbitrary<unknown> {
  const properties = Object.entries(schema.properties ?? {});
  const required = new Set(schema.required ?? []);
  const shape = Object.fromEntries(properties.map(([key, part]) => [key, valueFor(part, context, key, depth + 1)]));
  const record = fc.record(shape, { requiredKeys: properties.map(([key]) => key).filter((key) => required.has(key)) });
  if (context.mode === 'fitting') return record;
  // Sometimes a required field is missing, sometimes there are fields nobody asked for.
  return fc
    .tuple(
      record,
      fc.dictionary(hostileText, anyValue, { maxKeys: 2 }),
      fc.option(fc.constantFrom(...(properties.length > 0 ? properties.map(([key]) => key) : ['none']))),
    )
    .map(([value, extra, drop]) => {
      const result: Record<string, unknown> = { ...(value as object) };
      for (const [key, item] of Object.entries(extra)) if (!(key in result)) result[key] = item;
      if (drop !== null) delete result[drop];
      return result;
    });
}

/* ---------------------------------------------------------------- requests */

interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
}

function requestFor(operation: Operation, ids: IdPool): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(requestOf(operation, { ids, mode: 'hostile' }), requestOf(operation, { ids, mode: 'fitting' }));
}

function requestOf(operation: Operation, context: Context): fc.Arbitrary<FuzzRequest> {
  const hostile = context.mode === 'hostile';
  const path = operation.parameters.filter((parameter) => parameter.in === 'path');
  const query = operation.parameters.filter((parameter) => parameter.in === 'query');
  const headers = operation.parameters.filter((parameter) => parameter.in === 'header');
  const optional = (parameter: Parameter, freq: number) =>
    parameter.required && !hostile
      ? valueFor(parameter.schema, context, parameter.name)
      : fc.option(valueFor(parameter.schema, context, parameter.name), { freq });
  const pathValues = fc.tuple(...path.map((parameter) => valueFor(parameter.schema, context, parameter.name)));
  const queryValues = fc.tuple(...query.map((parameter) => optional(parameter, hostile ? 2 : 3)));
  const headerValues = fc.tuple(...headers.map((parameter) => optional(parameter, 3)));
  const json = operation.body
    ? valueFor(operation.body, context, 'body').map((value) => JSON.stringify(value) ?? 'null')
    : fc.constant(undefined);
  const body: fc.Arbitrary<string | undefined> = hostile
    ? fc.oneof({ arbitrary: json, weight: 4 }, { arbitrary: deepJsonText, weight: 1 })
    : json;

  return fc.tuple(pathValues, queryValues, headerValues, body).map(([pathParts, queryParts, headerParts, payload]) => {
    let url = operation.path;
    path.forEach((parameter, index) => {
      // A URL carries UTF-8: a lone surrogate cannot be sent in one (URLSearchParams replaces it the same way).
      const text = textOf(pathParts[index])
        .slice(0, 200)
        .replace(/\p{Cs}/gu, '\ufffd');
      url = url.replace(`{${parameter.name}}`, encodeURIComponent(text) || 'x');
    });
    const search = new URLSearchParams();
    query.forEach((parameter, index) => {
      const value = queryParts[index];
      if (value !== null && value !== undefined) search.append(parameter.name, textOf(value));
    });
    const requestHeaders: Record<string, string> = {};
    headers.forEach((parameter, index) => {
      const value = headerParts[index];
      if (value !== null && value !== undefined) requestHeaders[parameter.name] = textOf(value);
    });
    if (payload !== undefined) requestHeaders['content-type'] = 'application/json';
    const queryString = search.toString();
    return {
      method: operation.method,
      url: queryString ? `${url}?${queryString}` : url,
      headers: requestHeaders,
      ...(payload !== undefined ? { payload } : {}),
    };
  });
}

/** A request as printed on failure: long text cut, so a megabyte of input does not bury the report. */
function summary(request: FuzzRequest): string {
  const cut = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}… (${text.length} chars)` : text);
  return JSON.stringify({ ...request, url: cut(request.url), payload: request.payload && cut(request.payload) });
}

/* ---------------------------------------------------------------- the run */

let database: Database;
let app: App;
const callers = new Map<Role, { headers: Record<string, string>; ids: IdPool }>();
let sent = 0;

async function idsOf(query: Promise<Array<{ id: string }>> | Array<{ id: string }>): Promise<string[]> {
  return (await query).map((row) => row.id);
}

beforeAll(async () => {
  database = await createTestDatabase();
  app = await createTestApp(database);
  const { db } = database;

  // A staff member with every permission at an approved institution with admissions set up and one
  // submitted application; the student who submitted it (onboarded, with documents)…
  const institution = await readyInstitution(app, db);
  const { student, documents: docs, receipt } = await submittedApplication(app, db, institution);
  await db.update(students).set({ onboarding_step: 6 }).where(eq(students.user_id, student.id));
  // …and a draft at a second institution.
  const other = await readyInstitution(app, db);
  const started = await app.inject({
    method: 'POST',
    url: `/api/v1/partners/${other.partnerId}/application`,
    headers: student.headers,
    payload: { program_id: other.single.id },
  });
  expect(started.statusCode, started.body).toBeLessThan(300);
  const [record] = await db.select({ id: students.id }).from(students).where(eq(students.user_id, student.id));
  const applicationIds = await idsOf(
    db.select({ id: applications.id }).from(applications).where(eq(applications.student_id, record!.id)),
  );
  const admin = await signInAs(app, 'admin');
  // The admin acts on an institution of its own, so approving or rejecting leaves the staff's alone.
  const [pending] = await db
    .insert(partners)
    .values({
      slug: `fuzz-${randomBytes(4).toString('hex')}`,
      name: 'Fuzz Pending College',
      status: 'pending',
      address_city: 'Huye',
      address_country: 'RW',
      institution_type: 'private',
      year_established: 1999,
      region: 'africa',
      size: 'small',
      setting: 'rural',
    })
    .returning({ id: partners.id });

  const partnerId = institution.partnerId;
  const submissionIds = [receipt.id];
  const staffIds = await idsOf(db.select({ id: staff.id }).from(staff).where(eq(staff.partner_id, partnerId)));
  const staffPool = new Map<string, string[]>([
    ['partnerId', [partnerId]],
    ['submissionId', submissionIds],
    ['documentId', Object.values(docs)],
    ['cycleId', await idsOf(db.select({ id: cycles.id }).from(cycles).where(eq(cycles.partner_id, partnerId)))],
    ['cycle_id', [institution.cycleId]],
    ['programId', [institution.single.id, institution.double.id]],
    ['program_id', [institution.single.id, institution.double.id]],
    ['campusId', await idsOf(db.select({ id: campuses.id }).from(campuses).where(eq(campuses.partner_id, partnerId)))],
    ['campus_id', [institution.single.campusId]],
    ['formId', await idsOf(db.select({ id: forms.id }).from(forms).where(eq(forms.partner_id, partnerId)))],
    ['staffId', staffIds],
    ['ids', submissionIds],
    ['submission_ids', submissionIds],
  ]);
  const studentPool = new Map<string, string[]>([
    ['id', applicationIds],
    ['partnerId', [partnerId, other.partnerId]],
    ['partner_id', [partnerId, other.partnerId]],
    ['program_id', [institution.single.id, institution.double.id, other.single.id]],
    ['type', ['transcript', 'passport']],
    ['document_id', Object.values(docs)],
  ]);
  const adminPool = new Map<string, string[]>([
    ['id', [pending!.id]],
    ['partnerId', [partnerId]],
  ]);
  // Sanity: the pools hold real rows, or the fuzz would only ever reach "not found".
  expect(await db.$count(documents)).toBeGreaterThan(0);
  expect(await db.$count(programs, eq(programs.partner_id, partnerId))).toBeGreaterThan(0);

  callers.set('anonymous', { headers: {}, ids: { byName: new Map([['partnerId', [partnerId]]]) } });
  callers.set('student', { headers: student.headers, ids: { byName: studentPool } });
  callers.set('staff', { headers: institution.admin.headers, ids: { byName: staffPool } });
  callers.set('admin', { headers: admin.headers, ids: { byName: adminPool } });
}, 120_000);

afterAll(async () => {
  console.info(`fuzz: ${sent} requests sent in all (seed ${SEED})`);
  await app?.close();
  await database?.close();
});

function operationsOf(document: { paths: Record<string, Record<string, unknown>> }): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, raw] of Object.entries(methods)) {
      const operation = raw as {
        parameters?: Parameter[];
        requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
      };
      operations.push({
        method: method.toUpperCase(),
        path,
        parameters: operation.parameters ?? [],
        body: operation.requestBody?.content?.['application/json']?.schema ?? null,
      });
    }
  }
  const rank = (operation: Operation) => {
    const key = `${operation.method} ${operation.path}`;
    const last = LAST.indexOf(key);
    if (last >= 0) return 10 + last;
    return { GET: 0, HEAD: 0, POST: 1, PUT: 1, PATCH: 1, DELETE: 2 }[operation.method] ?? 3;
  };
  return operations.sort((a, b) => rank(a) - rank(b));
}

describe('hostile input over the whole api', () => {
  it('answers no request with 5xx and keeps serving', { timeout: 240_000 }, async () => {
    await app.ready();
    const document = app.swagger() as unknown as { paths: Record<string, Record<string, unknown>> };
    const operations = operationsOf(document).filter(
      (operation) => !SEPARATE.has(`${operation.method} ${operation.path}`),
    );
    expect(operations.length).toBeGreaterThan(150);
    const started = performance.now();

    let pair = 0;
    for (const operation of operations) {
      for (const role of ROLES) {
        // Each operation and caller gets its own seed, derived from the run's, so a failure replays alone.
        const seed = (SEED + pair++ * 7919) % 2 ** 31;
        const caller = callers.get(role)!;
        await fc.assert(
          fc.asyncProperty(requestFor(operation, caller.ids), async (request) => {
            sent += 1;
            const response = await app.inject({
              method: request.method as 'GET',
              url: request.url,
              headers: { ...caller.headers, ...request.headers },
              remoteAddress: `10.${randomBytes(3).join('.')}`,
              ...(request.payload !== undefined ? { payload: request.payload } : {}),
            });
            response.statusCode = 500;
            if (response.statusCode >= 500) {
              throw new Error(
                `${operation.method} ${operation.path} as ${role} answered ${response.statusCode} ${response.body.slice(0, 300)}\n${summary(request)}`,
              );
            }
          }),
          {
            seed,
            numRuns: RUNS,
            // Shrinking sends more requests to find the smallest failing one; bounded so a failure reports quickly.
            interruptAfterTimeLimit: 60_000,
            reporter: (details) => {
              if (!details.failed) return;
              const cause =
                details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
              throw new Error(
                `${cause}\nafter ${details.numShrinks} shrinks; replay with FUZZ_SEED=${SEED} (this operation and caller: seed ${details.seed}, path ${details.counterexamplePath})`,
              );
            },
          },
        );
      }
    }

    const health = await app.inject({ method: 'GET', url: '/health' });
    expect(health.statusCode).toBe(200);
    console.info(
      `fuzz: ${sent} requests over ${operations.length} operations × ${ROLES.length} callers in ${Math.round(performance.now() - started)} ms (seed ${SEED}, ${RUNS} per operation and caller)`,
    );
  });

  /** A small hostile sample: the protocols below are not generated from a schema. */
  const sample = <T>(arbitrary: fc.Arbitrary<T>, count: number, offset: number) =>
    fc.sample(arbitrary, { numRuns: count, seed: SEED + offset });

  function expectServed(response: { statusCode: number; body: string }, what: string) {
    sent += 1;
    expect(response.statusCode, `${what} answered ${response.statusCode} ${response.body.slice(0, 300)}`).toBeLessThan(
      500,
    );
  }

  it('answers hostile tus uploads (headers and bytes, not JSON) without 5xx', { timeout: 60_000 }, async () => {
    // A caller of its own: the operations above end with signing their callers out.
    const student = (await signInAs(app, 'student')).headers;
    const tus = { 'tus-resumable': '1.0.0' };
    const metadata = (values: Record<string, string>) =>
      Object.entries(values)
        .map(([key, value]) => `${key} ${Buffer.from(value, 'utf8').toString('base64')}`)
        .join(',');
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
    const hostileLengths = ['-1', '0', 'NaN', '1e309', '9007199254740993', '18446744073709551616', ' 12', '0x10'];
    const names = [
      'transcript.pdf',
      'a\u0000b.pdf',
      'x\ud800.pdf',
      ...sample(
        hostileText.map((text) => text.slice(0, 300)),
        10,
        1,
      ),
    ];
    let created = 0;
    for (const [index, name] of names.entries()) {
      for (const length of [String(pdf.length), hostileLengths[index % hostileLengths.length]!]) {
        for (const purpose of ['transcript', name]) {
          const creation = await app.inject({
            method: 'POST',
            url: '/api/v1/uploads',
            headers: {
              ...student,
              ...tus,
              'upload-length': length,
              'upload-metadata': metadata({ purpose, filename: name }),
            },
          });
          expectServed(creation, `POST /api/v1/uploads (${JSON.stringify(name.slice(0, 40))}, ${length})`);
          const location = creation.headers.location;
          if (creation.statusCode !== 201 || typeof location !== 'string') continue;
          created += 1;
          for (const offset of ['-1', 'NaN', '99999999999999999999', '0']) {
            const patched = await app.inject({
              method: 'PATCH',
              url: location,
              headers: {
                ...student,
                ...tus,
                'upload-offset': offset,
                'content-type': 'application/offset+octet-stream',
              },
              payload: pdf,
            });
            expectServed(patched, `PATCH ${location} for ${JSON.stringify(name.slice(0, 40))} (offset ${offset})`);
          }
        }
      }
    }
    // Some were well-formed enough to be created, so their bytes and their finishing were sent too.
    expect(created).toBeGreaterThan(0);
    // Raw metadata that is not base64, and upload ids that are not ids.
    for (const raw of [
      'filename',
      'filename ***,purpose %%%',
      ',,,',
      `filename ${'A'.repeat(100_000)}`,
      'purpose ZG9jdW1lbnQ=,filename AA==',
    ]) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/uploads',
        headers: { ...student, ...tus, 'upload-length': '10', 'upload-metadata': raw },
      });
      expectServed(response, `POST /api/v1/uploads (metadata ${raw.slice(0, 40)})`);
    }
    for (const id of sample(
      hostileText.map((text) => encodeURIComponent(text.replace(/\p{Cs}/gu, '\ufffd').slice(0, 90)) || 'x'),
      8,
      2,
    )) {
      for (const method of ['HEAD', 'PATCH', 'DELETE'] as const) {
        const response = await app.inject({ method, url: `/api/v1/uploads/${id}`, headers: { ...student, ...tus } });
        expectServed(response, `${method} /api/v1/uploads/${id.slice(0, 40)}`);
      }
    }
    expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
  });

  it('answers hostile payment callbacks, signed or not, without 5xx', { timeout: 60_000 }, async () => {
    const secret = testEnv().PAYMENTS_WEBHOOK_SECRET;
    const event = fc.record({
      id: fc.oneof(hostileText, fc.string({ minLength: 1, maxLength: 20 })),
      type: fc.constantFrom('payment.succeeded', 'payment.failed'),
      data: fc.record({
        reference: fc.oneof(hostileText, fc.constant('PAY-0000')),
        amount: edgeNumber,
        currency: fc.oneof(hostileText, fc.constant('USD')),
        method: fc.constantFrom('card', 'mobile_money', 'bank_transfer'),
        failure_reason: fc.oneof(hostileText, fc.constant(null)),
      }),
    });
    const bodies = [
      ...sample(
        event.map((value) => JSON.stringify(value)),
        20,
        3,
      ),
      ...sample(deepJsonText, 6, 4),
    ];
    for (const body of bodies) {
      for (const signature of [signCallback(secret, body, new Date()), 't=0,v1=00', 'ab\u0000', undefined]) {
        const response = await app.inject({
          method: 'POST',
          url: '/api/v1/payments/callbacks/sandbox',
          headers: {
            'content-type': 'application/json',
            ...(signature ? { [PAYMENT_SIGNATURE_HEADER]: signature } : {}),
          },
          payload: body,
        });
        expectServed(response, `POST /api/v1/payments/callbacks/sandbox ${body.slice(0, 200)}`);
      }
    }
    expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
  });

  it(
    'keeps the realtime socket and the server up under hostile upgrades and messages',
    { timeout: 60_000 },
    async () => {
      const student = (await signInAs(app, 'student')).headers;
      for (const path of ['/api/v1/realtime?x=%00', '/api/v1/realtime?token=\u202e']) {
        for (const headers of [{}, student, { ...student, origin: 'http://evil.example' }]) {
          await app.injectWS(path, { headers }).then(
            (socket) => socket.terminate(),
            (error: Error) => expect(error.message).toMatch(/Unexpected server response: 4\d\d/),
          );
          sent += 1;
        }
      }
      const socket = await app.injectWS('/api/v1/realtime', {
        headers: { ...student, origin: TEST_PUBLIC_URL },
      });
      const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
      for (const message of [
        ...sample(hostileText, 10, 5).map((text) => text.slice(0, 3000)),
        Buffer.alloc(4000, 0),
        'x'.repeat(5000),
      ]) {
        if (socket.readyState === socket.OPEN) socket.send(message);
        sent += 1;
      }
      // A message over the 4 KB limit closes this socket (1009), and only this one.
      expect(await closed).toBe(1009);
      expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    },
  );

  it('answers hostile paths nobody serves with 404, never 5xx', async () => {
    const paths = sample(
      hostileText.map((text) => encodeURIComponent(text.replace(/\p{Cs}/gu, '\ufffd').slice(0, 2000))),
      20,
      6,
    );
    for (const path of paths) {
      for (const prefix of ['/', '/api/v1/', '/api/docs/', '/api/v1/partners/']) {
        for (const method of ['GET', 'POST', 'OPTIONS'] as const) {
          const response = await app.inject({ method, url: `${prefix}${path}` });
          expectServed(response, `${method} ${prefix}${path.slice(0, 80)}`);
        }
      }
    }
    expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
  });
});
