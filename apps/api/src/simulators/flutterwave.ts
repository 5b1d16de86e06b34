import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sameSecret, send, readText, isSimulatorMode, listenSimulator, type SimulatorMode } from './http.ts';

/**
 * A local stand-in for Flutterwave Standard (v3), for development and tests: the same paths, auth,
 * bodies and redirects as developer.flutterwave.com documents, so the adapter talks to it exactly as to
 * Flutterwave. Its checkouts and transactions live in memory (the provider's own state, not ours).
 *
 * - `POST /v3/payments` — Bearer secret key; `{ tx_ref, amount, currency, redirect_url, customer: { email },
 *   customizations, payment_options }`; answers `{ status: "success", data: { link } }`, its hosted page.
 *   A `tx_ref` already used is refused (400), as Flutterwave refuses a duplicate reference.
 * - `GET /hosted/pay/{id}` — the hosted page: a plain form (card number, expiry, security code). Its POST
 *   decides, redirects the browser (303) to `redirect_url?status=…&tx_ref=…&transaction_id=…`, and sends the
 *   `charge.completed` webhook to `webhookUrl` with the `verif-hash` header. A failed attempt may be tried
 *   again on the same page (a new transaction of the same `tx_ref`); a paid one may not.
 * - `GET /v3/transactions/verify_by_reference?tx_ref=…` and `GET /v3/transactions/{id}/verify` — Bearer;
 *   the transaction, or 400 "No transaction was found for this id".
 * - `POST /v3/transactions/{id}/refund` — Bearer; `{ amount?, comments? }` (the amount in major units; all
 *   that is left when absent); answers `{ status: "success", message: "Transaction refund initiated", data:
 *   { id, account_id, tx_id, flw_ref, wallet_id, amount_refunded, status, destination, meta, created_at } }`.
 *   Refused (400, Flutterwave's error shape; the messages are ours, as Flutterwave lists none) where
 *   Flutterwave refuses one: a transaction it does not know, one not successful, one already refunded in
 *   full, or an amount beyond what is left of it.
 * - `GET /v3/refunds/{id}` — Bearer; the refund (`id, amount_refunded, status, flw_ref, comment,
 *   settlement_id, meta, created_at, account_id, transaction_id`), or 404. `GET /v3/refunds` — Bearer; the
 *   same rows, filtered by `id` (the transaction's), `flw_ref` and `status`, twenty a `page`, newest first.
 * - `/_simulator/…`: `GET /_simulator/transactions`, `GET /_simulator/refunds`, and `POST /_simulator/mode`
 *   with `{ "mode": "normal" | "503" | "429" | "close" }` to make the API (`/v3/…`, not the hosted page)
 *   unreachable or rate limited. Webhooks are sent once, not retried.
 *
 * Scripted outcomes, by the card number's last four digits (FLUTTERWAVE_CARDS):
 * | ends in | what happens                                                                  |
 * | ------- | ----------------------------------------------------------------------------- |
 * | 4242    | successful, one webhook                                                       |
 * | 0002    | failed (insufficient funds), one webhook                                      |
 * | 0069    | successful, but no webhook at all (verify settles it)                         |
 * | 0119    | successful, the same webhook sent twice                                       |
 * | 0127    | successful, but the webhook's body says ten times the amount (verify decides) |
 * | 0341    | successful, but the webhook carries a wrong `verif-hash` (refused)            |
 * | 0184    | successful; a refund of it is pending, then completed                         |
 * | 0192    | successful; a refund of it is pending, then failed                            |
 * | 0200    | successful; a refund of it is refused (400)                                   |
 * | 0036    | pending (the card's bank has not authorised it yet), no webhook               |
 * | other   | failed (declined), one webhook                                                |
 *
 * A refund of any other successful card is completed at once. A pending refund is decided
 * `refundSettlesAfterMs` after it was asked for (its timer is cleared by `stop()`).
 */
export const FLUTTERWAVE_CARDS = {
  success: '4242424242424242',
  insufficientFunds: '5531886652140002',
  noWebhook: '5531886652140069',
  duplicateWebhook: '5531886652140119',
  wrongAmountWebhook: '5531886652140127',
  wrongHashWebhook: '5531886652140341',
  refundPendingThenCompleted: '5531886652140184',
  refundPendingThenFailed: '5531886652140192',
  refundRefused: '5531886652140200',
  pendingAuthorisation: '5531886652140036',
  declined: '5531886652149999',
} as const;

