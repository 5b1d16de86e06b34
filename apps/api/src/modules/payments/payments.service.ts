import { randomBytes, randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, isNull, lte } from 'drizzle-orm';
import {
  APPLICATION_MESSAGES,
  DOCUMENT_MIME_TYPES,
  MOBILE_MONEY_MARKETS,
  PAYMENT_MESSAGES,
  fromMinor,
  isMobileMoneyChannel,
  type BankAccount,
  type CheckoutStarted,
  type FeeChannel,
  type FeeOption,
  type MobileMoneyProviderName,
  type PaymentOptions,
  type PaymentStart,
  type PaymentCheckout,
  type PaymentEvent,
  type PaymentSummary,
  type SandboxResult,
} from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { applications, cycles, files, partners, payments, programs, students } from '../../db/schema/index.ts';
import { uniqueViolation } from '../../lib/db-errors.ts';
import { AppError } from '../../lib/errors.ts';
import { claimIdempotencyKey, keyReused, requestFingerprint, sameRequest } from '../../lib/idempotency.ts';
import { publish } from '../../lib/realtime.ts';
import type { DbOrTx } from '../../db/client.ts';
import { cycleSettings, getSettings } from '../partner-settings/index.ts';
import { mobileMsisdn } from '../../lib/mobile-number.ts';
import type { MobileMoneyProviders } from './mobile-money-providers.ts';
import type { MobileMoneyProvider } from './providers/mobile-money.ts';
import type { Checkout, PaymentProvider } from './providers/payment-provider.ts';
import { ProviderError } from './providers/mobile-money.ts';
import type { SandboxProvider } from './providers/sandbox-provider.ts';
import { applicationsOpen } from '../catalogue/index.ts';
import { issueReceipt } from './receipts.service.ts';
import { assertFeeNotWaived, feeWaived } from '../waivers/index.ts';

/** The fee payment that settled an application, if it is paid: what its submission records. */
export interface FeePayment {
  id: string;
  amount: number;
  currency: string;
}

/** The succeeded payment of an application's fee, or null while it is unpaid. */
export async function succeededPaymentOf(db: DbOrTx, applicationId: string): Promise<FeePayment | null> {
  const [row] = await db
    .select({ id: payments.id, amount: payments.amount, currency: payments.currency })
    .from(payments)
    .where(and(eq(payments.application_id, applicationId), eq(payments.status, 'succeeded')))
    .limit(1);
  return row ?? null;
}

type PaymentRow = typeof payments.$inferSelect;

const iso = (value: string) => new Date(value).toISOString();

function summary(row: PaymentRow): PaymentSummary {
  return {
    id: row.id,
    provider: row.provider,
    reference: row.reference,
    amount: row.amount,
    currency: row.currency,
    status: row.status,
    method: row.method,
    failure_reason: row.failure_reason,
    paid_at: row.paid_at === null ? null : iso(row.paid_at),
    created_at: iso(row.created_at),
  };
}

/** A payment record by its id, as the payer and the institution's reviewers see it; null when there is none. */
export async function paymentSummaryById(db: DbOrTx, paymentId: string): Promise<PaymentSummary | null> {
  const [row] = await db.select().from(payments).where(eq(payments.id, paymentId)).limit(1);
  return row ? summary(row) : null;
}

/** The application screen a payer returns to from the checkout. */
const returnPathOf = (partnerId: string) => `/partners/${encodeURIComponent(partnerId)}/application/form`;

/** Money is compared in minor units: 100 and 100.00 are the same fee, 100.001 is not a fee at all. */
const sameAmount = (a: number, b: number) => Math.round(a * 100) === Math.round(b * 100);

/**
 * The caller's application with what paying for it needs, or null when it is not theirs. The payments
 * module reads the applications table itself (rather than through the applications module) because
 * it needs only ownership, status and cycle — a small duplication kept in this one function.
 */
