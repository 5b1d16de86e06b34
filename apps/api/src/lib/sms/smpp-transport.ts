import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import smpp, { type PDU, type Session } from 'smpp';
import type { OutgoingSms, SentSms, SmsDeliveryState, SmsEncoding, SmsReceipt, SmsTransport } from './transport.ts';

/*
 * SMPP 3.4 to an operator's or aggregator's SMSC (ADR 055), with the `smpp` package.
 *
 * - One transceiver session: submit_sm out, deliver_sm (delivery receipts) in. enquire_link every
 *   `enquireLinkMs`; an answer missing for `responseTimeoutMs` counts as a dead link.
 * - Reconnects whenever the socket drops or the bind is refused: after 0.5 s, 1 s, 2 s … up to
 *   `maxReconnectDelayMs`, each with ±20 % jitter, reset by a successful bind.
 * - Sends wait in a bounded queue while the link is down and go out, in order, once bound. A message is
 *   one submit_sm per part; a part whose submit_sm_resp is lost with the link is sent again (at least once).
 * - Long texts are split with a UDH (IE 0x00, 8-bit reference): GSM-7 153 septets a part (160 alone),
 *   UCS-2 67 characters (70 alone), never cutting an escape sequence or a surrogate pair.
 * - Throughput: a token bucket of one submit_sm every 1/`throughputPerSecond` s (no burst), the unit
 *   operators count; ESME_RTHROTTLED or ESME_RMSGQFUL pauses a second and sends the part again.
 * - Receipts: each part's is answered (deliver_sm_resp); `onReceipt` is called once per message, when
 *   every part has a final state (failed as soon as one part fails), with the first part's id.
 */

export interface SmppTransportOptions {
  /** smpp://host:port */
  url: string;
  systemId: string;
  password: string;
  systemType?: string;
  /** Sender id shown on the phone: alphanumeric (TON 5) or a number (TON 1). */
  sender?: string;
  /** submit_sm per second the SMSC allows us. */
  throughputPerSecond: number;
  onReceipt: (receipt: SmsReceipt) => void;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  enquireLinkMs?: number;
  responseTimeoutMs?: number;
  initialReconnectDelayMs?: number;
  maxReconnectDelayMs?: number;
  /** Messages waiting at most; more are refused. */
  maxQueued?: number;
}

export class SmppSubmitError extends Error {
  readonly status: number;
  constructor(status: number) {
    super(`The SMSC refused the message (command_status 0x${status.toString(16).padStart(4, '0')})`);
    this.name = 'SmppSubmitError';
    this.status = status;
  }
}

const GSM_SINGLE = 160;
const GSM_PART = 153;
const UCS2_SINGLE = 70;
const UCS2_PART = 67;
/** Parts counted by the 8-bit UDH. */
const MAX_PARTS = 255;
/** Part ids whose message waits for more receipts, at most (oldest forgotten first). */
const MAX_TRACKED_PARTS = 10_000;

interface Part {
  text: string;
  udh?: Buffer;
}

interface Entry {
  to: string;
  dataCoding: number;
  parts: Part[];
  partIds: string[];
  /** Where its parts' receipts are gathered (several parts only). */
  receipts?: PendingMessage;
  resolve(sent: SentSms): void;
  reject(error: Error): void;
}

/** A message of several parts whose receipts are being gathered. */
interface PendingMessage {
  providerId: string;
  total: number;
  finals: number;
  failure?: SmsReceipt;
}

/** Whether every character of the text is in the GSM 03.38 default alphabet (with its extension table). */
export function isGsm7(text: string): boolean {
  return smpp.encodings.ASCII.match(text);
}

/**
 * The text cut into the parts it is sent as: one when it fits a single SMS, else parts of at most 153
 * septets (GSM-7: an extension character counts two and stays whole) or 67 UTF-16 units (UCS-2: a
 * surrogate pair stays whole).
 */
