import { PAYMENT_MESSAGES, type PaymentEvent } from '@kaminuza/shared';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { payments } from '../../db/schema/index.ts';
import { settlePayment, type SettleLog } from './payments.service.ts';
import {
  currencyDigits,
  type MobileMoneyFailure,
  type MobileMoneyProvider,
  type MobileMoneyStatus,
} from './providers/mobile-money.ts';

/** What the payer is told for each failure (packages/shared messages, shown in their language). */
const FAILURE_MESSAGES: Record<MobileMoneyFailure, string> = {
  declined: PAYMENT_MESSAGES.mobile_money_declined,
  insufficient_funds: PAYMENT_MESSAGES.mobile_money_insufficient_funds,
  timeout: PAYMENT_MESSAGES.mobile_money_timeout,
  unknown_payer: PAYMENT_MESSAGES.mobile_money_unknown_payer,
  not_allowed: PAYMENT_MESSAGES.mobile_money_declined,
  provider_error: PAYMENT_MESSAGES.mobile_money_declined,
};

export type MobileMoneySettlement = 'settled' | 'unchanged' | 'pending' | 'refused';

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
  log: SettleLog,
): Promise<MobileMoneySettlement> {
  if (status.state === 'pending') return 'pending';
  if (status.externalId !== reference) {
    log.warn(
      { provider: provider.name, reference, external_id: status.externalId },
      'mobile money status names another payment: ignored',
    );
    return 'refused';
  }
  const event: PaymentEvent = {
    // One event per outcome of a prompt: the callback, its duplicates and the polls all name the same one.
    id: `${provider.name}:${reference}:${status.state}`,
    type: status.state === 'succeeded' ? 'payment.succeeded' : 'payment.failed',
    data: {
      reference,
      amount: status.amount / 10 ** currencyDigits(status.currency),
      currency: status.currency,
      method: 'mobile_money',
      failure_reason: status.reason ? FAILURE_MESSAGES[status.reason] : null,
    },
  };
  const warnings: object[] = [];
  const settled = await settlePayment(db, provider.name, event, {
    warn(object, message) {
      warnings.push(object);
      log.warn(object, message);
    },
  });
  if (settled) return 'settled';
  return warnings.length > 0 ? 'refused' : 'unchanged';
}

/** Asks the provider about one payment and settles it from the answer (a poll, or a reconciliation pass). */
export async function pollMobileMoneyPayment(
  db: Db,
  provider: MobileMoneyProvider,
  reference: string,
  log: SettleLog,
): Promise<MobileMoneySettlement> {
  return settleFromStatus(db, provider, reference, await provider.status(reference), log);
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
  log: SettleLog,
): Promise<MobileMoneySettlement | 'ignored'> {
  const reference = provider.callbackReference(body);
  if (!reference) {
    log.warn({ provider: provider.name }, 'mobile money callback names no payment: ignored');
    return 'ignored';
  }
  return pollMobileMoneyPayment(db, provider, reference, log);
}

/**
 * A prompt still pending past its expiry fails with the timeout reason, settled like any outcome (once,
 * whatever arrives at the same moment). MoMo says so itself in time; this does not wait for it.
 */
export async function expireMobileMoneyPayment(
  db: Db,
  provider: Pick<MobileMoneyProvider, 'name'>,
  reference: string,
  log: SettleLog,
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
      reason: 'timeout',
      providerReason: null,
      providerTransactionId: null,
    },
    log,
  );
}