async function applicationOfStudent(db: DbOrTx, userId: string, applicationId: string) {
  const [row] = await db
    .select({
      id: applications.id,
      student_id: applications.student_id,
      partner_id: applications.partner_id,
      cycle_id: applications.cycle_id,
      status: applications.status,
      partner_name: partners.name,
      program_name: programs.name,
      payer: { email: students.email, first_name: students.first_name, last_name: students.last_name },
      cycle: { status: cycles.status, opens_on: cycles.opens_on, closes_on: cycles.closes_on },
    })
    .from(applications)
    .innerJoin(students, eq(students.id, applications.student_id))
    .innerJoin(partners, eq(partners.id, applications.partner_id))
    .innerJoin(programs, eq(programs.id, applications.program_id))
    .innerJoin(cycles, eq(cycles.id, applications.cycle_id))
    .where(and(eq(applications.id, applicationId), eq(students.user_id, userId)))
    .limit(1);
  return row ?? null;
}

/**
 * GET /applications/:id/payment/options: the institution's fee per currency with the channels this
 * deployment collects through (card always; a mobile money network when it is configured; a bank slip once
 * the institution has set its bank details), and the student's phone to suggest. Not theirs: 404.
 */
export async function paymentOptions(
  db: Db,
  available: ReadonlySet<FeeChannel>,
  userId: string,
  applicationId: string,
): Promise<PaymentOptions> {
  const application = await applicationOfStudent(db, userId, applicationId);
  if (!application) throw new AppError('NOT_FOUND');
  const { admissions } = await getSettings(db, application.partner_id);
  const [student] = await db
    .select({ phone: students.phone })
    .from(students)
    .where(eq(students.id, application.student_id));
  const options = admissions.application_fees
    .map((option) => ({
      ...option,
      amount_major: fromMinor(option.amount, option.currency),
      channels: option.channels.filter(
        (channel) =>
          available.has(channel) &&
          (channel !== 'bank_slip' || bankAccountOf(admissions.bank_accounts, option.currency) !== null),
      ),
    }))
    .filter((option) => option.channels.length > 0);
  const slipCurrencies = new Set(options.filter((o) => o.channels.includes('bank_slip')).map((o) => o.currency));
  return {
    options,
    suggested_phone: student?.phone ?? null,
    bank_accounts: admissions.bank_accounts.filter((account) => slipCurrencies.has(account.currency)),
  };
}

/** The institution's account for deposits in the currency, or null when it has set none. */
const bankAccountOf = (accounts: readonly BankAccount[], currency: string) =>
  accounts.find((account) => account.currency === currency) ?? null;

/**
 * The slip file sent with a bank slip payment: a file the caller uploaded as a slip (an image or a PDF,
 * read from its bytes on upload) that no other payment holds. Anything else is a 400, never a hint whose it is.
 */
async function slipFileOf(db: DbOrTx, userId: string, fileId: string | undefined) {
  if (!fileId) throw new AppError('INVALID_ARGUMENT', undefined, { slip_file_id: PAYMENT_MESSAGES.slip_file_required });
  const [file] = await db
    .select({ id: files.id, mime_type: files.mime_type, used_by: payments.id })
    .from(files)
    .leftJoin(payments, eq(payments.slip_file_id, files.id))
    .where(and(eq(files.id, fileId), eq(files.owner_id, userId), eq(files.purpose, 'payment_slip')))
    .limit(1);
  if (!file || file.used_by !== null || !(DOCUMENT_MIME_TYPES as readonly string[]).includes(file.mime_type)) {
    throw new AppError('INVALID_ARGUMENT', undefined, { slip_file_id: PAYMENT_MESSAGES.slip_file_invalid });
  }
  return file.id;
}

/** The payment a student's Idempotency-Key opened, whichever of their applications it was for. */
async function paymentByKey(db: DbOrTx, studentId: string, idempotencyKey: string) {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.student_id, studentId), eq(payments.idempotency_key, idempotencyKey)))
    .limit(1);
  return row ?? null;
}

/** The pending or succeeded payment of an application (the partial unique index allows one at most). */
async function livePayment(db: DbOrTx, applicationId: string) {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.application_id, applicationId), inArray(payments.status, ['pending', 'succeeded'])))
    .limit(1);
  return row ?? null;
}

