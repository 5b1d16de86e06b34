import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { APPLICATION_MESSAGES, PAYMENT_SIGNATURE_HEADER, type PaymentEvent } from '@kaminuza/shared';
import { buildApp, type App } from '../../app.ts';
import { seedDemoAdmissions } from '../../seed/admissions.ts';
import {
  applications,
  auditLog,
  cycles,
  forms,
  partners,
  payments,
  programs,
  students,
} from '../../db/schema/index.ts';
import { DEVELOPMENT_PAYMENTS_WEBHOOK_SECRET } from '../../lib/env.ts';
import { expectAccess, signInAs, type TestAccount } from '../../test/auth.ts';
import { TEST_PUBLIC_URL, testEnv } from '../../test/app.ts';
import { createTestDatabase } from '../../test/database.ts';
import { holdWrites } from '../../test/hold-writes.ts';
import { getSettings, updateAdmissions } from '../partner-settings/partner-settings.service.ts';
import { RECONCILE_AFTER_MS, reconcilePendingPayments, succeededPaymentOf } from './payments.service.ts';
import { sandboxChargesIn } from './providers/sandbox-charges.ts';
import { createSandboxProvider } from './providers/sandbox-provider.ts';
import { signCallback } from './providers/signature.ts';
import type { CallbackRequest } from './providers/sandbox-provider.ts';

const SUCCESS_CARD = { method: 'card', card_number: '4242 4242 4242 4242', expiry: '12/30', cvc: '123' } as const;
const DECLINED_CARD = { ...SUCCESS_CARD, card_number: '4000 0000 0000 0002' } as const;

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: App;
/** Whether the sandbox's callbacks reach the api; a test turns it off to see the retries. */
let deliveryWorks = true;
const delivered: CallbackRequest[] = [];

async function deliverThroughApp(request: CallbackRequest): Promise<number> {
  delivered.push(request);
  if (!deliveryWorks) throw new Error('connection refused');
  const response = await app.inject({
    method: 'POST',
    url: new URL(request.url).pathname,
    headers: request.headers,
    payload: request.body,
  });
  return response.statusCode;
}

beforeAll(async () => {
  database = await createTestDatabase();
  app = await buildApp({
    database,
    env: testEnv(),
    logger: false,
    // The job queue runs here: a callback that could not be delivered is retried by its job.
    work: true,
    sandboxCallbacks: {
      deliver: deliverThroughApp,
      retry: { retryLimit: 3, retryDelaySeconds: 1, retryDelayMaxSeconds: 1, expireInSeconds: 30 },
    },
  });
});

afterAll(async () => {
  await app.close();
  await database.close();
});

/** An approved, published institution with campuses, programs, an open cycle and a form. */
async function readyInstitution(): Promise<string> {
  const { db } = database;
  const slug = `pay-${randomBytes(4).toString('hex')}`;
  const [partner] = await db
    .insert(partners)
    .values({
      slug,
      name: `Institution ${slug}`,
      status: 'approved',
      published: true,
      address_city: 'Kigali',
      address_country: 'RW',
      institution_type: 'public',
      year_established: 2000,
      region: 'africa',
      size: 'medium',
      setting: 'urban',
    })
    .returning({ id: partners.id });
  await seedDemoAdmissions(db, partner!.id);
  return partner!.id;
}

/** A student's in-progress application, written directly (the applications module is not needed here). */
async function draftOf(partnerId: string, student?: TestAccount) {
  const { db } = database;
  const account = student ?? (await signInAs(app, 'student'));
  const [studentRow] = await db.select({ id: students.id }).from(students).where(eq(students.user_id, account.id));
  const [cycle] = await db.select({ id: cycles.id }).from(cycles).where(eq(cycles.partner_id, partnerId));
  const [program] = await db.select({ id: programs.id }).from(programs).where(eq(programs.partner_id, partnerId));
  const [form] = await db.select({ id: forms.id }).from(forms).where(eq(forms.partner_id, partnerId));
  const [row] = await db
    .insert(applications)
    .values({
      student_id: studentRow!.id,
      partner_id: partnerId,
      cycle_id: cycle!.id,
      program_id: program!.id,
      form_id: form!.id,
    })
    .returning({ id: applications.id });
  return { student: account, applicationId: row!.id, cycleId: cycle!.id };
}

