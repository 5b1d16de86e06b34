import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_MESSAGES } from '@kaminuza/shared';
import {
  FLUTTERWAVE_CARDS,
  startFlutterwaveSimulator,
  type FlutterwaveSimulator,
} from '../../../simulators/flutterwave.ts';
import { payOnHostedPage } from '../../../test/flutterwave.ts';
import { createFlutterwaveProvider, type FlutterwaveConfig, type FlutterwaveProvider } from './flutterwave.ts';
import { ProviderError } from './mobile-money.ts';
import type { RefundAnswer, RefundRequest } from './refunds.ts';

/*
 * The Flutterwave adapter against the Flutterwave simulator over real sockets: the hosted checkout it
 * opens, the payer's card on the hosted page, verify by reference for every outcome, the webhook's hash,
 * a provider refusing or unreachable, and refunds. The webhooks land on a small HTTP server here.
 */

const SECRET_KEY = 'FLWSECK_TEST-simulated-secret-key-X';
const SECRET_HASH = 'flutterwave-webhook-hash-for-tests';
const PUBLIC_URL = 'https://kaminuza.example';
/** Long enough to see a scripted refund pending, short enough to wait for its outcome. */
const REFUND_SETTLES_AFTER_MS = 1_000;

let simulator: FlutterwaveSimulator;
let receiver: Server;
let flutterwave: FlutterwaveProvider;
const received: { hash: string | undefined; body: Record<string, unknown> }[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const hash = req.headers['verif-hash'];
      received.push({
        hash: typeof hash === 'string' ? hash : undefined,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>,
      });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  simulator = await startFlutterwaveSimulator({
    secretKey: SECRET_KEY,
    secretHash: SECRET_HASH,
    webhookUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/v1/payments/callbacks/flutterwave`,
    refundSettlesAfterMs: REFUND_SETTLES_AFTER_MS,
  });
  flutterwave = adapter();
});

afterAll(async () => {
  await simulator?.stop();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

afterEach(() => simulator.setMode('normal'));

const adapter = (overrides: Partial<FlutterwaveConfig> = {}) =>
  createFlutterwaveProvider({
    baseUrl: simulator.url,
    secretKey: SECRET_KEY,
    secretHash: SECRET_HASH,
    publicUrl: PUBLIC_URL,
    timeoutMs: 2_000,
    ...overrides,
  });

const newReference = () => `pay_${randomBytes(12).toString('hex')}`;

async function checkout(amount = 5000, currency = 'RWF') {
  const reference = newReference();
  const opened = await flutterwave.createCheckout({
    reference,
    amount,
    currency,
    returnPath: '/partners/p/application/form',
    description: 'Institution — Program',
    payer: { email: 'payer@test.kaminuza.example', name: 'Test Payer' },
  });
  return { reference, link: opened.checkoutUrl };
}

const webhooksOf = (reference: string) =>
  received.filter((entry) => (entry.body.data as { tx_ref?: unknown }).tx_ref === reference);

async function waitForWebhooks(reference: string, count: number) {
  const until = Date.now() + 5_000;
  while (webhooksOf(reference).length < count && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return webhooksOf(reference);
}

describe('the Flutterwave adapter against the simulator', () => {
  it('opens a hosted checkout with our reference, the amount in major units, the payer and the return page', async () => {
    const { reference, link } = await checkout(12.5, 'GHS');
    expect(link).toMatch(new RegExp(`^${simulator.url}/hosted/pay/[0-9a-f]{16}$`));
    expect(simulator.checkouts().find((entry) => entry.txRef === reference)).toMatchObject({
      amount: 12.5,
      currency: 'GHS',
      redirectUrl: `${PUBLIC_URL}/pay?reference=${reference}`,
      customer: { email: 'payer@test.kaminuza.example', name: 'Test Payer' },
      description: 'Institution — Program',
    });
    // A returning payer is sent to our own page, not to a link that may no longer take a card.
    expect(await flutterwave.checkoutUrl(reference)).toBe(`/pay?reference=${reference}`);
  });

  it('serves a hosted page with a labelled card form', async () => {
    const { link } = await checkout();
    const html = await (await fetch(link)).text();
    for (const [id, label] of [
      ['card_number', 'Card number'],
      ['expiry', 'Expiry date'],
      ['cvc', 'Security code'],
    ]) {
      expect(html).toContain(`<label for="${id}">${label}`);
      expect(html).toContain(`id="${id}"`);
    }
    expect(html).toMatch(/<button type="submit">Pay 5000 RWF<\/button>/);
  });

  it('answers nothing decided before the payer has tried a card', async () => {
    const { reference } = await checkout();
    await expect(flutterwave.lookup(reference)).resolves.toBeNull();
  });

  it('a successful card: the browser comes back with Flutterwave’s query string, verify says succeeded', async () => {
    const { reference, link } = await checkout();
    const paid = await payOnHostedPage(link, FLUTTERWAVE_CARDS.success);
    expect(paid.status).toBe(303);
    expect(paid.location?.origin + paid.location!.pathname).toBe(`${PUBLIC_URL}/pay`);
    expect(paid.location?.searchParams.get('reference')).toBe(reference);
    expect(paid.location?.searchParams.get('status')).toBe('successful');
    expect(paid.location?.searchParams.get('tx_ref')).toBe(reference);
    const transactionId = paid.location!.searchParams.get('transaction_id')!;

    const answer = await flutterwave.lookup(reference);
    expect(answer).toMatchObject({
      providerTransactionId: transactionId,
      event: {
        type: 'payment.succeeded',
        data: { reference, amount: 5000, currency: 'RWF', method: 'card', failure_reason: null },
      },
    });
    const [webhook] = await waitForWebhooks(reference, 1);
    expect(webhook!.hash).toBe(SECRET_HASH);
    expect(webhook!.body).toMatchObject({
      event: 'charge.completed',
      data: { id: Number(transactionId), tx_ref: reference, status: 'successful', amount: 5000, currency: 'RWF' },
    });
    expect(flutterwave.webhookSubject(webhook!.body)).toEqual({ reference, transactionId });
    // A paid checkout takes no second card.
    const again = await fetch(link);
    expect(await again.text()).toContain('This payment is complete');
  });

  it('keeps minor units exact: 12.50 GHS is answered as 12.5', async () => {
    const { reference, link } = await checkout(12.5, 'GHS');
    await payOnHostedPage(link, FLUTTERWAVE_CARDS.success);
    expect((await flutterwave.lookup(reference))?.event.data).toMatchObject({ amount: 12.5, currency: 'GHS' });
  });

  it('a card with insufficient funds fails with the declined message; the payer may try another card', async () => {
    const { reference, link } = await checkout();
    const declined = await payOnHostedPage(link, FLUTTERWAVE_CARDS.insufficientFunds);
    expect(declined.location?.searchParams.get('status')).toBe('failed');
    expect(await flutterwave.lookup(reference)).toMatchObject({
      event: { type: 'payment.failed', data: { reference, failure_reason: PAYMENT_MESSAGES.card_declined } },
    });
    await payOnHostedPage(link, FLUTTERWAVE_CARDS.success);
    expect((await flutterwave.lookup(reference))?.event.type).toBe('payment.succeeded');
  });

  it('every scripted webhook: none, twice, the wrong amount, the wrong hash — verify stays the truth', async () => {
    const noWebhook = await checkout();
    await payOnHostedPage(noWebhook.link, FLUTTERWAVE_CARDS.noWebhook);
    const twice = await checkout();
    await payOnHostedPage(twice.link, FLUTTERWAVE_CARDS.duplicateWebhook);
    const wrongAmount = await checkout();
    await payOnHostedPage(wrongAmount.link, FLUTTERWAVE_CARDS.wrongAmountWebhook);
    const wrongHash = await checkout();
    await payOnHostedPage(wrongHash.link, FLUTTERWAVE_CARDS.wrongHashWebhook);
    await simulator.idle();

    expect(webhooksOf(noWebhook.reference)).toHaveLength(0);
    expect(webhooksOf(twice.reference)).toHaveLength(2);
    expect((webhooksOf(wrongAmount.reference)[0]!.body.data as { amount: number }).amount).toBe(50_000);
    const [forged] = webhooksOf(wrongHash.reference);
    expect(flutterwave.webhookAuthentic({ 'verif-hash': forged!.hash })).toBe(false);
    expect(flutterwave.webhookAuthentic({ 'verif-hash': SECRET_HASH })).toBe(true);
    expect(flutterwave.webhookAuthentic({})).toBe(false);

    for (const { reference } of [noWebhook, twice, wrongAmount, wrongHash]) {
      expect((await flutterwave.lookup(reference))?.event.data).toMatchObject({ reference, amount: 5000 });
    }
  });

  it('reads a webhook only for the reference it names', () => {
    expect(flutterwave.webhookSubject(null)).toBeNull();
    expect(flutterwave.webhookSubject({ data: {} })).toBeNull();
    expect(flutterwave.webhookSubject({ data: { tx_ref: 'x' } })).toBeNull();
    expect(flutterwave.webhookSubject({ data: { tx_ref: '../../etc/passwd' } })).toBeNull();
    expect(flutterwave.webhookSubject({ data: { tx_ref: 'pay_0123456789', id: 42 } })).toEqual({
      reference: 'pay_0123456789',
      transactionId: '42',
    });
  });

  it('a card form with a malformed number is answered again with an error, nothing decided', async () => {
    const { reference, link } = await checkout();
    const answer = await payOnHostedPage(link, '1234');
    expect(answer.status).toBe(400);
    await expect(flutterwave.lookup(reference)).resolves.toBeNull();
  });

  it('a wrong secret key or a duplicate reference is refused; a 503 or a closed socket is unreachable', async () => {
    const request = {
      reference: newReference(),
      amount: 5000,
      currency: 'RWF',
      returnPath: '/',
      description: 'Fee',
      payer: { email: 'payer@test.kaminuza.example', name: 'Test Payer' },
    };
    const wrongKey = adapter({ secretKey: 'FLWSECK_TEST-wrong' });
    await expect(wrongKey.createCheckout(request)).rejects.toMatchObject({ kind: 'refused', status: 401 });
    await expect(wrongKey.lookup(request.reference)).rejects.toMatchObject({ kind: 'refused', status: 401 });

    await flutterwave.createCheckout(request);
    const duplicate = await flutterwave.createCheckout(request).catch((error: unknown) => error);
    expect(duplicate).toBeInstanceOf(ProviderError);
    expect(duplicate).toMatchObject({ kind: 'refused', status: 400, retryable: false });

    for (const mode of ['503', 'close'] as const) {
      simulator.setMode(mode);
      const failure = await flutterwave.lookup(request.reference).catch((error: unknown) => error);
      expect(failure, mode).toBeInstanceOf(ProviderError);
      expect(failure, mode).toMatchObject({ kind: 'unreachable', retryable: true });
      await expect(flutterwave.createCheckout({ ...request, reference: newReference() })).rejects.toMatchObject({
        kind: 'unreachable',
      });
    }
    simulator.setMode('normal');

    const unreachable = adapter({ baseUrl: 'http://127.0.0.1:9' });
    await expect(unreachable.lookup(request.reference)).rejects.toMatchObject({ kind: 'unreachable' });
  });

  it('never reads an event from a webhook body: the generic callback path is refused', () => {
    expect(() => flutterwave.verifyCallback(Buffer.from('{}'), {}, new Date())).toThrow(
      PAYMENT_MESSAGES.signature_invalid,
    );
    expect(() => flutterwave.verifyCallback(Buffer.from('{}'), { 'verif-hash': SECRET_HASH }, new Date())).toThrow();
  });
});

describe('refunds through Flutterwave', () => {
  /** A card payment Flutterwave took, as the payment's record has it: our reference and its transaction id. */
  async function paid(card: string = FLUTTERWAVE_CARDS.success, amount = 5000, currency = 'RWF') {
    const { reference, link } = await checkout(amount, currency);
    await payOnHostedPage(link, card);
    const answer = await flutterwave.lookup(reference);
    expect(answer?.event.type).toBe('payment.succeeded');
    return { reference, transactionId: answer!.providerTransactionId! };
  }

  const refundOf = (
    payment: { reference: string; transactionId: string },
    { amount = 5000, currency = 'RWF' }: { amount?: number; currency?: string } = {},
  ): RefundRequest => ({
    refundReference: `rfd_${randomBytes(12).toString('hex')}`,
    paymentReference: payment.reference,
    providerReference: null,
    providerTransactionId: payment.transactionId,
    amount,
    currency,
    country: null,
    resultUrl: 'http://127.0.0.1:9/unused',
  });

  const refundsOf = (transactionId: string) =>
    simulator.refunds().filter((refund) => String(refund.transaction_id) === transactionId);

  /** Asks Flutterwave about a pending refund until it is decided, as the refund job would. */
  async function decided(request: RefundRequest, providerRefundId: string): Promise<RefundAnswer> {
    const until = Date.now() + REFUND_SETTLES_AFTER_MS + 5_000;
    for (;;) {
      const answer = await flutterwave.refunds.refundStatus(request, providerRefundId);
      if (answer.state !== 'pending' || Date.now() > until) return answer;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  const rawRefund = (transactionId: string, body: object, secretKey = SECRET_KEY) =>
    fetch(`${simulator.url}/v3/transactions/${transactionId}/refund`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${secretKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('gives a payment back in full at once: the amount in major units, our reference in the comment', async () => {
    const payment = await paid(FLUTTERWAVE_CARDS.success, 12.5, 'GHS');
    const request = refundOf(payment, { amount: 1250, currency: 'GHS' });
    const answer = await flutterwave.refunds.refund(request);
    expect(answer).toEqual({
      state: 'refunded',
      providerRefundId: expect.stringMatching(/^\d+$/),
      providerCode: 'completed',
    });
    const [refund, ...others] = refundsOf(payment.transactionId);
    expect(others).toHaveLength(0);
    expect(refund).toMatchObject({ id: Number(answer.providerRefundId), amount_refunded: 12.5, status: 'completed' });
    expect(refund!.comment).toContain(request.refundReference);
    expect(await flutterwave.refunds.refundStatus(request, answer.providerRefundId)).toEqual(answer);
    // Without the refund id, the transaction's refund list answers for it.
    expect(await flutterwave.refunds.refundStatus(request, null)).toEqual(answer);
  });

  it('asked again with the same request, answers the same refund and never refunds twice', async () => {
    const payment = await paid();
    const request = refundOf(payment);
    const first = await flutterwave.refunds.refund(request);
    const refundCall = `POST /v3/transactions/${payment.transactionId}/refund`;
    expect(simulator.calls().filter((call) => call === refundCall)).toHaveLength(1);
    expect(await flutterwave.refunds.refund(request)).toEqual(first);
    // The refund list answered: the repeat posted nothing.
    expect(simulator.calls().filter((call) => call === refundCall)).toHaveLength(1);
    expect(refundsOf(payment.transactionId)).toHaveLength(1);
  });

  it('a refund Flutterwave already has (the first answer lost on the way) is answered, not asked again', async () => {
    const payment = await paid();
    const request = refundOf(payment);
    // The first call reached Flutterwave; its answer never came back.
    const lost = await rawRefund(payment.transactionId, {
      amount: 5000,
      comments: `Refund ${request.refundReference}`,
    });
    expect(lost.status).toBe(200);
    const { data } = (await lost.json()) as { data: { id: number } };
    expect(await flutterwave.refunds.refund(request)).toEqual({
      state: 'refunded',
      providerRefundId: String(data.id),
      providerCode: 'completed',
    });
    expect(refundsOf(payment.transactionId)).toHaveLength(1);
  });

  it('the same request ten times at once: one refund, the same answer to every call', async () => {
    const payment = await paid();
    const request = refundOf(payment);
    const answers = await Promise.all(Array.from({ length: 10 }, () => flutterwave.refunds.refund(request)));
    expect(refundsOf(payment.transactionId)).toHaveLength(1);
    const [refund] = refundsOf(payment.transactionId);
    for (const answer of answers) {
      expect(answer).toEqual({ state: 'refunded', providerRefundId: String(refund!.id), providerCode: 'completed' });
    }
  });

  it('pending, then refunded: asked about by its refund id until Flutterwave decides', async () => {
    const payment = await paid(FLUTTERWAVE_CARDS.refundPendingThenCompleted);
    const request = refundOf(payment);
    const answer = await flutterwave.refunds.refund(request);
    expect(answer).toEqual({
      state: 'pending',
      providerRefundId: expect.stringMatching(/^\d+$/),
      providerCode: 'pending',
    });
    // Asked again while pending: the refund under way, not a second one.
    expect(await flutterwave.refunds.refund(request)).toEqual(answer);
    expect(await decided(request, answer.providerRefundId!)).toEqual({
      state: 'refunded',
      providerRefundId: answer.providerRefundId,
      providerCode: 'completed',
    });
    expect(refundsOf(payment.transactionId)).toHaveLength(1);
  });

  it('pending, then failed with Flutterwave’s status; asked again afterwards, it is a new attempt', async () => {
    const payment = await paid(FLUTTERWAVE_CARDS.refundPendingThenFailed);
    const request = refundOf(payment);
    const answer = await flutterwave.refunds.refund(request);
    expect(answer.state).toBe('pending');
    expect(await decided(request, answer.providerRefundId!)).toEqual({
      state: 'failed',
      providerRefundId: answer.providerRefundId,
      providerCode: 'failed',
    });
    // Without its id, the transaction's refund list answers for it.
    expect(await flutterwave.refunds.refundStatus(request, null)).toEqual({
      state: 'failed',
      providerRefundId: answer.providerRefundId,
      providerCode: 'failed',
    });
    // A failed refund gave nothing back: asking again asks Flutterwave again.
    const again = await flutterwave.refunds.refund(request);
    expect(again.state).toBe('pending');
    expect(again.providerRefundId).not.toBe(answer.providerRefundId);
    expect(refundsOf(payment.transactionId)).toHaveLength(2);
  });

  it('a refund Flutterwave refuses is refused, with its message as the code', async () => {
    const payment = await paid(FLUTTERWAVE_CARDS.refundRefused);
    const failure = await flutterwave.refunds.refund(refundOf(payment)).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProviderError);
    expect(failure).toMatchObject({
      kind: 'refused',
      status: 400,
      retryable: false,
      providerCode: 'Refunds are not available for this transaction',
    });
    expect(refundsOf(payment.transactionId)).toHaveLength(0);
  });

  it('refuses a transaction it does not know, one not successful, or a transaction id that is not one', async () => {
    await expect(
      flutterwave.refunds.refund(refundOf({ reference: newReference(), transactionId: '999999999' })),
    ).rejects.toMatchObject({ kind: 'refused', status: 400, providerCode: 'No transaction was found for this id' });

    const { reference, link } = await checkout();
    await payOnHostedPage(link, FLUTTERWAVE_CARDS.insufficientFunds);
    const failed = await flutterwave.lookup(reference);
    await expect(
      flutterwave.refunds.refund(refundOf({ reference, transactionId: failed!.providerTransactionId! })),
    ).rejects.toMatchObject({
      kind: 'refused',
      status: 400,
      providerCode: 'Only successful transactions can be refunded',
    });

    for (const transactionId of ['', 'FLW-123', '12/../34']) {
      await expect(flutterwave.refunds.refund(refundOf({ reference, transactionId }))).rejects.toMatchObject({
        kind: 'refused',
        status: null,
      });
    }
  });

  it('never believes an answer about another transaction’s refund, nor a refund Flutterwave does not know', async () => {
    const one = await paid();
    const other = await paid();
    const { providerRefundId } = await flutterwave.refunds.refund(refundOf(other));
    await expect(flutterwave.refunds.refundStatus(refundOf(one), providerRefundId)).rejects.toMatchObject({
      kind: 'refused',
    });
    await expect(flutterwave.refunds.refundStatus(refundOf(one), '123456789')).rejects.toMatchObject({
      kind: 'refused',
      status: 404,
    });
    await expect(flutterwave.refunds.refundStatus(refundOf(one), 'x')).rejects.toMatchObject({ kind: 'refused' });
    // No refund of `one` exists: its list names none.
    await expect(flutterwave.refunds.refundStatus(refundOf(one), null)).rejects.toMatchObject({ kind: 'refused' });
  });

  it('the simulator refuses as Flutterwave does: no key, a second full refund, more than is left', async () => {
    const payment = await paid();
    expect((await rawRefund(payment.transactionId, {}, 'FLWSECK_TEST-wrong')).status).toBe(401);
    const tooMuch = await rawRefund(payment.transactionId, { amount: 5001 });
    expect(tooMuch.status).toBe(400);
    expect(((await tooMuch.json()) as { status: string }).status).toBe('error');
    const part = await rawRefund(payment.transactionId, { amount: '2000' });
    expect(((await part.json()) as { data: { amount_refunded: number } }).data.amount_refunded).toBe(2000);
    // Without an amount, what is left.
    const rest = await rawRefund(payment.transactionId, {});
    expect(((await rest.json()) as { data: { amount_refunded: number } }).data.amount_refunded).toBe(3000);
    const again = await rawRefund(payment.transactionId, {});
    expect(again.status).toBe(400);
    expect(((await again.json()) as { message: string }).message).toBe('Transaction has been fully refunded');

    const listed = await fetch(`${simulator.url}/v3/refunds?id=${payment.transactionId}`, {
      headers: { Authorization: `Bearer ${SECRET_KEY}` },
    });
    const list = (await listed.json()) as {
      meta: { page_info: { total: number } };
      data: { transaction_id: number }[];
    };
    expect(list.meta.page_info.total).toBe(2);
    expect(list.data.every((row) => String(row.transaction_id) === payment.transactionId)).toBe(true);
  });

  it('a stopped simulator leaves no refund timer behind: a pending refund stays as it was', async () => {
    const settlesAfterMs = 300;
    const own = await startFlutterwaveSimulator({
      secretKey: SECRET_KEY,
      secretHash: SECRET_HASH,
      webhookUrl: 'http://127.0.0.1:9/unused',
      refundSettlesAfterMs: settlesAfterMs,
    });
    const client = adapter({ baseUrl: own.url });
    const reference = newReference();
    const { checkoutUrl } = await client.createCheckout({
      reference,
      amount: 5000,
      currency: 'RWF',
      returnPath: '/',
      description: 'Fee',
      payer: { email: 'payer@test.kaminuza.example', name: 'Test Payer' },
    });
    await payOnHostedPage(checkoutUrl, FLUTTERWAVE_CARDS.refundPendingThenCompleted);
    const transactionId = (await client.lookup(reference))!.providerTransactionId!;
    const answer = await client.refunds.refund(refundOf({ reference, transactionId }));
    expect(answer.state).toBe('pending');
    await own.stop();
    await new Promise((resolve) => setTimeout(resolve, settlesAfterMs * 2));
    expect(own.refunds().map((refund) => refund.status)).toEqual(['pending']);
  });

  it('a wrong secret key is refused; a 503 or a closed socket is unreachable, and the same request later refunds once', async () => {
    const payment = await paid();
    const request = refundOf(payment);
    await expect(adapter({ secretKey: 'FLWSECK_TEST-wrong' }).refunds.refund(request)).rejects.toMatchObject({
      kind: 'refused',
      status: 401,
    });
    for (const mode of ['503', 'close'] as const) {
      simulator.setMode(mode);
      const failure = await flutterwave.refunds.refund(request).catch((error: unknown) => error);
      expect(failure, mode).toBeInstanceOf(ProviderError);
      expect(failure, mode).toMatchObject({ kind: 'unreachable', retryable: true });
      await expect(flutterwave.refunds.refundStatus(request, '1')).rejects.toMatchObject({ kind: 'unreachable' });
    }
    simulator.setMode('normal');
    await expect(adapter({ baseUrl: 'http://127.0.0.1:9' }).refunds.refund(request)).rejects.toMatchObject({
      kind: 'unreachable',
    });
    expect(refundsOf(payment.transactionId)).toHaveLength(0);
    expect((await flutterwave.refunds.refund(request)).state).toBe('refunded');
    expect(await flutterwave.refunds.refund(request)).toMatchObject({ state: 'refunded' });
    expect(refundsOf(payment.transactionId)).toHaveLength(1);
  });
});