export interface StartCheckoutInput {
  userId: string;
  applicationId: string;
  idempotencyKey: string | undefined;
  now: Date;
  /** How the applicant pays: the channel, the currency (the first the institution lists by default), the number. */
  choice: PaymentStart;
}

/** What opening a checkout needs: the card provider, the mobile money networks configured, and a prompt sender. */
export interface CheckoutProviders {
  card: PaymentProvider;
  mobileMoney: MobileMoneyProviders;
  /** Settles a card checkout given up for another way to pay (its log, the receipt links' URL). */
  settling: SettleContext;
  /** Pushes the prompt of a mobile money payment just recorded (after its transaction committed). */
  sendPrompt: (payment: PendingPrompt) => Promise<void>;
}

/** A mobile money payment recorded and not yet asked of the payer's phone. */
export interface PendingPrompt {
  id: string;
  reference: string;
  provider: MobileMoneyProvider;
  amount: number;
  currency: string;
  msisdn: string;
  country: string;
  description: string;
}

/** A 400 on one field of the request, in the spec's words (the form shows it under that field). */
const invalidField = (path: string, message: string) => new AppError('INVALID_ARGUMENT', message, [{ path, message }]);

/** The fee option of the currency chosen (the first when none is), or the reason it cannot be paid so. */
function chosenOption(options: readonly FeeOption[], choice: PaymentStart): FeeOption {
  if (options.length === 0) throw new AppError('ABORTED', PAYMENT_MESSAGES.no_fee);
  const option = choice.currency ? options.find((o) => o.currency === choice.currency) : options[0];
  if (!option) throw invalidField('currency', PAYMENT_MESSAGES.currency_not_accepted);
  if (!option.channels.includes(choice.channel ?? 'card')) {
    throw invalidField('channel', PAYMENT_MESSAGES.channel_not_accepted);
  }
  return option;
}

/** The payer's number as the network takes it, of a country where it collects in the currency; else a 400. */
function payerNumber(network: MobileMoneyProviderName, currency: string, phone: string) {
  for (const { country, currency: marketCurrency } of MOBILE_MONEY_MARKETS[network]) {
    if (marketCurrency !== currency) continue;
    const msisdn = mobileMsisdn(phone, country);
    if (msisdn) return { msisdn, country };
  }
  throw invalidField('phone', PAYMENT_MESSAGES.mobile_number_not_of_network);
}

/**
 * POST /applications/:id/payment. A retry with the same Idempotency-Key answers the payment that key
 * opened; the key sent for another application is 422, and while its first request runs, 409
 * (lib/idempotency.ts: the key is claimed for the whole request, provider call included). Without a key,
 * a pending checkout of the same way to pay is answered again rather than doubled, one of another way is a
 * 409 (payment_pending); otherwise a new checkout is opened. Two requests racing past the checks meet the
 * partial unique index, and the loser answers the winner's (or the same 409).
 */
export async function startCheckout(
  db: Db,
  providers: CheckoutProviders,
  input: StartCheckoutInput,
): Promise<{ created: boolean; checkout: CheckoutStarted }> {
  const key = input.idempotencyKey;
  const opened = key
    ? await db.transaction(async (tx) => {
        await claimIdempotencyKey(tx, 'payment', key);
        const fingerprint = requestFingerprint({
          action: 'payment',
          target: { application_id: input.applicationId },
          // The card checkout of the first currency is the request without a body, as before fees per currency.
          body: isDefaultChoice(input.choice) ? null : input.choice,
        });
        return openCheckout(tx, providers, input, { key, fingerprint });
      })
    : await openCheckout(db, providers, input, null);
  if (!opened.prompt) return opened;
  // The prompt goes to the phone once the payment's record is committed: its callback can only find it then.
  await providers.sendPrompt(opened.prompt);
  const after = await paymentSummaryById(db, opened.prompt.id);
  return { created: true, checkout: { ...opened.checkout, payment: after ?? opened.checkout.payment } };
}

