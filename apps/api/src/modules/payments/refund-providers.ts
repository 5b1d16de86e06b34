import type { PaymentProvider as ProviderName } from '@kaminuza/shared';
import { cardProviderFrom, type CardEnv, type CardProvider, type CardProviderDeps } from './card-providers.ts';
import { mobileMoneyProvidersFrom, type MobileMoneyEnv, type MobileMoneyProviders } from './mobile-money-providers.ts';
import type { RefundingProvider } from './providers/refunds.ts';

/** The providers whose refund API this deployment can use, by the provider a payment names. */
export type RefundingProviders = ReadonlyMap<ProviderName, RefundingProvider>;

/**
 * Built from the same variables as collections: a provider refunds through its API when its adapter has
 * one (and, where refunds need their own credentials, those are set); the others are refunded by hand.
 */
export function refundingProvidersFrom(env: CardEnv & MobileMoneyEnv, deps: CardProviderDeps): RefundingProviders {
  return refundingProviders(mobileMoneyProvidersFrom(env), cardProviderFrom(env, deps));
}

/** The same, from the providers already built. */
export function refundingProviders(mobileMoney: MobileMoneyProviders, card: CardProvider): RefundingProviders {
  const found = new Map<ProviderName, RefundingProvider>();
  for (const [name, provider] of mobileMoney) if (provider.refunds) found.set(name, provider.refunds);
  if (card.provider.refunds) found.set(card.name, card.provider.refunds);
  return found;
}

/** Whether the provider's API can refund this payment: one is owed, the provider has a refund API, the money movement is known. */
export function providerRefundAvailable(
  refunding: RefundingProviders,
  payment: { provider: ProviderName; refund_status: string | null; provider_transaction_id: string | null },
): boolean {
  return (
    payment.refund_status === 'needed' && payment.provider_transaction_id !== null && refunding.has(payment.provider)
  );
}