export interface FlutterwaveCheckout {
  id: string;
  txRef: string;
  amount: number;
  currency: string;
  redirectUrl: string;
  customer: { email: string; name: string };
  title: string;
  description: string;
}

export interface FlutterwaveTransaction {
  id: number;
  tx_ref: string;
  flw_ref: string;
  amount: number;
  charged_amount: number;
  currency: string;
  status: 'successful' | 'failed' | 'pending';
  processor_response: string;
  payment_type: 'card';
  created_at: string;
  customer: { id: number; name: string; email: string; phone_number: null };
  card: { first_6digits: string; last_4digits: string };
}

/** A refund as Flutterwave keeps it (what its refund list and `GET /v3/refunds/{id}` answer). */
export interface FlutterwaveRefund {
  id: number;
  account_id: number;
  transaction_id: number;
  flw_ref: string;
  amount_refunded: number;
  status: 'completed' | 'pending' | 'failed';
  comment: string | null;
  settlement_id: string;
  meta: { source: string };
  created_at: string;
}

export interface FlutterwaveWebhook {
  url: string;
  hash: string;
  body: { event: string; 'event.type': string; data: Record<string, unknown> };
  status: number | null;
}

export interface FlutterwaveSimulatorOptions {
  port?: number;
  host?: string;
  secretKey: string;
  secretHash: string;
  /** Where its webhooks go (the dashboard's webhook URL). */
  webhookUrl: string;
  /** How long a pending refund (cards …0184, …0192) stays pending; 5 s by default. */
  refundSettlesAfterMs?: number;
}

export interface FlutterwaveSimulator {
  url: string;
  stop(): Promise<void>;
  setMode(mode: SimulatorMode): void;
  /** Points its webhooks elsewhere (the dashboard setting), e.g. once the receiving server listens. */
  setWebhookUrl(url: string): void;
  checkouts(): FlutterwaveCheckout[];
  transactions(): FlutterwaveTransaction[];
  /** Refunds asked for, in order. */
  refunds(): FlutterwaveRefund[];
  /** The API calls it was asked, in order (`POST /v3/transactions/4000123/refund`), answered or not. */
  calls(): string[];
  /** Webhooks sent (or tried), in order. */
  webhooksSent(): FlutterwaveWebhook[];
  /** Resolves once every webhook sent so far has been answered. */
  idle(): Promise<void>;
}

const refusal = (message: string) => ({ status: 'error', message, data: null });

/** What a successful card's refund does, by the card's last four digits. */
type RefundScript = 'completed' | 'pendingThenCompleted' | 'pendingThenFailed' | 'refused';
const REFUND_SCRIPTS: Record<string, RefundScript> = {
  '0184': 'pendingThenCompleted',
  '0192': 'pendingThenFailed',
  '0200': 'refused',
};

/** Major-unit amounts compared in thousandths: no currency Flutterwave takes has more decimals. */
const thousandths = (amount: number) => Math.round(amount * 1000);

const REFUNDS_PAGE_SIZE = 20;
const ACCOUNT_ID = 73_362;
const WALLET_ID = 74_639;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The hosted page: a plain, accessible form, as small as Flutterwave's test checkout needs to be. */
function hostedPage(checkout: FlutterwaveCheckout, error: string | null, paid: boolean): string {
  const amount = `${checkout.amount} ${checkout.currency}`;
  const form = paid
    ? '<p role="status">This payment is complete. You may close this page.</p>'
    : `<form method="post" action="/hosted/pay/${encodeURIComponent(checkout.id)}" novalidate>
  ${error ? `<p role="alert" class="error">${escapeHtml(error)}</p>` : ''}
  <label for="card_number">Card number</label>
  <input id="card_number" name="card_number" inputmode="numeric" autocomplete="cc-number" required>
  <label for="expiry">Expiry date (MM/YY)</label>
  <input id="expiry" name="expiry" autocomplete="cc-exp" placeholder="MM/YY" required>
  <label for="cvc">Security code (CVC)</label>
  <input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" required>
  <button type="submit">Pay ${escapeHtml(amount)}</button>
</form>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(checkout.title)} — Flutterwave test checkout</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 28rem; margin: 2rem auto; padding: 0 1rem; color: #1a1a1a; }
  form { display: grid; gap: .5rem; }
  input { font: inherit; padding: .5rem; border: 1px solid #767676; border-radius: .25rem; }
  button { font: inherit; margin-top: .5rem; padding: .75rem; background: #f5a623; border: 0; border-radius: .25rem; cursor: pointer; }
  :focus-visible { outline: 3px solid #1a73e8; outline-offset: 2px; }
  .error { color: #b00020; }
</style>
</head>
<body>
<main>
<h1>${escapeHtml(checkout.title)}</h1>
<p>${escapeHtml(checkout.description)}</p>
<p><strong>${escapeHtml(amount)}</strong> — ${escapeHtml(checkout.customer.email)}</p>
${form}
</main>
</body>
</html>`;
}