/** Fails a pending card checkout the applicant left for another way to pay; once, like every settlement. */
async function giveUpCardCheckout(db: DbOrTx, pending: PaymentRow, context: SettleContext): Promise<void> {
  const event: PaymentEvent = {
    id: `abandoned_${pending.reference}`,
    type: 'payment.failed',
    data: {
      reference: pending.reference,
      amount: pending.amount,
      currency: pending.currency,
      method: 'card',
      failure_reason: PAYMENT_MESSAGES.checkout_abandoned,
    },
  };
  await settlePayment(db, pending.provider, event, context);
}

/** The way to pay a payment record was opened by: its network, a bank slip, or a card (any card provider). */
function channelOf({ provider }: Pick<PaymentRow, 'provider'>): FeeChannel {
  if (provider === 'bank_slip') return 'bank_slip';
  return provider === 'sandbox' || provider === 'flutterwave' ? 'card' : provider;
}

const isDefaultChoice = (choice: PaymentStart) =>
  (choice.channel ?? 'card') === 'card' && choice.currency === undefined && choice.phone === undefined;

/** Where the browser goes for a payment: the card provider's page, or ours, which follows a prompt's status. */
const payPageOf = (reference: string) => `/pay?reference=${encodeURIComponent(reference)}`;

async function openCheckout(
  db: DbOrTx,
  providers: CheckoutProviders,
  { userId, applicationId, now, choice }: StartCheckoutInput,
  idempotency: { key: string; fingerprint: string } | null,
): Promise<{ created: boolean; checkout: CheckoutStarted; prompt?: PendingPrompt }> {
  const provider = providers.card;
  const application = await applicationOfStudent(db, userId, applicationId);
  if (!application) throw new AppError('NOT_FOUND');
  const answer = async (row: PaymentRow, created: boolean) => ({
    created,
    checkout: {
      payment: summary(row),
      checkout_url:
        row.provider === provider.name
          ? await provider.checkoutUrl(row.reference)
          : row.provider === 'bank_slip'
            ? returnPathOf(row.partner_id)
            : payPageOf(row.reference),
    },
  });
  const earlierOfKey = async () => {
    if (!idempotency) return null;
    const earlier = await paymentByKey(db, application.student_id, idempotency.key);
    if (!earlier) return null;
    const legacyMatch = earlier.application_id === applicationId;
    if (!sameRequest(earlier.idempotency_fingerprint, idempotency.fingerprint, legacyMatch)) throw keyReused();
    return earlier;
  };

  /**
   * The pending payment found instead of opening a new one: the same way to pay resumes it (a retry, a second
   * tab). A card checkout left open on the provider's page is given up for another way (failed, "you chose
   * another way to pay"): it would otherwise hold the applicant for the provider's hour, and should they pay
   * on that page after all, the success is recorded as owed back (settlePayment). A mobile money prompt (on
   * the payer's phone, ended by the network within minutes) or a bank slip (money perhaps deposited, waiting
   * for staff) is not given up: another way is refused — a slip and its bank reference would otherwise be
   * dropped unseen. Answers null once the card checkout is given up: a new one may open.
   */
  const resumed = async (pending: PaymentRow) => {
    if (channelOf(pending) === channel) return answer(pending, false);
    if (channelOf(pending) === 'card') {
      await giveUpCardCheckout(db, pending, providers.settling);
      return null;
    }
    throw otherWayPending();
  };

  const earlier = await earlierOfKey();
  if (earlier) return answer(earlier, false);
  if (application.status !== 'in_progress')
    throw new AppError('ABORTED', APPLICATION_MESSAGES.already_submitted, undefined, { reason: 'already_submitted' });
  const { timezone, currentCycleId } = await cycleSettings(db, application.partner_id);
  if (!applicationsOpen({ current_cycle_id: currentCycleId, timezone }, application.cycle_id, application.cycle, now)) {
    throw new AppError('ABORTED', APPLICATION_MESSAGES.cycle_closed, undefined, { reason: 'cycle_closed' });
  }
  const channel = choice.channel ?? 'card';
  const live = await livePayment(db, applicationId);
  if (live?.status === 'succeeded')
    throw new AppError('ABORTED', PAYMENT_MESSAGES.already_paid, undefined, { reason: 'already_paid' });
  const resuming = live ? await resumed(live) : null;
  if (resuming) return resuming;
  await assertFeeNotWaived(db, applicationId);

  const { admissions } = await getSettings(db, application.partner_id);
  const option = chosenOption(admissions.application_fees, choice);
  const amount = fromMinor(option.amount, option.currency);
  const description = `${application.partner_name} — ${application.program_name}`;
  let checkout: Checkout;
  let prompt: Omit<PendingPrompt, 'id'> | null = null;
  let slip: { slip_file_id: string; bank_reference: string } | null = null;
  if (channel === 'bank_slip') {
    if (!bankAccountOf(admissions.bank_accounts, option.currency)) {
      throw new AppError('INVALID_ARGUMENT', undefined, { channel: PAYMENT_MESSAGES.channel_not_accepted });
    }
    const bankReference = choice.bank_reference?.trim();
    if (!bankReference) {
      throw new AppError('INVALID_ARGUMENT', undefined, { bank_reference: PAYMENT_MESSAGES.bank_reference_invalid });
    }
    slip = { slip_file_id: await slipFileOf(db, userId, choice.slip_file_id), bank_reference: bankReference };
    // Staff verify it by hand: the applicant comes back to their application, which shows it awaiting review.
    checkout = {
      reference: `slip_${randomBytes(12).toString('hex')}`,
      checkoutUrl: returnPathOf(application.partner_id),
    };
  } else if (isMobileMoneyChannel(channel)) {
    const network = providers.mobileMoney.get(channel);
    if (!network) throw invalidField('channel', PAYMENT_MESSAGES.channel_not_accepted);
    const payer = payerNumber(channel, option.currency, choice.phone ?? '');
    // A UUID: MoMo's X-Reference-Id must be one, and every network takes it as the transaction's id.
    const reference = randomUUID();
    checkout = { reference, checkoutUrl: payPageOf(reference) };
    prompt = { reference, provider: network, amount: option.amount, currency: option.currency, ...payer, description };
  } else if (channel === 'card') {
    const { payer } = application;
    checkout = await provider
      .createCheckout({
        reference: `pay_${randomBytes(12).toString('hex')}`,
        amount,
        currency: option.currency,
        returnPath: returnPathOf(application.partner_id),
        description,
        payer: {
          email: payer.email,
          name: [payer.first_name, payer.last_name].filter(Boolean).join(' ') || payer.email,
        },
      })
      .catch((error: unknown) => {
        // Nothing was recorded: the payer may simply try again (a refusal is our configuration, logged as such).
        if (error instanceof ProviderError) {
          throw new AppError('UNAVAILABLE', PAYMENT_MESSAGES.card_provider_unavailable, undefined, {
            ...(error.retryable ? { retryAfterSeconds: 30 } : {}),
          });
        }
        throw error;
      });
  } else {
    throw invalidField('channel', PAYMENT_MESSAGES.channel_not_accepted);
  }

  try {
    // A savepoint when the caller's transaction holds the key: a lost race leaves that transaction usable.
    const row = await db.transaction(async (tx) => {
      // Shares the lock submission takes for update: no checkout opens on an application being submitted.
      const [open] = await tx
        .select({ id: applications.id })
        .from(applications)
        .where(and(eq(applications.id, applicationId), eq(applications.status, 'in_progress')))
        .for('share');
      if (!open)
        throw new AppError('ABORTED', APPLICATION_MESSAGES.already_submitted, undefined, {
          reason: 'already_submitted',
        });
      const [inserted] = await tx
        .insert(payments)
        .values({
          application_id: applicationId,
          student_id: application.student_id,
          partner_id: application.partner_id,
          provider: slip ? 'bank_slip' : prompt ? prompt.provider.name : provider.name,
          ...(slip ? { method: 'bank_transfer' as const, ...slip } : {}),
          reference: checkout.reference,
          amount,
          currency: option.currency,
          payer_phone: prompt?.msisdn ?? null,
          idempotency_key: idempotency?.key ?? null,
          idempotency_fingerprint: idempotency?.fingerprint ?? null,
        })
        .returning();
      return inserted!;
    });
    return {
      created: true,
      checkout: { payment: summary(row), checkout_url: checkout.checkoutUrl },
      ...(prompt ? { prompt: { ...prompt, id: row.id } } : {}),
    };
  } catch (error) {
    if (uniqueViolation(error) === null) throw error;
    const winner = (await earlierOfKey()) ?? (await livePayment(db, applicationId));
    if (!winner) throw error;
    if (idempotency && winner.idempotency_key === idempotency.key) return answer(winner, false);
    if (winner.status === 'succeeded') {
      throw new AppError('ABORTED', PAYMENT_MESSAGES.already_paid, undefined, { reason: 'already_paid' });
    }
    // Another request opened it a moment ago: never given up, whatever its way to pay.
    if (channelOf(winner) === channel) return answer(winner, false);
    throw otherWayPending();
  }
}

