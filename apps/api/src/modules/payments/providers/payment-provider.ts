import type { IncomingHttpHeaders } from 'node:http';
import type { RefundingProvider } from './refunds.ts';
import type { PaymentEvent, PaymentMethod, PaymentProvider as ProviderName } from '@kaminuza/shared';

/** What the api asks a provider to collect: one application's fee. */
export interface CheckoutRequest {
  /** Our reference of the checkout (`pay_…`); the provider echoes it in its callbacks. */
  reference: string;
  amount: number;
  currency: string;
  /** The page of this site the payer returns to once the provider has decided. */
  returnPath: string;
  /** What the payer sees on the provider's page, e.g. "Application fee — University of Kigali". */
  description: string;
  /** Who pays, for providers whose checkout asks (Flutterwave's `customer`). */
  payer?: { email: string; name: string };
}

/** A provider's own answer about a checkout, once it has decided. */
export interface LookedUp {
  event: PaymentEvent;
  /** The provider's id of the money movement, kept on the payment (Flutterwave's transaction id). */
  providerTransactionId: string | null;
}

export interface Checkout {
  /** The reference callbacks will name (ours, or the provider's own when it insists on one). */
  reference: string;
  /** Where the browser goes to pay: the provider's hosted page. */
  checkoutUrl: string;
}

/**
 * A payment gateway as the api sees it: a hosted checkout the browser is sent to, and signed callbacks
 * that are the only way the api learns an outcome. The sandbox implements it; a real gateway
 * (Flutterwave, Stripe) implements the same three calls — see docs/decisions/0XX-payments.md.
 */
export interface PaymentProvider {
  readonly name: ProviderName;
  /** The payment methods its checkout offers. */
  readonly methods: readonly PaymentMethod[];
  /** Opens a checkout with the provider. */
  createCheckout(request: CheckoutRequest): Promise<Checkout>;
  /** The hosted page of a checkout still pending, to send a returning payer back to it. */
  checkoutUrl(reference: string): Promise<string>;
  /**
   * Checks a callback's signature over its exact bytes and reads its event.
   * Throws AppError UNAUTHENTICATED 'Invalid signature' when it was not signed by the provider.
   */
  verifyCallback(rawBody: Buffer, headers: IncomingHttpHeaders, now: Date): PaymentEvent;
  /**
   * Asks the provider what became of a checkout (reconciliation, when its callback never came): the
   * outcome as an event, or null while it is undecided. Providers without a status query leave it out.
   */
  lookup?(reference: string): Promise<LookedUp | null>;
  /**
   * As `lookup`, for the daily reconciliation, which must not take a checkout the provider holds undecided
   * ('pending') for one it does not know at all (null). Providers whose `lookup` never answers null for a
   * checkout they hold leave it out.
   */
  record?(reference: string): Promise<LookedUp | 'pending' | null>;
  /**
   * How long after it opened a checkout still undecided by `lookup` is failed as expired (the payer left
   * the hosted page and cannot come back to it); a late success is then recorded as owed back. Unset: never.
   */
  readonly checkoutExpiresAfterMs?: number;
  /** Its refund API, where it has one (providers/refunds.ts); without it, refunds are recorded by hand. */
  readonly refunds?: RefundingProvider;
}