export function splitText(text: string, encoding: SmsEncoding): string[] {
  const cost = (char: string) => (encoding === 'gsm7' ? smpp.encodings.ASCII.encode(char).length : char.length); // char: one code point
  const chars = [...text];
  const total = chars.reduce((sum, char) => sum + cost(char), 0);
  if (total <= (encoding === 'gsm7' ? GSM_SINGLE : UCS2_SINGLE)) return [text];
  const size = encoding === 'gsm7' ? GSM_PART : UCS2_PART;
  const parts: string[] = [];
  let current = '';
  let used = 0;
  for (const char of chars) {
    const c = cost(char);
    if (used + c > size) {
      parts.push(current);
      current = '';
      used = 0;
    }
    current += char;
    used += c;
  }
  if (current) parts.push(current);
  return parts;
}

function deliveryState(messageState: unknown, stat: string | undefined): SmsDeliveryState {
  switch (typeof messageState === 'number' ? messageState : -1) {
    case 2:
      return 'delivered';
    case 3:
      return 'expired';
    case 4:
    case 5:
      return 'failed';
    case 8:
      return 'rejected';
    case 0:
    case 1:
    case 6:
      return 'pending';
    case 7:
      return 'unknown';
  }
  switch (stat) {
    case 'DELIVRD':
      return 'delivered';
    case 'EXPIRED':
      return 'expired';
    case 'UNDELIV':
    case 'DELETED':
      return 'failed';
    case 'REJECTD':
      return 'rejected';
    case 'ACCEPTD':
    case 'ENROUTE':
      return 'pending';
    default:
      return 'unknown';
  }
}

/** A receipt's fields: the TLVs when the SMSC sent them, else its text (`id:… stat:… err:…`). */
export function parseReceipt(pdu: PDU): SmsReceipt | null {
  const short = pdu.short_message;
  const text =
    short && typeof short === 'object' && 'message' in short && typeof short.message === 'string' ? short.message : '';
  const field = (name: string) => new RegExp(`(?:^|\\s)${name}:(\\S*)`, 'i').exec(text)?.[1];
  const providerId =
    typeof pdu.receipted_message_id === 'string' && pdu.receipted_message_id ? pdu.receipted_message_id : field('id');
  if (!providerId) return null;
  const state = deliveryState(pdu.message_state, field('stat')?.toUpperCase());
  const error = field('err');
  return error && !/^0+$/.test(error) ? { providerId, state, error } : { providerId, state };
}