const otherWayPending = () =>
  new AppError('ABORTED', PAYMENT_MESSAGES.other_payment_pending, undefined, { reason: 'payment_pending' });

/** A payment with its application's institution and program, readable only by the student who owes it. */
async function paymentOfPayer(db: DbOrTx, userId: string, reference: string) {
  const [row] = await db
    .select({
      payment: payments,
      partner_name: partners.name,
      program_name: programs.name,
    })
    .from(payments)
    .innerJoin(applications, eq(applications.id, payments.application_id))
    .innerJoin(students, eq(students.id, applications.student_id))
    .innerJoin(partners, eq(partners.id, applications.partner_id))
    .innerJoin(programs, eq(programs.id, applications.program_id))
    .where(and(eq(payments.reference, reference), eq(students.user_id, userId)))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}

/**
 * GET /payments/:reference — what the checkout page shows its payer. A payer back from a provider's page
 * brings its verdict in the address, which is not believed: a payment still pending is asked of the
 * provider (when it answers lookups other than from its own callbacks, like Flutterwave's verify) and
 * settled from that answer, so the page shows the outcome even before the provider's webhook comes.
 */
export async function getCheckout(
  db: Db,
  provider: PaymentProvider,
  userId: string,
  reference: string,
  context?: SettleContext,
): Promise<PaymentCheckout> {
  let { payment, partner_name, program_name } = await paymentOfPayer(db, userId, reference);
  if (context && payment.status === 'pending' && payment.provider === provider.name && provider.name !== 'sandbox') {
    const answer = await provider.lookup?.(reference).catch((error: unknown) => {
      // The provider is unreachable: the page shows the payment pending; webhook or reconcile settles it.
      context.log.warn({ err: error, reference }, 'payment lookup failed: shown as pending');
      return null;
    });
    if (answer) {
      await settlePayment(db, provider.name, answer.event, context, {
        providerTransactionId: answer.providerTransactionId,
      });
      ({ payment, partner_name, program_name } = await paymentOfPayer(db, userId, reference));
    }
  }
  return {
    ...summary(payment),
    application_id: payment.application_id,
    partner_name,
    program_name,
    return_path: returnPathOf(payment.partner_id),
    methods: [...provider.methods],
    payer_phone: payment.payer_phone === null ? null : `+${payment.payer_phone}`,
  };
}

