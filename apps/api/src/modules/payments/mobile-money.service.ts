import { PAYMENT_MESSAGES, type PaymentEvent } from '@kaminuza/shared';
import { and, eq, isNotNull, isNull, or } from 'drizzle-orm';
import { countryOfMsisdn } from '../../lib/mobile-number.ts';
import type { Db } from '../../db/client.ts';
import { payments } from '../../db/schema/index.ts';
import { settlePayment, type SettleContext, type Settlement } from './payments.service.ts';
import type { PendingPrompt } from './payments.service.ts';
import {
  ProviderError,
  currencyDigits,
  type MobileMoneyCallbackSubject,
  type MobileMoneyFailure,
  type MobileMoneyPaymentRef,
  type MobileMoneyProvider,
  type MobileMoneyStatus,
} from './providers/mobile-money.ts';

/** What the payer is told for each failure (packages/shared messages, shown in their language). */
const FAILURE_MESSAGES: Record<MobileMoneyFailure, string> = {
  declined: PAYMENT_MESSAGES.mobile_money_declined,
  insufficient_funds: PAYMENT_MESSAGES.mobile_money_insufficient_funds,
  timeout: PAYMENT_MESSAGES.mobile_money_timeout,
  unknown_payer: PAYMENT_MESSAGES.mobile_money_unknown_payer,
  wrong_pin: PAYMENT_MESSAGES.mobile_money_wrong_pin,
  not_allowed: PAYMENT_MESSAGES.mobile_money_declined,
  provider_error: PAYMENT_MESSAGES.mobile_money_declined,
  unavailable: PAYMENT_MESSAGES.mobile_money_unavailable,
};

export type MobileMoneySettlement = Settlement | 'pending';

/**
 * Settles a payment from the provider's own status answer — never from a callback's body. A status
 * that names another reference is refused and logged; one whose amount or currency differs from the
 * record is refused and logged by settlePayment, whose `where status = 'pending'` makes any number of
 * concurrent callbacks and polls settle the payment once ('settled' for that one, 'unchanged' for the
 * others).
 */
export async function settleFromStatus(
  db: Db,
  provider: Pick<MobileMoneyProvider, 'name'>,
  reference: string,
  status: MobileMoneyStatus,
  context: SettleContext,
): Promise<MobileMoneySettlement> {
  if (status.state === 'pending') return 'pending';
  if (status.externalId !== reference) {
    context.log.warn(
      { provider: provider.name, reference, external_id: status.externalId },
      'mobile money status names another payment: ignored',
    );
    return 'refused';
  }
  // A status stating no amount confirms the request we made: the record's amount is the one asked.
  const amount = status.amount ?? (await recordedMinorAmount(db, provider.name, reference));
  if (amount === null) return 'unchanged';
  const event: PaymentEvent = {
    // One event per outcome of a prompt: the callback, its duplicates and the polls all name the same one.
    id: `${provider.name}:${reference}:${status.state}`,
    type: status.state === 'succeeded' ? 'payment.succeeded' : 'payment.failed',
    data: {
      reference,
      amount: amount / 10 ** currencyDigits(status.currency),
      currency: status.currency,
      method: 'mobile_money',
      failure_reason: status.reason ? FAILURE_MESSAGES[status.reason] : null,
    },
  };
  return settlePayment(db, provider.name, event, context, { providerTransactionId: status.providerTransactionId });
}

async function recordedMinorAmount(db: Db, provider: MobileMoneyProvider['name'], reference: string) {
  const [row] = await db
    .select({ amount: payments.amount, currency: payments.currency })
    .from(payments)
    .where(and(eq(payments.provider, provider), eq(payments.reference, reference)));
  return row ? Math.round(row.amount * 10 ** currencyDigits(row.currency)) : null;
}

/** A mobile money payment of ours as its provider's status call names it; null when there is none. */
async function paymentRef(
  db: Db,
  provider: MobileMoneyProvider['name'],
  subject: MobileMoneyCallbackSubject,
): Promise<MobileMoneyPaymentRef | null> {
  const [row] = await db
    .select({
      reference: payments.reference,
      providerReference: payments.provider_reference,
      currency: payments.currency,
      phone: payments.payer_phone,
    })
    .from(payments)
    .where(
      and(
        eq(payments.provider, provider),
        'reference' in subject
          ? eq(payments.reference, subject.reference)
          : eq(payments.provider_reference, subject.providerReference),
      ),
    );
  if (!row) return null;
  return {
    reference: row.reference,
    providerReference: row.providerReference,
    currency: row.currency,
    country: (row.phone && countryOfMsisdn(row.phone)) ?? '',
  };
}

/**
 * Asks the provider about one payment and settles it from the answer (a poll, a callback, or a
 * reconciliation pass). A payment we have no record of is 'refused': there is nothing to ask about.
 */
