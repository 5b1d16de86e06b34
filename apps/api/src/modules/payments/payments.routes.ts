import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  PAYMENT_MESSAGES,
  ApplicationIdParamsSchema,
  CheckoutStartedSchema,
  IDEMPOTENCY_KEY_HEADER,
  PaymentCheckoutSchema,
  PaymentReferenceParamsSchema,
  PaymentOptionsSchema,
  PaymentStartSchema,
  type FeeChannel,
  ReceiptCodeParamsSchema,
  ReceiptVerificationSchema,
  SandboxPaymentSchema,
  SandboxResultSchema,
  dataEnvelope,
} from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { consume, requireUserType, type Limit } from '../auth/index.ts';
import { attachmentDisposition, downloadHeaders } from '../../lib/file-download.ts';
import { IdempotencyHeadersSchema, idempotencyDescription } from '../../lib/idempotency.ts';
import { AppError } from '../../lib/errors.ts';
import { assertSafeText } from '../../lib/safe-input.ts';
import {
  completeSandboxPayment,
  getCheckout,
  paymentOptions,
  settlePayment,
  startCheckout,
  type CheckoutProviders,
  type SettleContext,
} from './payments.service.ts';
import type { JobSender } from '../../lib/jobs/queue.ts';
import { pollMobileMoneyPayment, sendMobileMoneyPrompt } from './mobile-money.service.ts';
import { payerReceipt, verifyReceipt } from './receipts.service.ts';
import { MOBILE_MONEY_STATUS_JOB, SANDBOX_CALLBACK_JOB, sendMobileMoneyPoll } from './payments.jobs.ts';
import { callbackPathOf, mobileMoneyProvidersFrom, type MobileMoneyEnv } from './mobile-money-providers.ts';
import type { CallbackDelivery } from './providers/sandbox-provider.ts';
import { cardProviderFrom, type CardEnv } from './card-providers.ts';
import type { Env } from '../../lib/env.ts';
import { refundingProviders } from './refund-providers.ts';
import { acceptRefundResult, pathSegmentOf } from './refunds.service.ts';

const tags = ['payments'];

type SettleLogger = { warn(object: object, message: string): void };

/** A provider event is a few hundred bytes; anything far bigger is not one. */
const CALLBACK_BODY_LIMIT = 64 * 1024;
/** A mobile money callback body is a status body: well under a kilobyte or two. */
const MOBILE_MONEY_CALLBACK_BODY_LIMIT = 8 * 1024;
/** Our references are UUIDs, providers' ids (ws_CO_…) short words: anything else names no payment of ours. */
const CALLBACK_SUBJECT = /^[A-Za-z0-9_-]{6,100}$/;

/** Codes are 60 random bits, so guessing is hopeless anyway; the limit keeps the page from being scraped. */
export const RECEIPT_VERIFICATION_LIMIT: Limit = { name: 'receipt-verification:ip', max: 60, windowMs: 15 * 60_000 };

export interface PaymentsOptions {
  /** How the sandbox sends its callbacks: HTTP to PUBLIC_URL by default; tests deliver through app.inject. */
  deliver?: CallbackDelivery;
}

/**
 * The application fee (routes 9–12): a student opens a checkout for their own application, pays on the
 * provider's hosted page (the sandbox's is /pay), and the provider confirms by a signed callback — the
 * only way a payment becomes paid. Another student's application or payment is 404.
 */
export const paymentsRoutes: FastifyPluginAsyncZod<
  {
    db: Db;
    env: CardEnv & MobileMoneyEnv & Pick<Env, 'RATE_LIMIT_MULTIPLIER'>;
    jobs: JobSender;
  } & PaymentsOptions
