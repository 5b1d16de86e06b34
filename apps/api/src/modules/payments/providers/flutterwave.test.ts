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

/*
 * The Flutterwave adapter against the Flutterwave simulator over real sockets: the hosted checkout it
 * opens, the payer's card on the hosted page, verify by reference for every outcome, the webhook's hash,
 * and a provider refusing or unreachable. The webhooks land on a small HTTP server here.
 */

const SECRET_KEY = 'FLWSECK_TEST-simulated-secret-key-X';
const SECRET_HASH = 'flutterwave-webhook-hash-for-tests';
const PUBLIC_URL = 'https://kaminuza.example';

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