export function smppTransport(options: SmppTransportOptions): SmsTransport {
  const { log } = options;
  const address = new URL(options.url);
  if (address.protocol !== 'smpp:') throw new Error(`Not an smpp:// address: ${options.url}`);
  const host = address.hostname;
  const port = Number(address.port || 2775);
  const enquireLinkMs = options.enquireLinkMs ?? 30_000;
  const responseTimeoutMs = options.responseTimeoutMs ?? 10_000;
  const initialDelay = options.initialReconnectDelayMs ?? 500;
  const maxDelay = options.maxReconnectDelayMs ?? 60_000;
  const maxQueued = options.maxQueued ?? 1_000;
  const interval = 1000 / options.throughputPerSecond;
  const senderTon = options.sender && /^\+?\d+$/.test(options.sender) ? 1 : 5;
  const sender = (options.sender ?? '').replace(/^\+/, '');

  const queue: Entry[] = [];
  const pending = new Map<string, PendingMessage>();
  let session: Session | null = null;
  let bound = false;
  let closed = false;
  let pumping = false;
  let failures = 0;
  let reference = Math.floor(Math.random() * 256);
  let nextSlot = 0;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let enquireTimer: NodeJS.Timeout | undefined;
  /** Rejects the submit_sm waiting for its answer when its session goes. */
  let abandon: ((error: Error) => void) | null = null;

  function scheduleReconnect(): void {
    if (closed || reconnectTimer) return;
    const base = Math.min(maxDelay, initialDelay * 2 ** failures);
    const delay = Math.round(base * (0.8 + Math.random() * 0.4));
    failures += 1;
    log.warn({ delayMs: delay, attempt: failures }, 'SMPP: reconnecting');
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      connect();
    }, delay);
  }

  function connect(): void {
    if (closed) return;
    const current = smpp.connect({ host, port });
    session = current;
    bound = false;
    // Connected and bound within the response timeout, or it starts again (an SMSC can accept the socket and
    // then say nothing).
    const bindTimer = setTimeout(() => {
      log.warn('SMPP: not bound in time, dropping the link');
      current.destroy();
    }, responseTimeoutMs);
    current.on('connect', () => {
      // Small PDUs each way: Nagle's algorithm would hold a submit_sm behind an unacknowledged deliver_sm_resp.
      current.socket.setNoDelay(true);
      current.bind_transceiver(
        {
          system_id: options.systemId,
          password: options.password,
          system_type: options.systemType ?? '',
          interface_version: 0x34,
        },
        (resp) => {
          clearTimeout(bindTimer);
          if (resp.command_status !== 0) {
            log.error({ status: resp.command_status }, 'SMPP: the SMSC refused the bind');
            current.destroy();
            return;
          }
          if (closed || session !== current) return;
          bound = true;
          failures = 0;
          log.info({ host, port }, 'SMPP: bound as transceiver');
          keepAlive(current);
          void pump();
        },
      );
    });
    current.on('error', (error: Error) => {
      // A socket error, or a PDU the package could not parse (it then stops reading): start again.
      log.warn({ err: error }, 'SMPP: connection error');
      current.destroy();
    });
    current.on('close', () => {
      clearTimeout(bindTimer);
      if (session !== current) return;
      session = null;
      bound = false;
      clearInterval(enquireTimer);
      abandon?.(new Error('SMPP connection lost'));
      if (!closed) scheduleReconnect();
    });
    current.on('enquire_link', (pdu: PDU) => current.send(pdu.response()));
    current.on('unbind', (pdu: PDU) => {
      bound = false;
      current.send(pdu.response(), () => current.destroy());
    });
    current.on('deliver_sm', (pdu: PDU) => {
      current.send(pdu.response());
      if ((Number(pdu.esm_class) & 0x3c) !== 0x04) {
        log.info({ from: pdu.source_addr }, 'SMPP: a message from a phone, not a receipt (ignored)');
        return;
      }
      const receipt = parseReceipt(pdu);
      if (receipt) receive(receipt);
      else log.warn('SMPP: a delivery receipt without a message id');
    });
    current.on('unknown', (pdu: PDU) => current.send(pdu.response()));
  }

  function keepAlive(current: Session): void {
    clearInterval(enquireTimer);
    enquireTimer = setInterval(() => {
      const timeout = setTimeout(() => {
        log.warn('SMPP: enquire_link unanswered, dropping the link');
        current.destroy();
      }, responseTimeoutMs);
      if (!current.enquire_link({}, () => clearTimeout(timeout))) clearTimeout(timeout);
    }, enquireLinkMs);
  }

  function receive(receipt: SmsReceipt): void {
    const message = pending.get(receipt.providerId);
    if (!message) {
      options.onReceipt(receipt);
      return;
    }
    if (receipt.state === 'pending') return;
    pending.delete(receipt.providerId);
    message.finals += 1;
    if (receipt.state !== 'delivered' && !message.failure) message.failure = receipt;
    if (message.finals < message.total) return;
    options.onReceipt({ ...(message.failure ?? { state: 'delivered' }), providerId: message.providerId });
  }

  /** Notes a part accepted, before its receipt can arrive (the SMSC answers submit_sm first). */
  function track(entry: Entry, partId: string): void {
    entry.receipts ??= { providerId: partId, total: entry.parts.length, finals: 0 };
    pending.set(partId, entry.receipts);
    while (pending.size > MAX_TRACKED_PARTS) pending.delete(pending.keys().next().value!);
  }

  /** Waits for the token bucket's next slot (one submit_sm each `interval` ms, no burst). */
  async function takeSlot(): Promise<void> {
    const now = Date.now();
    const at = Math.max(now, nextSlot);
    nextSlot = at + interval;
    if (at > now) await sleep(at - now);
  }

  function submit(current: Session, entry: Entry, part: Part): Promise<PDU> {
    return new Promise((resolve, reject) => {
      const timeout = setTimeout(() => {
        abandon = null;
        reject(new Error('SMPP submit_sm unanswered'));
        current.destroy();
      }, responseTimeoutMs);
      abandon = (error) => {
        clearTimeout(timeout);
        abandon = null;
        reject(error);
      };
      const sent = current.submit_sm(
        {
          source_addr_ton: senderTon,
          source_addr_npi: senderTon === 1 ? 1 : 0,
          source_addr: sender,
          dest_addr_ton: 1,
          dest_addr_npi: 1,
          destination_addr: entry.to,
          registered_delivery: 1,
          data_coding: entry.dataCoding,
          short_message: part.udh ? { udh: part.udh, message: part.text } : { message: part.text },
        },
        (resp) => {
          clearTimeout(timeout);
          abandon = null;
          resolve(resp);
        },
      );
      if (!sent) abandon(new Error('SMPP connection not writable'));
    });
  }

  async function pump(): Promise<void> {
    if (pumping) return;
    pumping = true;
    try {
      while (!closed && bound && session && queue.length > 0) {
        const entry = queue[0]!;
        const part = entry.parts[entry.partIds.length]!;
        await takeSlot();
        const current = session;
        if (closed || !bound || !current || queue[0] !== entry) continue;
        let resp: PDU;
        try {
          resp = await submit(current, entry, part);
        } catch (error) {
          log.warn({ err: error }, 'SMPP: a part will be sent again once bound');
          break;
        }
        if (resp.command_status === smpp.errors.ESME_RTHROTTLED || resp.command_status === smpp.errors.ESME_RMSGQFUL) {
          log.warn({ status: resp.command_status }, 'SMPP: the SMSC asks to slow down');
          await sleep(1000);
          continue;
        }
        if (queue[0] !== entry) continue;
        if (resp.command_status !== 0) {
          queue.shift();
          entry.reject(new SmppSubmitError(resp.command_status));
          continue;
        }
        const partId = String(resp.message_id);
        entry.partIds.push(partId);
        if (entry.parts.length > 1) track(entry, partId);
        if (entry.partIds.length < entry.parts.length) continue;
        queue.shift();
        entry.resolve({ providerId: entry.partIds[0]!, parts: entry.parts.length, partIds: entry.partIds });
      }
    } finally {
      pumping = false;
    }
  }

  connect();

  return {
    send({ to, text, encoding }: OutgoingSms): Promise<SentSms> {
      if (closed) return Promise.reject(new Error('The SMS transport is closed'));
      if (queue.length >= maxQueued) return Promise.reject(new Error('Too many SMS waiting for the SMSC'));
      if (!/^\+\d{6,15}$/.test(to)) return Promise.reject(new Error('Not an E.164 number'));
      if (!text) return Promise.reject(new Error('An empty SMS'));
      const chosen = encoding ?? (isGsm7(text) ? 'gsm7' : 'ucs2');
      if (chosen === 'gsm7' && !isGsm7(text)) return Promise.reject(new Error('Text outside the GSM-7 alphabet'));
      const texts = splitText(text, chosen);
      if (texts.length > MAX_PARTS) return Promise.reject(new Error('Text too long for one SMS message'));
      let parts: Part[] = texts.map((part) => ({ text: part }));
      if (texts.length > 1) {
        reference = (reference + 1) % 256;
        const ref = reference;
        parts = texts.map((part, i) => ({
          text: part,
          udh: Buffer.from([0x05, 0x00, 0x03, ref, texts.length, i + 1]),
        }));
      }
      return new Promise<SentSms>((resolve, reject) => {
        queue.push({ to: to.slice(1), dataCoding: chosen === 'gsm7' ? 0 : 8, parts, partIds: [], resolve, reject });
        void pump();
      });
    },

    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(reconnectTimer);
      clearInterval(enquireTimer);
      for (const entry of queue.splice(0)) entry.reject(new Error('The SMS transport is closed'));
      abandon?.(new Error('The SMS transport is closed'));
      const current = session;
      session = null;
      bound = false;
      if (!current) return;
      await new Promise<void>((resolve) => {
        const timeout = setTimeout(() => current.destroy(), 1000);
        current.socket.once('close', () => {
          clearTimeout(timeout);
          resolve();
        });
        if (current.socket.destroyed) {
          clearTimeout(timeout);
          resolve();
          return;
        }
        if (!current.unbind({}, () => current.destroy())) current.destroy();
      });
    },
  };
}
