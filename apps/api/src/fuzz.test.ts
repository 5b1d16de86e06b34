import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { eq } from 'drizzle-orm';
import { PAYMENT_SIGNATURE_HEADER } from '@kaminuza/shared';
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
import { signCallback } from './modules/payments/providers/signature.ts';
import { testEnv, TEST_PUBLIC_URL, useTestApp } from './test/app.ts';
import { signInAs } from './test/auth.ts';
import {
  deepJsonText,
  edgeNumber,
  hostileText,
  requestFor,
  summary,
  type IdPool,
  type JsonSchema,
  type Operation,
  type Parameter,
} from './test/fuzz.ts';

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
const callers = new Map<Role, { headers: Record<string, string>; ids: IdPool }>();
let sent = 0;

async function idsOf(query: Promise<Array<{ id: string }>> | Array<{ id: string }>): Promise<string[]> {
  return (await query).map((row) => row.id);
}

const testApp = useTestApp();

beforeAll(async () => {
  const { db } = testApp.database;

  // A staff member with every permission at an approved institution with admissions set up and one
  // submitted application; the student who submitted it (onboarded, with documents)…
  const institution = await readyInstitution(testApp.app, db);
  const { student, documents: docs, receipt } = await submittedApplication(testApp.app, db, institution);
  await db
    .update(students)
    .set({
      date_of_birth: '2006-04-12',
      gender: 'female',
      nationality: 'RW',
      country_of_residence: 'RW',
      city: 'Kigali',
      education_level: 'high_school',
      last_school: 'Lycée de Kigali',
    })
    .where(eq(students.user_id, student.id));
  const onboarded = await testApp.app.inject({
    method: 'POST',
    url: '/api/v1/students/me/onboarding/complete',
    headers: student.headers,
  });
  expect(onboarded.statusCode, onboarded.body).toBe(200);
  // …and a draft at a second institution.
  const other = await readyInstitution(testApp.app, db);
  const started = await testApp.app.inject({
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
  const admin = await signInAs(testApp.app, 'admin');
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
    await testApp.app.ready();
    const document = testApp.app.swagger() as unknown as { paths: Record<string, Record<string, unknown>> };
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
            const response = await testApp.app.inject({
              method: request.method as 'GET',
              url: request.url,
              headers: { ...caller.headers, ...request.headers },
              remoteAddress: `10.${randomBytes(3).join('.')}`,
              ...(request.payload !== undefined ? { payload: request.payload } : {}),
            });
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

    const health = await testApp.app.inject({ method: 'GET', url: '/health' });
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
    const student = (await signInAs(testApp.app, 'student')).headers;
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
          const creation = await testApp.app.inject({
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
            const patched = await testApp.app.inject({
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
      const response = await testApp.app.inject({
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
        const response = await testApp.app.inject({
          method,
          url: `/api/v1/uploads/${id}`,
          headers: { ...student, ...tus },
        });
        expectServed(response, `${method} /api/v1/uploads/${id.slice(0, 40)}`);
      }
    }
    expect((await testApp.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
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
        const response = await testApp.app.inject({
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
    expect((await testApp.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
  });

  it(
    'keeps the realtime socket and the server up under hostile upgrades and messages',
    { timeout: 60_000 },
    async () => {
      const student = (await signInAs(testApp.app, 'student')).headers;
      for (const path of ['/api/v1/realtime?x=%00', '/api/v1/realtime?token=\u202e']) {
        for (const headers of [{}, student, { ...student, origin: 'http://evil.example' }]) {
          await testApp.app.injectWS(path, { headers }).then(
            (socket) => socket.terminate(),
            (error: Error) => expect(error.message).toMatch(/Unexpected server response: 4\d\d/),
          );
          sent += 1;
        }
      }
      const socket = await testApp.app.injectWS('/api/v1/realtime', {
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
      expect((await testApp.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
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
          const response = await testApp.app.inject({ method, url: `${prefix}${path}` });
          expectServed(response, `${method} ${prefix}${path.slice(0, 80)}`);
        }
      }
    }
    expect((await testApp.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
  });
});