/**
 * POST /payments/sandbox/:reference/complete — the sandbox page's Pay button. The outcome reaches the
 * payment only through the signed callback; the answer is the record as it stands after the first
 * delivery attempt (still pending when that attempt failed and a retry is scheduled).
 */
export async function completeSandboxPayment(
  db: Db,
  sandbox: SandboxProvider,
  userId: string,
  reference: string,
  input: Parameters<SandboxProvider['pay']>[1],
): Promise<SandboxResult> {
  const { payment } = await paymentOfPayer(db, userId, reference);
  if (payment.status !== 'pending' || payment.provider !== sandbox.name) {
    throw new AppError('ABORTED', PAYMENT_MESSAGES.not_pending);
  }
  await sandbox.pay({ reference, amount: payment.amount, currency: payment.currency }, input);
  const { payment: after } = await paymentOfPayer(db, userId, reference);
  return { status: after.status, failure_reason: after.failure_reason, return_path: returnPathOf(after.partner_id) };
}

const declinedMessage = (method: PaymentEvent['data']['method']) =>
  method === 'card' ? PAYMENT_MESSAGES.card_declined : PAYMENT_MESSAGES.mobile_money_declined;

export interface SettleLog {
  warn(object: object, message: string): void;
}

/**
 * Where a settlement runs: the log of its request or job, and the deployment's public URL (the configured
 * env's) that the receipt email of a success links to. Whoever settles hands both down; no module reads
 * them from the process.
 */