function htmlResponse(res: ServerResponse, status: number, html: string) {
  res
    .writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': Buffer.byteLength(html) })
    .end(html);
}

export async function startFlutterwaveSimulator(options: FlutterwaveSimulatorOptions): Promise<FlutterwaveSimulator> {
  const checkouts = new Map<string, FlutterwaveCheckout>();
  const byReference = new Map<string, FlutterwaveTransaction>();
  const byId = new Map<number, FlutterwaveTransaction>();
  const webhooks: FlutterwaveWebhook[] = [];
  const refunds = new Map<number, FlutterwaveRefund>();
  const calls: string[] = [];
  const refundScripts = new Map<number, RefundScript>();
  const refundTimers = new Set<NodeJS.Timeout>();
  const refundSettlesAfterMs = options.refundSettlesAfterMs ?? 5_000;
  let nextRefundId = 70_000 + (randomBytes(2).readUInt16BE() % 1000) * 10;
  const deliveries = new Set<Promise<void>>();
  let nextId = 4_000_000 + (randomBytes(2).readUInt16BE() % 1000) * 1000;
  let nextCustomer = 900_000;
  let mode: SimulatorMode = 'normal';
  let webhookUrl = options.webhookUrl;

  const bearer = (req: IncomingMessage) => {
    const header = req.headers.authorization;
    return typeof header === 'string' && header.startsWith('Bearer ') && sameSecret(header.slice(7), options.secretKey);
  };

  const webhook = (transaction: FlutterwaveTransaction, override: Record<string, unknown> = {}, hash?: string) => {
    const body = {
      event: 'charge.completed',
      'event.type': 'CARD_TRANSACTION',
      data: {
        id: transaction.id,
        tx_ref: transaction.tx_ref,
        flw_ref: transaction.flw_ref,
        amount: transaction.amount,
        currency: transaction.currency,
        charged_amount: transaction.charged_amount,
        status: transaction.status,
        processor_response: transaction.processor_response,
        payment_type: transaction.payment_type,
        created_at: transaction.created_at,
        customer: transaction.customer,
        ...override,
      },
    };
    const entry: FlutterwaveWebhook = { url: webhookUrl, hash: hash ?? options.secretHash, body, status: null };
    webhooks.push(entry);
    const delivery = fetch(entry.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'verif-hash': entry.hash },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    })
      .then(async (response) => {
        entry.status = response.status;
        await response.body?.cancel();
      })
      .catch(() => undefined)
      .finally(() => deliveries.delete(delivery));
    deliveries.add(delivery);
  };

  async function createPayment(req: IncomingMessage, res: ServerResponse) {
    let body: Record<string, unknown> | null;
    try {
      body = JSON.parse(await readText(req)) as Record<string, unknown> | null;
    } catch {
      return send(res, 400, refusal('Invalid JSON body'));
    }
    const customer = body?.customer as { email?: unknown; name?: unknown } | undefined;
    const customizations = (body?.customizations ?? {}) as { title?: unknown; description?: unknown };
    const amount = typeof body?.amount === 'string' ? Number(body.amount) : body?.amount;
    const txRef = body?.tx_ref;
    const redirectUrl = body?.redirect_url;
    if (typeof txRef !== 'string' || txRef.length === 0 || txRef.length > 100)
      return send(res, 400, refusal('tx_ref is required'));
    if (typeof amount !== 'number' || !Number.isFinite(amount) || amount <= 0)
      return send(res, 400, refusal('amount is required'));
    if (typeof body?.currency !== 'string' || !/^[A-Z]{3}$/.test(body.currency))
      return send(res, 400, refusal('Invalid currency'));
    if (typeof redirectUrl !== 'string' || !/^https?:\/\//.test(redirectUrl))
      return send(res, 400, refusal('redirect_url is required'));
    if (typeof customer?.email !== 'string' || !customer.email.includes('@'))
      return send(res, 400, refusal('customer.email is required'));
    if ([...checkouts.values()].some((checkout) => checkout.txRef === txRef))
      return send(res, 400, refusal('Duplicate tx_ref: a transaction with this reference exists'));
    const checkout: FlutterwaveCheckout = {
      id: randomBytes(8).toString('hex'),
      txRef,
      amount,
      currency: body.currency,
      redirectUrl,
      customer: { email: customer.email, name: typeof customer.name === 'string' ? customer.name : '' },
      title: typeof customizations.title === 'string' ? customizations.title : 'Payment',
      description: typeof customizations.description === 'string' ? customizations.description : '',
    };
    checkouts.set(checkout.id, checkout);
    send(res, 200, {
      status: 'success',
      message: 'Hosted Link',
      data: { link: `${server.url}/hosted/pay/${checkout.id}` },
    });
  }

  async function pay(checkout: FlutterwaveCheckout, req: IncomingMessage, res: ServerResponse) {
    if (byReference.get(checkout.txRef)?.status === 'successful')
      return htmlResponse(res, 409, hostedPage(checkout, null, true));
    const form = new URLSearchParams(await readText(req));
    const number = (form.get('card_number') ?? '').replace(/[\s-]/g, '');
    const expiry = form.get('expiry') ?? '';
    const cvc = form.get('cvc') ?? '';
    if (!/^\d{12,19}$/.test(number) || !/^(0[1-9]|1[0-2])\/\d{2}$/.test(expiry) || !/^\d{3,4}$/.test(cvc)) {
      return htmlResponse(
        res,
        400,
        hostedPage(checkout, 'Check the card number, expiry date and security code.', false),
      );
    }
    const last4 = number.slice(-4);
    const succeeded = ['4242', '0069', '0119', '0127', '0341', ...Object.keys(REFUND_SCRIPTS)].includes(last4);
    const pending = last4 === '0036';
    const id = (nextId += 1);
    const transaction: FlutterwaveTransaction = {
      id,
      tx_ref: checkout.txRef,
      flw_ref: `FLW-MOCK-${randomBytes(16).toString('hex')}`,
      amount: checkout.amount,
      charged_amount: checkout.amount,
      currency: checkout.currency,
      status: pending ? 'pending' : succeeded ? 'successful' : 'failed',
      processor_response: pending
        ? 'Pending authorisation'
        : succeeded
          ? 'Approved'
          : last4 === '0002'
            ? 'Insufficient funds'
            : 'Declined',
      payment_type: 'card',
      created_at: new Date().toISOString(),
      customer: {
        id: (nextCustomer += 1),
        name: checkout.customer.name,
        email: checkout.customer.email,
        phone_number: null,
      },
      card: { first_6digits: number.slice(0, 6), last_4digits: last4 },
    };
    byReference.set(checkout.txRef, transaction);
    byId.set(id, transaction);
    refundScripts.set(id, REFUND_SCRIPTS[last4] ?? 'completed');

    if (last4 === '0119') {
      webhook(transaction);
      webhook(transaction);
    } else if (last4 === '0127') {
      webhook(transaction, { amount: transaction.amount * 10, charged_amount: transaction.amount * 10 });
    } else if (last4 === '0341') {
      webhook(transaction, {}, `not-${options.secretHash}`);
    } else if (last4 !== '0069' && !pending) {
      // Flutterwave sends charge.completed once a charge is decided: a pending one has none yet.
      webhook(transaction);
    }

    const back = new URL(checkout.redirectUrl);
    back.searchParams.set('status', transaction.status);
    back.searchParams.set('tx_ref', transaction.tx_ref);
    back.searchParams.set('transaction_id', String(transaction.id));
    res.writeHead(303, { Location: back.toString() }).end();
  }

  /** What is still refundable of a transaction: its amount less every refund not failed. */
  const leftOf = (transaction: FlutterwaveTransaction) =>
    thousandths(transaction.amount) -
    [...refunds.values()]
      .filter((refund) => refund.transaction_id === transaction.id && refund.status !== 'failed')
      .reduce((sum, refund) => sum + thousandths(refund.amount_refunded), 0);

  async function refund(transactionId: number, req: IncomingMessage, res: ServerResponse) {
    let body: { amount?: unknown; comments?: unknown } | null;
    try {
      const text = await readText(req);
      body = text === '' ? null : (JSON.parse(text) as { amount?: unknown; comments?: unknown } | null);
    } catch {
      return send(res, 400, refusal('Invalid JSON body'));
    }
    const transaction = byId.get(transactionId);
    if (!transaction) return send(res, 400, refusal('No transaction was found for this id'));
    if (transaction.status !== 'successful')
      return send(res, 400, refusal('Only successful transactions can be refunded'));
    const left = leftOf(transaction);
    if (left <= 0) return send(res, 400, refusal('Transaction has been fully refunded'));
    const asked =
      body?.amount === undefined ? left / 1000 : typeof body.amount === 'string' ? Number(body.amount) : body.amount;
    if (typeof asked !== 'number' || !Number.isFinite(asked) || asked <= 0)
      return send(res, 400, refusal('Invalid amount'));
    if (thousandths(asked) > left) {
      return send(res, 400, refusal('Refund amount cannot be greater than the amount left on the transaction'));
    }
    const script = refundScripts.get(transaction.id) ?? 'completed';
    if (script === 'refused') return send(res, 400, refusal('Refunds are not available for this transaction'));

    const created: FlutterwaveRefund = {
      id: (nextRefundId += 1),
      account_id: ACCOUNT_ID,
      transaction_id: transaction.id,
      flw_ref: `URF_${Date.now()}_${randomBytes(3).readUIntBE(0, 3)}`,
      amount_refunded: asked,
      status: script === 'completed' ? 'completed' : 'pending',
      comment: typeof body?.comments === 'string' ? body.comments.slice(0, 200) : null,
      settlement_id: 'NEW',
      meta: { source: 'availablebalance' },
      created_at: new Date().toISOString(),
    };
    refunds.set(created.id, created);
    if (created.status === 'pending') {
      const timer = setTimeout(() => {
        refundTimers.delete(timer);
        created.status = script === 'pendingThenFailed' ? 'failed' : 'completed';
      }, refundSettlesAfterMs);
      refundTimers.add(timer);
    }
    send(res, 200, {
      status: 'success',
      message: 'Transaction refund initiated',
      data: {
        id: created.id,
        account_id: created.account_id,
        tx_id: created.transaction_id,
        flw_ref: created.flw_ref,
        wallet_id: WALLET_ID,
        amount_refunded: created.amount_refunded,
        status: created.status,
        destination: 'payment_source',
        meta: created.meta,
        created_at: created.created_at,
      },
    });
  }

  function listRefunds(query: URLSearchParams, res: ServerResponse) {
    const transactionId = query.get('id');
    const flwRef = query.get('flw_ref');
    const status = query.get('status');
    const rows = [...refunds.values()]
      .filter(
        (refund) =>
          (!transactionId || String(refund.transaction_id) === transactionId) &&
          (!flwRef || refund.flw_ref === flwRef) &&
          (!status || refund.status === status),
      )
      .reverse();
    const page = Math.max(1, Number.parseInt(query.get('page') ?? '1', 10) || 1);
    send(res, 200, {
      status: 'success',
      message: 'Refunds fetched',
      meta: {
        page_info: {
          total: rows.length,
          current_page: page,
          total_pages: Math.max(1, Math.ceil(rows.length / REFUNDS_PAGE_SIZE)),
          page_size: REFUNDS_PAGE_SIZE,
        },
      },
      data: rows.slice((page - 1) * REFUNDS_PAGE_SIZE, page * REFUNDS_PAGE_SIZE).map((refund) => ({ ...refund })),
    });
  }

  const verifyAnswer = (res: ServerResponse, transaction: FlutterwaveTransaction | undefined) => {
    if (!transaction) return send(res, 400, refusal('No transaction was found for this id'));
    return send(res, 200, { status: 'success', message: 'Transaction fetched successfully', data: transaction });
  };

  async function route(req: IncomingMessage, res: ServerResponse) {
    const address = new URL(req.url ?? '/', 'http://simulator');
    const path = address.pathname;
    const method = req.method ?? 'GET';

    if (path.startsWith('/_simulator/')) {
      if (method === 'GET' && path === '/_simulator/transactions') return send(res, 200, [...byId.values()]);
      if (method === 'GET' && path === '/_simulator/refunds') return send(res, 200, [...refunds.values()]);
      if (method === 'POST' && path === '/_simulator/mode') {
        let body: { mode?: unknown } | null = null;
        try {
          body = JSON.parse(await readText(req)) as { mode?: unknown } | null;
        } catch {
          body = null;
        }
        if (!isSimulatorMode(body?.mode)) return send(res, 400);
        mode = body.mode;
        return send(res, 204);
      }
      return send(res, 404);
    }

    const hosted = /^\/hosted\/pay\/([0-9a-f]{16})$/.exec(path);
    if (hosted) {
      const checkout = checkouts.get(hosted[1]!);
      if (!checkout)
        return htmlResponse(res, 404, '<!doctype html><title>Not found</title><p>This payment link is not valid.</p>');
      if (method === 'GET') {
        const paid = byReference.get(checkout.txRef)?.status === 'successful';
        return htmlResponse(res, 200, hostedPage(checkout, null, paid));
      }
      if (method === 'POST') return pay(checkout, req, res);
      return send(res, 405);
    }

    if (!path.startsWith('/v3/')) return send(res, 404, refusal('Not found'));
    calls.push(`${method} ${path}`);
    if (mode === 'close') {
      req.socket.destroy();
      return;
    }
    if (mode === '503') return send(res, 503, refusal('Service Unavailable'));
    if (mode === '429') return send(res, 429, refusal('Too many requests, please try again later'));
    if (!bearer(req)) return send(res, 401, refusal('Invalid authorization key'));

    if (method === 'POST' && path === '/v3/payments') return createPayment(req, res);
    if (method === 'GET' && path === '/v3/transactions/verify_by_reference') {
      return verifyAnswer(res, byReference.get(address.searchParams.get('tx_ref') ?? ''));
    }
    const byIdPath = /^\/v3\/transactions\/(\d{1,15})\/verify$/.exec(path);
    if (method === 'GET' && byIdPath) return verifyAnswer(res, byId.get(Number(byIdPath[1])));
    const refundPath = /^\/v3\/transactions\/(\d{1,15})\/refund$/.exec(path);
    if (method === 'POST' && refundPath) return refund(Number(refundPath[1]), req, res);
    if (method === 'GET' && path === '/v3/refunds') return listRefunds(address.searchParams, res);
    const oneRefund = /^\/v3\/refunds\/(\d{1,15})$/.exec(path);
    if (method === 'GET' && oneRefund) {
      const found = refunds.get(Number(oneRefund[1]));
      if (!found) return send(res, 404, refusal('Refund not found'));
      return send(res, 200, { status: 'success', message: 'Refund fetched', data: { ...found } });
    }
    send(res, 404, refusal('Not found'));
  }

  const server = await listenSimulator(route, (res) => send(res, 500, refusal('An internal error occurred')), options);

  return {
    url: server.url,
    async stop() {
      for (const timer of refundTimers) clearTimeout(timer);
      refundTimers.clear();
      await Promise.allSettled([...deliveries]);
      await server.close();
    },
    setMode(next) {
      mode = next;
    },
    setWebhookUrl(next) {
      webhookUrl = next;
    },
    checkouts: () => [...checkouts.values()].map((checkout) => ({ ...checkout })),
    transactions: () => [...byId.values()].map((transaction) => ({ ...transaction })),
    refunds: () => [...refunds.values()].map((refund) => ({ ...refund })),
    calls: () => [...calls],
    webhooksSent: () => webhooks.map((entry) => ({ ...entry })),
    async idle() {
      await Promise.allSettled([...deliveries]);
    },
  };
}
