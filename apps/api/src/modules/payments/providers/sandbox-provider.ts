import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { z } from 'zod';
import {
  PAYMENT_MESSAGES,
  PAYMENT_SIGNATURE_HEADER,
  PaymentEventSchema,
  type PaymentEvent,
  type SandboxPaymentSchema,
} from '@kaminuza/shared';
import { AppError } from '../../../lib/errors.ts';
import type { Checkout, CheckoutRequest, PaymentProvider } from './payment-provider.ts';
import type { SandboxCharges } from './sandbox-charges.ts';
import { signCallback, verifyCallbackSignature } from './signature.ts';

/** The test card that always succeeds; every other card number is declined (no real card belongs here). */
export const SANDBOX_SUCCESS_CARD = '4242424242424242';

/** One callback as a provider sends it. */
export interface CallbackRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
}

/** Sends one callback and resolves with the HTTP status it got; rejects when it could not be sent at all. */
export type CallbackDelivery = (request: CallbackRequest) => Promise<number>;

/** How long one delivery may take before it counts as failed and is retried. */
const DELIVERY_TIMEOUT_MS = 10_000;

/** Over HTTP to the api's own public URL, as a provider on the internet would. */
export const httpDelivery: CallbackDelivery = async ({ url, body, headers }) => {
  const response = await fetch(url, {
    method: 'POST',
    body,
    headers,
    signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
  });
  return response.status;
};

export interface SandboxPayee {
  reference: string;
  amount: number;
  currency: string;
}

type SandboxInput = z.output<typeof SandboxPaymentSchema>;

/** What the sandbox decides for a payment, by the test rules of packages/shared/src/schemas/payments.ts. */
export function sandboxDecision(input: SandboxInput): { succeeded: boolean; failureReason: string | null } {
  if (input.method === 'card') {
    const succeeded = input.card_number === SANDBOX_SUCCESS_CARD;
    return { succeeded, failureReason: succeeded ? null : PAYMENT_MESSAGES.card_declined };
  }
  const succeeded = !input.phone.endsWith('000');
  return { succeeded, failureReason: succeeded ? null : PAYMENT_MESSAGES.mobile_money_declined };
}

/** A callback whose first delivery failed, as its retry job carries it. */
export interface UndeliveredCallback {
  reference: string;
  /** The event exactly as first sent; each retry signs it afresh. */
  body: string;
}

export interface SandboxProvider extends PaymentProvider {
  /**
   * The hosted page's Pay button: decides, then tells the api by a signed callback; when that first
   * delivery fails, hands the callback to `retryLater` (a job retried with backoff). Resolves after the
   * first attempt with whether it was accepted.
   */
  pay(payee: SandboxPayee, input: SandboxInput): Promise<boolean>;
  /** One more delivery of a callback (its retry job); whether it was accepted. */
  redeliver(callback: UndeliveredCallback): Promise<boolean>;
}

export interface SandboxOptions {
  secret: string;
  /** The api's public URL; callbacks go to its /api/v1/payments/callbacks/sandbox. */
  publicUrl: string;
  deliver?: CallbackDelivery;
  /** Keeps a callback whose first delivery failed for later (the payments.sandbox-callback job). */
  retryLater?: (callback: UndeliveredCallback) => Promise<void>;
  /** The outcomes the sandbox decided, which `lookup` answers from. */
  charges: SandboxCharges;
  log: { warn(object: object, message: string): void };
}

/**
 * A hosted checkout without real money: its page is the web app's /pay, its Pay button is
 * POST /payments/sandbox/:reference/complete, and like a real provider it reports the outcome only by
 * a signed callback. Card numbers are never kept or logged; nothing of them reaches the event.
 */
export function createSandboxProvider({
  secret,
  publicUrl,
  deliver = httpDelivery,
  retryLater,
  charges,
  log,
}: SandboxOptions): SandboxProvider {
  const callbackUrl = `${publicUrl}/api/v1/payments/callbacks/sandbox`;

  const pageOf = (reference: string) => `/pay?reference=${encodeURIComponent(reference)}`;

  /** One attempt, signed afresh so a late retry is still inside the receiver's time tolerance. */
  async function attempt(body: string, reference: string): Promise<boolean> {
    const headers = {
      'content-type': 'application/json',
      [PAYMENT_SIGNATURE_HEADER]: signCallback(secret, body, new Date()),
    };
    try {
      const status = await deliver({ url: callbackUrl, body, headers });
      if (status >= 200 && status < 300) return true;
      log.warn({ reference, status }, 'sandbox payment callback refused');
    } catch (error) {
      log.warn({ reference, err: error }, 'sandbox payment callback not delivered');
    }
    return false;
  }

  return {
    name: 'sandbox',
    methods: ['card', 'mobile_money'],

    async createCheckout(request: CheckoutRequest): Promise<Checkout> {
      return { reference: request.reference, checkoutUrl: pageOf(request.reference) };
    },

    async checkoutUrl(reference: string): Promise<string> {
      return pageOf(reference);
    },

    verifyCallback(rawBody: Buffer, headers: IncomingHttpHeaders, now: Date): PaymentEvent {
      const header = headers[PAYMENT_SIGNATURE_HEADER];
      if (!verifyCallbackSignature(secret, rawBody, typeof header === 'string' ? header : undefined, now)) {
        throw new AppError('UNAUTHENTICATED', PAYMENT_MESSAGES.signature_invalid);
      }
      let json: unknown;
      try {
        json = JSON.parse(rawBody.toString('utf8'));
      } catch {
        throw new AppError('INVALID_ARGUMENT');
      }
      const event = PaymentEventSchema.safeParse(json);
      if (!event.success) throw new AppError('INVALID_ARGUMENT');
      return event.data;
    },

    async pay(payee, input) {
      const { succeeded, failureReason } = sandboxDecision(input);
      const event: PaymentEvent = {
        id: `evt_${randomBytes(12).toString('hex')}`,
        type: succeeded ? 'payment.succeeded' : 'payment.failed',
        data: {
          reference: payee.reference,
          amount: payee.amount,
          currency: payee.currency,
          method: input.method,
          failure_reason: failureReason,
        },
      };
      // Decided on the provider's side first, as a real provider would: a status query can tell it even
      // if no callback ever gets through.
      await charges.record(event);
      const body = JSON.stringify(event);
      const delivered = await attempt(body, payee.reference);
      if (!delivered) {
        if (retryLater) await retryLater({ reference: payee.reference, body });
        else log.warn({ reference: payee.reference }, 'sandbox payment callback not delivered, and no retry');
      }
      return delivered;
    },

    redeliver({ reference, body }) {
      return attempt(body, reference);
    },

    async lookup(reference) {
      const event = await charges.find(reference);
      return event && { event, providerTransactionId: null };
    },
  };
}