export interface SettleContext {
  log: SettleLog;
  publicUrl: string;
}

/**
 * What a verified event did: `settled` the pending payment; `refund_needed` (a success for a payment that
 * had failed, or for an application whose fee was waived while it waited, recorded once); `unchanged` (already settled: a duplicate, a replay, a poll after the
 * callback); `refused` (no such payment, or the amount or currency differs: logged, never trusted).
 */
export type Settlement = 'settled' | 'refund_needed' | 'unchanged' | 'refused';

/** What a provider's answer adds to the record once it settles. */
export interface SettleDetails {
  /** The provider's id of the money movement (MoMo financialTransactionId, M-Pesa receipt number …). */
  providerTransactionId?: string | null;
}

/**
 * Applies a verified provider event. Only a pending payment changes (`where status = 'pending'`), so
 * a retried or replayed callback changes nothing; an event whose amount or currency differs from the
 * record is ignored and logged, never trusted. A success for a payment that already failed (its prompt
 * expired, and the payer may have paid another way since) is money taken that is not the fee: it is
 * recorded as needing a refund, once, and shown to the institution. So is a success for an application
 * whose fee was waived while the payment waited (ADR 037, "A payment after a waiver"). The student's open tabs hear of it
 * once it commits.
 */
export async function settlePayment(
  db: DbOrTx,
  providerName: PaymentRow['provider'],
  event: PaymentEvent,
  { log, publicUrl }: SettleContext,
  details: SettleDetails = {},
): Promise<Settlement> {
  const { reference, amount, currency, method, failure_reason } = event.data;
  const transactionId = details.providerTransactionId ?? null;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ payment: payments, user_id: students.user_id })
      .from(payments)
      .innerJoin(applications, eq(applications.id, payments.application_id))
      .innerJoin(students, eq(students.id, applications.student_id))
      .where(and(eq(payments.provider, providerName), eq(payments.reference, reference)))
      .limit(1)
      // Held until the outcome is written: a waiver granted meanwhile waits (it locks pending payments
      // too), so a success is either the fee, seen paid by the waiver, or owed back, seeing the waiver.
      .for('update', { of: payments });
    if (!row) {
      log.warn({ reference, event: event.id }, 'payment callback for an unknown reference ignored');
      return 'refused';
    }
    if (!sameAmount(row.payment.amount, amount) || row.payment.currency !== currency) {
      log.warn(
        { reference, event: event.id, amount, currency, expected: [row.payment.amount, row.payment.currency] },
        'payment callback amount or currency differs from the payment: ignored',
      );
      return 'refused';
    }
    const succeeded = event.type === 'payment.succeeded';
    if (succeeded && row.payment.status === 'pending' && (await feeWaived(tx, row.payment.application_id))) {
      // The fee was waived while this payment waited: the money is not the fee. The waiver stands and the
      // payment is settled like a success that arrived too late — failed, owed back, shown to the institution.
      await tx
        .update(payments)
        .set({
          status: 'failed',
          method,
          failure_reason: PAYMENT_MESSAGES.fee_waived_refund,
          provider_event_id: event.id,
          provider_transaction_id: transactionId,
          refund_status: 'needed',
        })
        .where(eq(payments.id, row.payment.id));
      log.warn({ reference, event: event.id }, 'a success arrived for a waived fee: refund needed');
      await publish(
        tx,
        { users: [row.user_id] },
        { type: 'payment.updated', application_id: row.payment.application_id, reference },
      );
      return 'refund_needed';
    }
    const now = new Date().toISOString();
    const [settled] = await tx
      .update(payments)
      .set({
        status: succeeded ? 'succeeded' : 'failed',
        method,
        failure_reason: succeeded ? null : (failure_reason ?? declinedMessage(method)),
        provider_event_id: event.id,
        provider_transaction_id: transactionId,
        paid_at: succeeded ? now : null,
      })
      .where(and(eq(payments.id, row.payment.id), eq(payments.status, 'pending')))
      .returning({ id: payments.id });
    if (!settled) {
      if (!succeeded) return 'unchanged';
      const [owed] = await tx
        .update(payments)
        .set({ refund_status: 'needed', provider_transaction_id: transactionId })
        .where(and(eq(payments.id, row.payment.id), eq(payments.status, 'failed'), isNull(payments.refund_status)))
        .returning({ id: payments.id });
      if (!owed) return 'unchanged';
      log.warn({ reference, event: event.id }, 'a success arrived for a payment that had failed: refund needed');
    } else if (succeeded) {
      await issueReceipt(tx, settled.id, publicUrl);
    }
    await publish(
      tx,
      { users: [row.user_id] },
      { type: 'payment.updated', application_id: row.payment.application_id, reference },
    );
    return settled ? 'settled' : 'refund_needed';
  });
}