export async function pollMobileMoneyPayment(
  db: Db,
  provider: MobileMoneyProvider,
  subject: string | MobileMoneyCallbackSubject,
  context: SettleContext,
): Promise<MobileMoneySettlement> {
  const ref = await paymentRef(db, provider.name, typeof subject === 'string' ? { reference: subject } : subject);
  if (!ref) {
    context.log.warn({ provider: provider.name, subject }, 'mobile money status asked for no payment of ours: ignored');
    return 'refused';
  }
  const status = await withTransactionHint(db, provider, ref.reference, await provider.status(ref), subject);
  const settled = await settleFromStatus(db, provider, ref.reference, status, context);
  if (settled === 'unchanged' && status.state === 'succeeded' && status.providerTransactionId) {
    // Settled already by a poll that had no receipt: the confirmed callback's is kept now.
    await db
      .update(payments)
      .set({ provider_transaction_id: status.providerTransactionId })
      .where(
        and(
          eq(payments.provider, provider.name),
          eq(payments.reference, ref.reference),
          isNull(payments.provider_transaction_id),
          or(eq(payments.status, 'succeeded'), isNotNull(payments.refund_status)),
        ),
      );
  }
  return settled;
}

/**
 * A success whose status states no money movement takes the callback's (MobileMoneyCallbackSubject), when
 * the callback states the payment's own amount.
 */
async function withTransactionHint(
  db: Db,
  provider: Pick<MobileMoneyProvider, 'name'>,
  reference: string,
  status: MobileMoneyStatus,
  subject: string | MobileMoneyCallbackSubject,
): Promise<MobileMoneyStatus> {
  const hint = typeof subject === 'string' ? undefined : subject.transactionHint;
  if (status.state !== 'succeeded' || status.providerTransactionId !== null || !hint) return status;
  if (hint.amount === null || hint.amount !== (await recordedMinorAmount(db, provider.name, reference))) return status;
  return { ...status, providerTransactionId: hint.id };
}

/**
 * A callback (unsigned, for MoMo) is only a hint: it names the payment, which is then asked about. A
 * body naming none is ignored. Throws the provider's ProviderError when the status call fails, so a job
 * retries it later.
 */
export async function mobileMoneyCallback(
  db: Db,
  provider: MobileMoneyProvider,
  body: unknown,
  context: SettleContext,
): Promise<MobileMoneySettlement | 'ignored'> {
  const subject = provider.callbackSubject(body);
  if (!subject) {
    context.log.warn({ provider: provider.name }, 'mobile money callback names no payment: ignored');
    return 'ignored';
  }
  return pollMobileMoneyPayment(db, provider, subject, context);
}

/**
 * Fails a payment still pending for a reason of ours (its prompt expired unanswered, or it never reached the
 * phone), settled like any outcome: once, whatever arrives at the same moment. A success the network
 * reports later is then recorded as owed back (settlePayment).
 */
export async function failMobileMoneyPayment(
  db: Db,
  provider: Pick<MobileMoneyProvider, 'name'>,
  reference: string,
  reason: MobileMoneyFailure,
  context: SettleContext,
): Promise<MobileMoneySettlement> {
  const [payment] = await db
    .select({ amount: payments.amount, currency: payments.currency, status: payments.status })
    .from(payments)
    .where(and(eq(payments.reference, reference), eq(payments.provider, provider.name)));
  if (!payment || payment.status !== 'pending') return 'unchanged';
  return settleFromStatus(
    db,
    provider,
    reference,
    {
      state: 'failed',
      amount: Math.round(payment.amount * 10 ** currencyDigits(payment.currency)),
      currency: payment.currency,
      externalId: reference,
      reason,
      providerReason: null,
      providerTransactionId: null,
    },
    context,
  );
}

/** A prompt still pending past its expiry fails with the timeout reason; the network says so itself in time. */
export const expireMobileMoneyPayment = (
  db: Db,
  provider: Pick<MobileMoneyProvider, 'name'>,
  reference: string,
  context: SettleContext,
) => failMobileMoneyPayment(db, provider, reference, 'timeout', context);

/** How long a prompt may wait for the payer before the payment fails with the timeout reason. */
export const PROMPT_TTL_MS = 5 * 60_000;

/**
 * Pushes a recorded payment's prompt to the payer's phone, keeps the network's own id of it, and starts the
 * poll that follows it until it is final or expired. A request the network refused or never answered fails
 * the payment at once with a reason the payer can act on (a prompt that did reach the phone after all and
 * is paid is then recorded as owed back).
 */
export async function sendMobileMoneyPrompt(
  db: Db,
  prompt: PendingPrompt,
  deps: { callbackUrl: string; startPoll: (poll: { reference: string; until: string }) => Promise<void> },
  context: SettleContext,
): Promise<void> {
  const { provider } = prompt;
  try {
    const requested = await provider.requestPayment({
      reference: prompt.reference,
      amount: prompt.amount,
      currency: prompt.currency,
      msisdn: prompt.msisdn,
      country: prompt.country,
      payerMessage: prompt.description,
      payeeNote: prompt.description,
      callbackUrl: deps.callbackUrl,
    });
    if (requested.providerReference) {
      await db
        .update(payments)
        .set({ provider_reference: requested.providerReference })
        .where(eq(payments.id, prompt.id));
    }
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    context.log.warn(
      { err: error, reference: prompt.reference, provider: provider.name },
      'mobile money prompt not sent',
    );
    await failMobileMoneyPayment(db, provider, prompt.reference, error.failure ?? 'unavailable', context);
    return;
  }
  await deps.startPoll({ reference: prompt.reference, until: new Date(Date.now() + PROMPT_TTL_MS).toISOString() });
}