> = async (app, { db, env, jobs, deliver }) => {
  const card = cardProviderFrom(env, {
    db,
    log: app.log,
    ...(deliver ? { deliver } : {}),
    retryLater: async (callback) => {
      await jobs.send(SANDBOX_CALLBACK_JOB, callback);
    },
  });
  const provider = card.provider;
  const mobileMoney = mobileMoneyProvidersFrom(env);
  // A bank slip needs no provider here: paymentOptions offers it where the institution has set its bank details.
  const availableChannels = new Set<FeeChannel>(['card', ...mobileMoney.keys(), 'bank_slip']);
  /** A settlement from this request: its log, and the configured public URL its receipt email links to. */
  const settling = (log: SettleLogger): SettleContext => ({ log, publicUrl: env.PUBLIC_URL });
  const checkoutProviders = (log: SettleLogger): CheckoutProviders => ({
    card: provider,
    mobileMoney,
    settling: settling(log),
    sendPrompt: (prompt) =>
      sendMobileMoneyPrompt(
        db,
        prompt,
        {
          callbackUrl: `${env.PUBLIC_URL}/api/v1${callbackPathOf(prompt.provider.name)}`,
          startPoll: (poll) => sendMobileMoneyPoll(jobs, { provider: prompt.provider.name, ...poll, attempt: 0 }),
        },
        settling(log),
      ),
  });

  await app.register(async (scope) => {
    const student = scope.withTypeProvider<ZodTypeProvider>();
    student.addHook('preValidation', requireUserType('student'));

    student.post(
      '/applications/:id/payment',
      {
        schema: {
          tags,
          summary: 'Open the checkout of an application’s fee',
          description: `201 with a new checkout, or 200 with the pending one of the same way to pay; 409 payment_pending while one of another way is pending. ${idempotencyDescription(
            'the application; keys are unique per student, so a key sent for another application is refused',
          )}`,
          params: ApplicationIdParamsSchema,
          headers: IdempotencyHeadersSchema,
          body: PaymentStartSchema.nullish(),
          response: { 200: dataEnvelope(CheckoutStartedSchema), 201: dataEnvelope(CheckoutStartedSchema) },
        },
      },
      async (request, reply) => {
        const { created, checkout } = await startCheckout(db, checkoutProviders(request.log), {
          userId: request.user!.id,
          applicationId: request.params.id,
          idempotencyKey: request.headers[IDEMPOTENCY_KEY_HEADER],
          now: new Date(),
          choice: request.body ?? { channel: 'card' },
        });
        reply.code(created ? 201 : 200);
        return { data: checkout };
      },
    );

    student.get(
      '/applications/:id/payment/options',
      {
        schema: {
          tags,
          summary: 'How the applicant can pay the fee: currencies and ways to pay',
          params: ApplicationIdParamsSchema,
          response: { 200: dataEnvelope(PaymentOptionsSchema) },
        },
      },
      async (request) => ({
        data: await paymentOptions(db, availableChannels, request.user!.id, request.params.id),
      }),
    );

    student.get(
      '/payments/:reference',
      {
        schema: { tags, params: PaymentReferenceParamsSchema, response: { 200: dataEnvelope(PaymentCheckoutSchema) } },
      },
      async (request) => ({
        data: await getCheckout(db, provider, request.user!.id, request.params.reference, settling(request.log)),
      }),
    );

    student.get(
      '/payments/:reference/receipt',
      {
        schema: {
          tags,
          summary: 'The receipt of the caller’s paid fee, as a PDF',
          description: '404 for a payment that is not the caller’s; 409 while it is not paid.',
          params: PaymentReferenceParamsSchema,
        },
      },
      async (request, reply) => {
        const receipt = await payerReceipt(db, request.user!.id, request.params.reference, env.PUBLIC_URL);
        return downloadHeaders(reply, {
          contentType: 'application/pdf',
          disposition: attachmentDisposition(receipt.fileName),
          cacheControl: 'private, no-store',
          length: receipt.pdf.length,
        }).send(receipt.pdf);
      },
    );

    if (card.name !== 'sandbox') return;
    const sandbox = card.provider;
    student.post(
      '/payments/sandbox/:reference/complete',
      {
        schema: {
          tags,
          params: PaymentReferenceParamsSchema,
          body: SandboxPaymentSchema,
          response: { 200: dataEnvelope(SandboxResultSchema) },
        },
      },
      async (request) => ({
        data: await completeSandboxPayment(db, sandbox, request.user!.id, request.params.reference, request.body),
      }),
    );
  });

  await app.register(async (scope) => {
    const anyone = scope.withTypeProvider<ZodTypeProvider>();
    anyone.get(
      '/receipts/verify/:code',
      {
        // Counted before validation, so malformed guesses use up the window too.
        onRequest: async (request) =>
          consume(
            db,
            { ...RECEIPT_VERIFICATION_LIMIT, max: RECEIPT_VERIFICATION_LIMIT.max * env.RATE_LIMIT_MULTIPLIER },
            request.ip,
          ),
        schema: {
          tags,
          summary: 'Confirms a payment receipt is genuine',
          description:
            'Answers the receipt number, institution, amount, date and method of the receipt with this ' +
            'verification code, and the payer by initials only. Rate limited per address.',
          params: ReceiptCodeParamsSchema,
          response: { 200: dataEnvelope(ReceiptVerificationSchema) },
        },
      },
      async (request) => ({ data: await verifyReceipt(db, request.params.code) }),
    );
  });

  await app.register(async (scope) => {
    const callbacks = scope.withTypeProvider<ZodTypeProvider>();
    // The signature covers the exact bytes sent, so this route alone keeps the body as it arrived.
    callbacks.removeAllContentTypeParsers();
    callbacks.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer', bodyLimit: CALLBACK_BODY_LIMIT },
      (_request, body, done) => done(null, body),
    );

    /*
     * Flutterwave's webhook is authenticated only by the dashboard's secret hash in `verif-hash`; it is
     * read for the reference it names, and Flutterwave's verify answer alone settles (ADR 038). When
     * verify cannot be had, the answer is 503: Flutterwave delivers again, and the reconcile pass asks too.
     */
    if (card.name === 'flutterwave') {
      const flutterwave = card.provider;
      callbacks.post(
        '/payments/callbacks/flutterwave',
        {
          schema: {
            tags,
            summary: 'The Flutterwave webhook (a hint: the verify call decides)',
            response: { 200: dataEnvelope(z.object({ received: z.literal(true) })) },
          },
        },
        async (request) => {
          if (!flutterwave.webhookAuthentic(request.headers)) {
            throw new AppError('UNAUTHENTICATED', PAYMENT_MESSAGES.signature_invalid);
          }
          let json: unknown;
          try {
            json = JSON.parse((Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0)).toString('utf8'));
          } catch {
            throw new AppError('INVALID_ARGUMENT', undefined, { body: 'not JSON' });
          }
          const subject = flutterwave.webhookSubject(json);
          if (!subject) throw new AppError('INVALID_ARGUMENT', undefined, { body: 'names no payment' });
          let answer;
          try {
            answer = await flutterwave.lookup(subject.reference);
          } catch (error) {
            request.log.warn({ err: error, subject }, 'Flutterwave verify unavailable: the webhook is left to retry');
            throw new AppError('UNAVAILABLE', undefined, undefined, { retryAfterSeconds: 60 });
          }
          if (answer) {
            assertSafeText(answer.event);
            await settlePayment(db, flutterwave.name, answer.event, settling(request.log), {
              providerTransactionId: answer.providerTransactionId,
            });
          }
          return { data: { received: true as const } };
        },
      );
    }

    callbacks.post(
      '/payments/callbacks/:provider',
      {
        schema: {
          tags,
          params: z.object({ provider: z.string().max(40) }),
          response: { 200: dataEnvelope(z.object({ received: z.literal(true) })) },
        },
      },
      async (request) => {
        if (request.params.provider !== provider.name) throw new AppError('NOT_FOUND');
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const event = provider.verifyCallback(body, request.headers, new Date());
        // The raw body escapes the request checks; what a provider signed is text all the same.
        assertSafeText(event);
        await settlePayment(db, provider.name, event, settling(request.log));
        return { data: { received: true as const } };
      },
    );
  });

  /*
   * A refund's asynchronous result (Daraja's reversal Result and queue timeout), POSTed to the URL named in
   * the refund request: the path's refund reference — ours, random, sent only to the provider — says which
   * refund, and the body must be the provider's result for the refund it accepted (refunds.service.ts).
   * Anything read is answered 200 so the provider stops sending it; a body that is no result is 400.
   */
  const refunding = refundingProviders(mobileMoney, card);
  await app.register(async (scope) => {
    scope.withTypeProvider<ZodTypeProvider>().post(
      '/payments/refund-results/:provider/:refundReference',
      {
        schema: {
          tags,
          summary: "A provider's asynchronous answer about a refund (Daraja's reversal result)",
          params: z.object({ provider: z.string().max(40), refundReference: z.uuid() }),
          response: { 200: dataEnvelope(z.object({ received: z.literal(true) })) },
        },
        bodyLimit: MOBILE_MONEY_CALLBACK_BODY_LIMIT,
      },
      async (request) => {
        const provider = [...refunding.keys()].find((name) => pathSegmentOf(name) === request.params.provider);
        if (!provider || !refunding.get(provider)?.refundResult) throw new AppError('NOT_FOUND');
        const outcome = await acceptRefundResult(
          db,
          refunding,
          provider,
          request.params.refundReference,
          request.body,
          request.log,
        );
        if (outcome === 'unreadable')
          throw new AppError('INVALID_ARGUMENT', undefined, { body: 'is not a refund result' });
        return { data: { received: true as const } };
      },
    );
  });

  /*
   * Each mobile money provider's callback, unsigned (MoMo PUTs its status body, Daraja POSTs its
   * stkCallback): read only for the payment it names, whose status is then asked of the provider, and that
   * answer alone settles it (ADR 037). When the status call fails, the callback is kept as a job that asks
   * again with backoff. A callback naming no payment of ours is 400 and changes nothing.
   */
  for (const mobile of mobileMoney.values()) {
    await app.register(async (scope) => {
      const callbacks = scope.withTypeProvider<ZodTypeProvider>();
      const handler = async (request: { body: unknown; log: SettleLogger }) => {
        const subject = mobile.callbackSubject(request.body);
        const named = subject && ('reference' in subject ? subject.reference : subject.providerReference);
        if (!subject || !named || !CALLBACK_SUBJECT.test(named)) {
          throw new AppError('INVALID_ARGUMENT', undefined, { body: 'names no payment' });
        }
        try {
          await pollMobileMoneyPayment(db, mobile, subject, settling(request.log));
        } catch (error) {
          request.log.warn({ err: error, subject }, 'mobile money status unavailable: asked again later');
          await jobs.send(MOBILE_MONEY_STATUS_JOB, { provider: mobile.name, subject });
        }
        return { data: { received: true as const } };
      };
      const route = {
        schema: {
          tags,
          summary: `The ${mobile.name} callback (a hint: the status call decides)`,
          response: { 200: dataEnvelope(z.object({ received: z.literal(true) })) },
        },
        bodyLimit: MOBILE_MONEY_CALLBACK_BODY_LIMIT,
      };
      callbacks.put(callbackPathOf(mobile.name), route, handler);
      callbacks.post(callbackPathOf(mobile.name), route, handler);
    });
  }
};