/** A checkout pending longer than this is asked about: its callback should long have come. */
export const RECONCILE_AFTER_MS = 2 * 60_000;
const RECONCILE_BATCH = 100;

/**
 * Reconciliation: asks the provider about payments still pending well after their checkout opened and
 * settles those it has decided, through the same path as a callback (so a callback arriving later changes
 * nothing). Answers how many it settled; a provider without a status query has nothing to answer.
 */
export async function reconcilePendingPayments(
  db: Db,
  provider: PaymentProvider,
  context: SettleContext,
  now = new Date(),
): Promise<number> {
  if (!provider.lookup) return 0;
  const stale = await db
    .select({
      reference: payments.reference,
      amount: payments.amount,
      currency: payments.currency,
      created_at: payments.created_at,
    })
    .from(payments)
    .where(
      and(
        eq(payments.provider, provider.name),
        eq(payments.status, 'pending'),
        lte(payments.created_at, new Date(now.getTime() - RECONCILE_AFTER_MS).toISOString()),
      ),
    )
    .orderBy(asc(payments.created_at))
    .limit(RECONCILE_BATCH);
  let settled = 0;
  const expiresAfter = provider.checkoutExpiresAfterMs;
  for (const { reference, amount, currency, created_at } of stale) {
    const answer = await provider.lookup(reference).catch((error: unknown) => {
      // One payment the provider cannot answer for now does not hold up the others: the next pass asks again.
      context.log.warn({ err: error, reference }, 'payment lookup failed: asked again by the next pass');
      return 'unanswered' as const;
    });
    if (answer === 'unanswered') continue;
    if (!answer) {
      if (expiresAfter === undefined || Date.parse(created_at) > now.getTime() - expiresAfter) continue;
      // Still undecided long after it opened: the payer left the provider's page, and a new checkout may open.
      const expired: PaymentEvent = {
        id: `expired_${reference}`,
        type: 'payment.failed',
        data: { reference, amount, currency, method: 'card', failure_reason: PAYMENT_MESSAGES.checkout_expired },
      };
      if ((await settlePayment(db, provider.name, expired, context)) === 'settled') settled += 1;
      continue;
    }
    await settlePayment(db, provider.name, answer.event, context, {
      providerTransactionId: answer.providerTransactionId,
    });
    settled += 1;
  }
  return settled;
}