function startPayment(student: TestAccount, applicationId: string, key?: string) {
  return app.inject({
    method: 'POST',
    url: `/api/v1/applications/${applicationId}/payment`,
    headers: { ...student.headers, ...(key ? { 'idempotency-key': key } : {}) },
  });
}

function pay(student: TestAccount, reference: string, payload: object) {
  return app.inject({
    method: 'POST',
    url: `/api/v1/payments/sandbox/${reference}/complete`,
    headers: student.headers,
    payload,
  });
}

function paymentsOf(applicationId: string) {
  return database.db.select().from(payments).where(eq(payments.application_id, applicationId));
}

function callback(event: PaymentEvent, options: { secret?: string; at?: Date; body?: string } = {}) {
  const body = options.body ?? JSON.stringify(event);
  return app.inject({
    method: 'POST',
    url: '/api/v1/payments/callbacks/sandbox',
    headers: {
      'content-type': 'application/json',
      [PAYMENT_SIGNATURE_HEADER]: signCallback(
        options.secret ?? DEVELOPMENT_PAYMENTS_WEBHOOK_SECRET,
        body,
        options.at ?? new Date(),
      ),
    },
    payload: body,
  });
}

function succeededEvent(reference: string, amount = 100, currency = 'USD'): PaymentEvent {
  return {
    id: `evt_${randomBytes(6).toString('hex')}`,
    type: 'payment.succeeded',
    data: { reference, amount, currency, method: 'card', failure_reason: null },
  };
}

describe('payments: who may call', () => {
  it('routes 9–11 answer 401 to visitors, 403 to staff and admins, 404 to another student', async () => {
    const partnerId = await readyInstitution();
    const { student, applicationId } = await draftOf(partnerId);
    const started = await startPayment(student, applicationId);
    const { reference } = started.json().data.payment;

    const expected = { anonymous: 401, staff: 403, admin: 403, student: 404 };
    await expectAccess(app, { method: 'POST', url: `/api/v1/applications/${applicationId}/payment` }, expected);
    await expectAccess(app, { method: 'GET', url: `/api/v1/payments/${reference}` }, expected);
    await expectAccess(
      app,
      { method: 'POST', url: `/api/v1/payments/sandbox/${reference}/complete`, payload: SUCCESS_CARD },
      expected,
    );
    const [row] = await paymentsOf(applicationId);
    expect(row!.status).toBe('pending');
  });

  it('an unknown application or reference is 404', async () => {
    const student = await signInAs(app, 'student');
    expect((await startPayment(student, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    const unknown = await app.inject({ method: 'GET', url: '/api/v1/payments/pay_unknown', headers: student.headers });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('POST /applications/:id/payment', () => {
  it('opens one checkout at the fee, and answers that one again to retries and other tabs', async () => {
    const partnerId = await readyInstitution();
    const { student, applicationId } = await draftOf(partnerId);

    const first = await startPayment(student, applicationId, 'key-first-1');
    expect(first.statusCode).toBe(201);
    const { payment, checkout_url } = first.json().data;
    expect(payment).toMatchObject({ provider: 'sandbox', amount: 100, currency: 'USD', status: 'pending' });
    expect(payment.reference).toMatch(/^pay_[0-9a-f]{24}$/);
    expect(checkout_url).toBe(`/pay?reference=${payment.reference}`);

    const retried = await startPayment(student, applicationId, 'key-first-1');
    const otherTab = await startPayment(student, applicationId, 'key-other-2');
    const keyless = await startPayment(student, applicationId);
    for (const again of [retried, otherTab, keyless]) {
      expect(again.statusCode).toBe(200);
      expect(again.json().data.payment.id).toBe(payment.id);
    }
    expect(await paymentsOf(applicationId)).toHaveLength(1);
  });

  it('concurrent starts make one live payment', async () => {
    const partnerId = await readyInstitution();
    const { student, applicationId } = await draftOf(partnerId);
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, index) => startPayment(student, applicationId, `concurrent-${index}-key`)),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    expect(new Set(answers.map((answer) => answer.json().data.payment.id)).size).toBe(1);
    expect(await paymentsOf(applicationId)).toHaveLength(1);
  });

  it('concurrent starts with one key make one payment; the others replay it or answer 409 with Retry-After', async () => {
    const partnerId = await readyInstitution();
    const { student, applicationId } = await draftOf(partnerId);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => startPayment(student, applicationId, 'double-click-key')),
    );
    // PGlite serializes the transactions (all replays); on PostgreSQL the ones meeting the first in flight get 409.
    const codes = answers.map((answer) => answer.statusCode);
    expect(codes.filter((code) => code === 201)).toHaveLength(1);
    expect(codes.every((code) => code === 201 || code === 200 || code === 409)).toBe(true);
    for (const busy of answers.filter((answer) => answer.statusCode === 409)) {
      expect(busy.headers['retry-after']).toBe('1');
      expect(busy.json().error).toEqual({
        status: 'ABORTED',
        message: APPLICATION_MESSAGES.idempotency_key_in_progress,
        reason: 'idempotency_key_in_progress',
      });
    }
    expect(await paymentsOf(applicationId)).toHaveLength(1);
  });

  it('answers 422 to a key already used for another application of the student, opening nothing', async () => {
    const partnerId = await readyInstitution();
    const first = await draftOf(partnerId);
    const second = await draftOf(await readyInstitution(), first.student);
    expect((await startPayment(first.student, first.applicationId, 'key-shared-1')).statusCode).toBe(201);
    const reused = await startPayment(first.student, second.applicationId, 'key-shared-1');
    expect(reused.statusCode).toBe(422);
    expect(reused.json()).toEqual({
      error: { status: 'INVALID_ARGUMENT', message: APPLICATION_MESSAGES.idempotency_key_reused },
    });
    expect(await paymentsOf(second.applicationId)).toHaveLength(0);
    // Another student's key space is their own.
    const stranger = await draftOf(partnerId);
    expect((await startPayment(stranger.student, stranger.applicationId, 'key-shared-1')).statusCode).toBe(201);
    expect((await startPayment(first.student, second.applicationId, 'key-second-2')).statusCode).toBe(201);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'answers 409 with Retry-After while the key’s first checkout is being opened (PostgreSQL: PGlite has one connection, so requests never overlap)',
    async () => {
      const partnerId = await readyInstitution();
      const { student, applicationId } = await draftOf(partnerId);
      const held = await holdWrites(database.url!, 'payments');
      const first = startPayment(student, applicationId, 'key-slow-1');
      await held.waitForBlocked();
      const busy = await startPayment(student, applicationId, 'key-slow-1');
      expect(busy.statusCode).toBe(409);
      expect(busy.headers['retry-after']).toBe('1');
      expect(busy.json().error.message).toBe(APPLICATION_MESSAGES.idempotency_key_in_progress);
      await held.release();
      const opened = await first;
      expect(opened.statusCode).toBe(201);
      const replay = await startPayment(student, applicationId, 'key-slow-1');
      expect(replay.statusCode).toBe(200);
      expect(replay.json()).toEqual(opened.json());
      expect(await paymentsOf(applicationId)).toHaveLength(1);
    },
  );

  it('charges the institution’s own fee and refuses when it charges none', async () => {
    const partnerId = await readyInstitution();
    const settings = await getSettings(database.db, partnerId);
    await updateAdmissions(database.db, partnerId, {
      ...settings.admissions,
      application_fees: [{ currency: 'KES', amount: 2550, channels: ['card'] }],
    });
    const { student, applicationId } = await draftOf(partnerId);
    const started = await startPayment(student, applicationId);
    expect(started.json().data.payment).toMatchObject({ amount: 25.5, currency: 'KES' });

    const free = await readyInstitution();
    const freeSettings = await getSettings(database.db, free);
    await updateAdmissions(database.db, free, { ...freeSettings.admissions, application_fees: [] });
    const draft = await draftOf(free);
    const refused = await startPayment(draft.student, draft.applicationId);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toEqual({
      status: 'ABORTED',
      message: 'This institution charges no application fee.',
    });
    expect(await paymentsOf(draft.applicationId)).toHaveLength(0);
  });

  it('refuses a closed cycle and a submitted application', async () => {
    const partnerId = await readyInstitution();
    const closed = await draftOf(partnerId);
    await database.db.update(cycles).set({ status: 'closed' }).where(eq(cycles.id, closed.cycleId));
    const refused = await startPayment(closed.student, closed.applicationId);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({
      message: 'Applications for this admission cycle are closed.',
      reason: 'cycle_closed',
    });

    const other = await readyInstitution();
    const submitted = await draftOf(other);
    await database.db
      .update(applications)
      .set({ status: 'submitted' })
      .where(eq(applications.id, submitted.applicationId));
    const late = await startPayment(submitted.student, submitted.applicationId);
    expect(late.statusCode).toBe(409);
    expect(late.json().error).toMatchObject({
      message: 'This application has already been submitted.',
      reason: 'already_submitted',
    });
    expect(await paymentsOf(submitted.applicationId)).toHaveLength(0);
  });

  it('refuses a malformed Idempotency-Key', async () => {
    const partnerId = await readyInstitution();
    const { student, applicationId } = await draftOf(partnerId);
    const response = await startPayment(student, applicationId, 'bad key!');
    expect(response.statusCode).toBe(400);
    expect(await paymentsOf(applicationId)).toHaveLength(0);
  });
});

describe('the sandbox checkout', () => {
  it('shows the payer the institution, program, amount and methods', async () => {
    const partnerId = await readyInstitution();
    const { student, applicationId } = await draftOf(partnerId);
    const { reference } = (await startPayment(student, applicationId)).json().data.payment;
    const response = await app.inject({
      method: 'GET',
      url: `/api/v1/payments/${reference}`,
      headers: student.headers,
    });
    expect(response.statusCode).toBe(200);
    const [program] = await database.db
      .select({ name: programs.name })
      .from(programs)
      .innerJoin(applications, eq(applications.program_id, programs.id))
      .where(eq(applications.id, applicationId));
    expect(response.json().data).toMatchObject({
      reference,
      application_id: applicationId,
      status: 'pending',
      amount: 100,
      currency: 'USD',
      program_name: program!.name,
      partner_name: expect.stringMatching(/^Institution pay-/),
      return_path: `/partners/${partnerId}/application/form`,
      methods: ['card', 'mobile_money'],
    });
  });

  it('a declined card fails with its reason, then a new attempt can pay', async () => {
    const partnerId = await readyInstitution();
    const { student, applicationId } = await draftOf(partnerId);
    const first = (await startPayment(student, applicationId)).json().data.payment;

    const declined = await pay(student, first.reference, DECLINED_CARD);
    expect(declined.statusCode).toBe(200);
    expect(declined.json().data).toEqual({
      status: 'failed',
      failure_reason: 'The card was declined. No money was taken.',
      return_path: `/partners/${partnerId}/application/form`,
    });
    expect(await succeededPaymentOf(database.db, applicationId)).toBeNull();
    // Only the outcome travels in the callback: no card digits at all.
    expect(delivered.at(-1)!.body).not.toContain('4000');

    const again = await pay(student, first.reference, SUCCESS_CARD);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe('This payment is already complete.');

    const second = await startPayment(student, applicationId);
    expect(second.statusCode).toBe(201);
    expect(second.json().data.payment.reference).not.toBe(first.reference);
    const paid = await pay(student, second.json().data.payment.reference, SUCCESS_CARD);
    expect(paid.json().data.status).toBe('succeeded');

    const fee = await succeededPaymentOf(database.db, applicationId);
    expect(fee).toEqual({ id: second.json().data.payment.id, amount: 100, currency: 'USD' });
    const rows = await paymentsOf(applicationId);
    expect(rows.map((row) => row.status).sort()).toEqual(['failed', 'succeeded']);
    expect(rows.find((row) => row.status === 'succeeded')).toMatchObject({ method: 'card', failure_reason: null });

    const afterPaid = await startPayment(student, applicationId);
    expect(afterPaid.statusCode).toBe(409);
    expect(afterPaid.json().error).toMatchObject({
      message: 'The application fee has already been paid.',
      reason: 'already_paid',
    });
  });

  it('takes mobile money, declining numbers that end in 000', async () => {
    const partnerId = await readyInstitution();
    const { student, applicationId } = await draftOf(partnerId);
    const first = (await startPayment(student, applicationId)).json().data.payment;
    const declined = await pay(student, first.reference, {
      method: 'mobile_money',
      network: 'mtn',
      phone: '+250788123000',
    });
    expect(declined.json().data).toMatchObject({
      status: 'failed',
      failure_reason: 'The mobile money payment was not approved. No money was taken.',
    });
    const second = (await startPayment(student, applicationId)).json().data.payment;
    const paid = await pay(student, second.reference, {
      method: 'mobile_money',
      network: 'airtel',
      phone: '+250 788 123 456',
    });
    expect(paid.json().data.status).toBe('succeeded');
    const [row] = await database.db.select().from(payments).where(eq(payments.reference, second.reference));
    expect(row).toMatchObject({ status: 'succeeded', method: 'mobile_money' });
  });

  it('refuses invalid card or phone details and changes nothing', async () => {
    const partnerId = await readyInstitution();
    const { student, applicationId } = await draftOf(partnerId);
    const { reference } = (await startPayment(student, applicationId)).json().data.payment;
    const sent = delivered.length;
    for (const payload of [
      { ...SUCCESS_CARD, card_number: '4242' },
      { ...SUCCESS_CARD, expiry: '13/30' },
      { ...SUCCESS_CARD, cvc: '12' },
      { method: 'mobile_money', network: 'mtn', phone: '0788123456' },
      { method: 'cash' },
    ]) {
      const response = await pay(student, reference, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
    const card = await pay(student, reference, { ...SUCCESS_CARD, card_number: 'abcd' });
    expect(card.json().error.details).toEqual([
      { path: 'card_number', message: 'Enter a valid card number, expiry date and security code.' },
    ]);
    expect(delivered.length).toBe(sent);
    const [row] = await paymentsOf(applicationId);
    expect(row!.status).toBe('pending');
  });

  it('when the callback cannot be delivered the payment stays pending, and a retry settles it', async () => {
    const partnerId = await readyInstitution();
    const { student, applicationId } = await draftOf(partnerId);
    const { reference } = (await startPayment(student, applicationId)).json().data.payment;
    deliveryWorks = false;
    try {
      const response = await pay(student, reference, SUCCESS_CARD);
      expect(response.json().data.status).toBe('pending');
    } finally {
      deliveryWorks = true;
    }
    await vi.waitFor(
      async () => {
        const [row] = await paymentsOf(applicationId);
        expect(row!.status).toBe('succeeded');
      },
      { timeout: 10_000, interval: 50 },
    );
  });
});

describe('a callback that cannot be delivered at all', () => {
  it('is kept as a failed job once its retries are spent; an admin sees it, retries it, and the payment settles', async () => {
    const partnerId = await readyInstitution();
    const { student, applicationId } = await draftOf(partnerId);
    const { reference } = (await startPayment(student, applicationId)).json().data.payment;
    const admin = await signInAs(app, 'admin');
    const failedOf = async () => {
      const response = await app.inject({ method: 'GET', url: '/api/v1/admin/jobs', headers: admin.headers });
      expect(response.statusCode).toBe(200);
      return response.json().data as {
        queues: { queue: string; failed: number }[];
        failed: { items: { id: string; queue: string; subject: string; error: string; attempts: number }[] };
      };
    };
    deliveryWorks = false;
    let job: { id: string; queue: string; subject: string; error: string; attempts: number } | undefined;
    try {
      expect((await pay(student, reference, SUCCESS_CARD)).json().data.status).toBe('pending');
      // 1 + 3 retries a second apart, then it is kept as failed.
      await vi.waitFor(
        async () => {
          job = (await failedOf()).failed.items.find((item) => item.subject === reference);
          expect(job).toBeDefined();
        },
        { timeout: 20_000, interval: 200 },
      );
    } finally {
      deliveryWorks = true;
    }
    expect(job).toMatchObject({
      queue: 'payments.sandbox-callback',
      attempts: 4,
      error: `sandbox payment callback for ${reference} not accepted`,
    });
    expect((await failedOf()).queues.find((queue) => queue.queue === 'payments.sandbox-callback')!.failed).toBe(1);
    expect((await paymentsOf(applicationId))[0]!.status).toBe('pending');
    // Prometheus sees it too: the queue's failed jobs, and this instance's failed attempts.
    const metrics = (await app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toMatch(/^kaminuza_jobs\{queue="payments.sandbox-callback",state="failed"\} 1$/m);
    expect(metrics).toMatch(/^kaminuza_job_failures_total\{queue="payments.sandbox-callback",final="true"\} [1-9]$/m);
    expect(metrics).toMatch(/^kaminuza_job_failures_total\{queue="payments.sandbox-callback",final="false"\} [3-9]$/m);

    // The provider is reachable again: the admin retries, and the payment settles.
    const retried = await app.inject({
      method: 'POST',
      url: `/api/v1/admin/jobs/${job!.queue}/${job!.id}/retry`,
      headers: admin.headers,
    });
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json()).toEqual({ data: { retried: true } });
    await vi.waitFor(
      async () => {
        const [row] = await paymentsOf(applicationId);
        expect(row!.status).toBe('succeeded');
      },
      { timeout: 10_000, interval: 50 },
    );
    expect((await failedOf()).failed.items.some((item) => item.id === job!.id)).toBe(false);
    const again = await app.inject({
      method: 'POST',
      url: `/api/v1/admin/jobs/${job!.queue}/${job!.id}/retry`,
      headers: admin.headers,
    });
    expect(again.statusCode).toBe(404);
    const [entry] = await database.db.select().from(auditLog).where(eq(auditLog.target_id, job!.id));
    expect(entry).toMatchObject({ actor_id: admin.id, action: 'job.retried', details: { queue: job!.queue } });
  });
});

describe('reconciliation', () => {
  it('settles a payment whose callback never came from what the provider decided, and leaves undecided ones', async () => {
    const partnerId = await readyInstitution();
    const paid = await draftOf(partnerId);
    const { reference } = (await startPayment(paid.student, paid.applicationId)).json().data.payment;
    const waiting = await draftOf(partnerId);
    const { reference: undecided } = (await startPayment(waiting.student, waiting.applicationId)).json().data.payment;
    deliveryWorks = false;
    try {
      expect((await pay(paid.student, reference, SUCCESS_CARD)).json().data.status).toBe('pending');
      // Its retries would settle it; reconciliation must not need them: they are taken away.
      await database.db.execute(sql`delete from pgboss.job where name = 'payments.sandbox-callback'`);
    } finally {
      deliveryWorks = true;
    }
    const provider = createSandboxProvider({
      secret: DEVELOPMENT_PAYMENTS_WEBHOOK_SECRET,
      publicUrl: 'http://localhost:3000',
      log: { warn() {} },
      charges: sandboxChargesIn(database.db),
    });
    const log = { warn() {} };
    const settling = { log, publicUrl: TEST_PUBLIC_URL };
    // Too recent to ask about yet.
    expect(await reconcilePendingPayments(database.db, provider, settling)).toBe(0);
    expect((await paymentsOf(paid.applicationId))[0]!.status).toBe('pending');
    const later = new Date(Date.now() + RECONCILE_AFTER_MS + 1_000);
    expect(await reconcilePendingPayments(database.db, provider, settling, later)).toBe(1);
    expect((await paymentsOf(paid.applicationId))[0]).toMatchObject({ status: 'succeeded', method: 'card' });
    expect((await paymentsOf(waiting.applicationId))[0]!.status).toBe('pending');
    expect((await paymentsOf(waiting.applicationId))[0]!.reference).toBe(undecided);
    // Once settled there is nothing more to ask about.
    expect(await reconcilePendingPayments(database.db, provider, settling, later)).toBe(0);
  });
});

describe('POST /payments/callbacks/:provider', () => {
  async function pendingPayment() {
    const partnerId = await readyInstitution();
    const { student, applicationId } = await draftOf(partnerId);
    const { reference } = (await startPayment(student, applicationId)).json().data.payment;
    return { student, applicationId, reference };
  }
  const statusOf = async (reference: string) =>
    (await database.db.select().from(payments).where(eq(payments.reference, reference)))[0]!;

  it('a signed event settles the payment; a retried or replayed one changes nothing', async () => {
    const { applicationId, reference } = await pendingPayment();
    const event = succeededEvent(reference);
    const response = await callback(event);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ data: { received: true } });
    const settled = await statusOf(reference);
    expect(settled).toMatchObject({ status: 'succeeded', provider_event_id: event.id });
    expect(settled.paid_at).not.toBeNull();

    expect((await callback(event)).statusCode).toBe(200);
    const failedLater = { ...event, id: 'evt_later', type: 'payment.failed' as const };
    expect((await callback(failedLater)).statusCode).toBe(200);
    expect(await statusOf(reference)).toEqual(settled);
    expect(await succeededPaymentOf(database.db, applicationId)).toMatchObject({ id: settled.id });
  });

  it('refuses a bad signature, another secret, a stale timestamp or no signature: 401 and nothing changes', async () => {
    const { reference } = await pendingPayment();
    const event = succeededEvent(reference);
    const body = JSON.stringify(event);
    const attempts = [
      await callback(event, { secret: 'not-the-secret-not-the-secret-not-the-secret' }),
      await callback(event, { at: new Date(Date.now() - 6 * 60_000) }),
      await callback(event, { at: new Date(Date.now() + 6 * 60_000) }),
      await app.inject({
        method: 'POST',
        url: '/api/v1/payments/callbacks/sandbox',
        headers: {
          'content-type': 'application/json',
          [PAYMENT_SIGNATURE_HEADER]: signCallback(DEVELOPMENT_PAYMENTS_WEBHOOK_SECRET, body, new Date()),
        },
        // Signed over one body, sent with another: the bytes themselves are what is signed.
        payload: body.replace('"amount":100', '"amount":100.0'),
      }),
      await app.inject({
        method: 'POST',
        url: '/api/v1/payments/callbacks/sandbox',
        headers: { 'content-type': 'application/json' },
        payload: body,
      }),
    ];
    for (const response of attempts) {
      expect(response.statusCode).toBe(401);
      expect(response.json().error).toEqual({ status: 'UNAUTHENTICATED', message: 'Invalid signature' });
    }
    expect((await statusOf(reference)).status).toBe('pending');
  });

  it('accepts a signature made 4 minutes ago (inside the tolerance)', async () => {
    const { reference } = await pendingPayment();
    const response = await callback(succeededEvent(reference), { at: new Date(Date.now() - 4 * 60_000) });
    expect(response.statusCode).toBe(200);
    expect((await statusOf(reference)).status).toBe('succeeded');
  });

  it('ignores an event whose amount or currency differs from the payment', async () => {
    const { reference } = await pendingPayment();
    expect((await callback(succeededEvent(reference, 1))).statusCode).toBe(200);
    expect((await callback(succeededEvent(reference, 100, 'EUR'))).statusCode).toBe(200);
    expect((await statusOf(reference)).status).toBe('pending');
  });

  it('answers an unknown provider 404 and a signed malformed event 400', async () => {
    const { reference } = await pendingPayment();
    const body = JSON.stringify(succeededEvent(reference));
    const unknown = await app.inject({
      method: 'POST',
      url: '/api/v1/payments/callbacks/paypal',
      headers: {
        'content-type': 'application/json',
        [PAYMENT_SIGNATURE_HEADER]: signCallback(DEVELOPMENT_PAYMENTS_WEBHOOK_SECRET, body, new Date()),
      },
      payload: body,
    });
    expect(unknown.statusCode).toBe(404);
    const malformed = await callback(succeededEvent(reference), { body: '{"id":"evt_x","type":"payment.refunded"}' });
    expect(malformed.statusCode).toBe(400);
    expect((await statusOf(reference)).status).toBe('pending');
  });

  it('leaves other payments alone', async () => {
    const one = await pendingPayment();
    const two = await pendingPayment();
    await callback(succeededEvent(one.reference));
    const [other] = await database.db
      .select({ status: payments.status })
      .from(payments)
      .where(and(eq(payments.reference, two.reference)));
    expect(other!.status).toBe('pending');
  });
});
