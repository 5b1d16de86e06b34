import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import smpp, { type PDU, type Session } from 'smpp';

/**
 * A local SMSC speaking SMPP 3.4, for development and tests: an operator's or aggregator's message centre as
 * an ESME (our transport) meets it, over a real socket. Its messages live in memory (the SMSC's own state).
 *
 * - bind_transceiver / bind_transmitter: the system id and password given, else ESME_RINVSYSID /
 *   ESME_RINVPASWD; a second bind on the same session ESME_RALYBND.
 * - enquire_link: answered. unbind: answered, then the session is closed.
 * - submit_sm (bound only, else ESME_RINVBNDSTS): short_message or message_payload, data_coding 0 (GSM 03.38,
 *   one septet per octet) or 8 (UCS-2); concatenated parts by UDH (IE 0x00, 8-bit reference, or 0x08,
 *   16-bit) are put back together. Each submit_sm gets a submit_sm_resp with its own message id; a message is
 *   kept whole once all its parts arrived, with its parts count (for message_payload: the count the SMSC
 *   would split it into).
 * - Delivery receipts, when registered_delivery asks for one: `receiptDelayMs` after each part, a deliver_sm
 *   (esm_class 0x04) with the standard text `id:… sub:001 dlvrd:001 submit date:YYMMDDhhmm done date:…
 *   stat:DELIVRD err:000 text:…` and the receipted_message_id and message_state TLVs, on a transceiver
 *   session of the same system id (kept until one is bound, as an SMSC keeps them).
 * - A destination starting with SMSC_FAILING_PREFIX (+2507000000xx) is not delivered: stat:UNDELIV, err:001,
 *   message_state 5.
 *
 * `dropConnections()` cuts every session as a network failure would; `setResponsive(false)` keeps the sockets
 * open but answers nothing, as a hung SMSC or a half-open link.
 */

/** Numbers the simulator fails to deliver to: +2507000000 followed by any two digits. */
export const SMSC_FAILING_PREFIX = '+2507000000';

export interface SmscMessage {
  /** The first part's message id. */
  id: string;
  partIds: string[];
  from: string;
  to: string;
  text: string;
  dataCoding: number;
  parts: number;
  /** How it was concatenated: not at all, by UDH, or in one message_payload. */
  via: 'single' | 'udh' | 'payload';
  /** When its last part arrived (ms since the epoch). */
  receivedAt: number;
}

export interface SmscBind {
  systemId: string;
  ok: boolean;
}

export interface SmscSimulator {
  /** smpp://127.0.0.1:<port> */
  url: string;
  port: number;
  messages(): SmscMessage[];
  binds(): SmscBind[];
  /** Cuts every open session (the transport should reconnect). */
  dropConnections(): void;
  /**
   * Whether it answers at all: when not, sockets stay open but every PDU received is ignored and no receipt
   * is sent (they wait), as an SMSC that hung or a link that went half-open.
   */
  setResponsive(responsive: boolean): void;
  close(): Promise<void>;
}

export interface SmscOptions {
  host?: string;
  port?: number;
  systemId: string;
  password: string;
  /** How long after a part is accepted its receipt is sent (default 200 ms). */
  receiptDelayMs?: number;
}

interface Receipt {
  systemId: string;
  options: Record<string, unknown>;
}

interface PartsInProgress {
  total: number;
  texts: Map<number, string>;
  ids: Map<number, string>;
}

const GSM_SINGLE = 160;
const GSM_PART = 153;
const UCS2_SINGLE = 70;
const UCS2_PART = 67;

/** SMPP time in receipts: YYMMDDhhmm (UTC). */
function receiptTime(date: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return (
    two(date.getUTCFullYear() % 100) +
    two(date.getUTCMonth() + 1) +
    two(date.getUTCDate()) +
    two(date.getUTCHours()) +
    two(date.getUTCMinutes())
  );
}

/** How many parts an SMSC splits a message_payload into. */
function partsOf(text: string, dataCoding: number): number {
  if (dataCoding === 8) {
    const units = text.length;
    return units <= UCS2_SINGLE ? 1 : Math.ceil(units / UCS2_PART);
  }
  const septets = smpp.encodings.ASCII.encode(text).length;
  return septets <= GSM_SINGLE ? 1 : Math.ceil(septets / GSM_PART);
}

/** The concatenation IE of a UDH (0x00: 8-bit reference, 0x08: 16-bit), when there is one. */
function concatenation(udh: Buffer[] | undefined): { ref: number; total: number; seq: number } | null {
  for (const ie of udh ?? []) {
    if (ie[0] === 0x00 && ie[1] === 3) return { ref: ie[2]!, total: ie[3]!, seq: ie[4]! };
    if (ie[0] === 0x08 && ie[1] === 4) return { ref: ie.readUInt16BE(2), total: ie[4]!, seq: ie[5]! };
  }
  return null;
}

interface DecodedText {
  message?: string | Buffer;
  udh?: Buffer[];
}

function textOf(value: unknown): DecodedText {
  return value && typeof value === 'object' && !Buffer.isBuffer(value) ? (value as DecodedText) : {};
}

export async function startSmscSimulator(options: SmscOptions): Promise<SmscSimulator> {
  const receiptDelayMs = options.receiptDelayMs ?? 200;
  const stored: SmscMessage[] = [];
  const bindLog: SmscBind[] = [];
  const inProgress = new Map<string, PartsInProgress>();
  const timers = new Set<NodeJS.Timeout>();
  /** Receipts waiting for a transceiver session of their system id. */
  const waiting: Receipt[] = [];
  const boundAs = new Map<Session, { systemId: string; receiver: boolean }>();
  let nextId = 1;
  let responsive = true;

  const newId = () => `${(nextId++).toString(16).padStart(8, '0')}${randomBytes(4).toString('hex')}`;

  function receiverFor(systemId: string): Session | undefined {
    for (const [session, bound] of boundAs) {
      if (bound.systemId === systemId && bound.receiver && session.socket.writable) return session;
    }
    return undefined;
  }

  function deliverReceipt(receipt: Receipt): void {
    const session = responsive ? receiverFor(receipt.systemId) : undefined;
    if (!session) {
      waiting.push(receipt);
      return;
    }
    session.deliver_sm(receipt.options, (resp) => {
      if (resp.command_status !== 0) waiting.push(receipt);
    });
  }

  function flushReceipts(systemId: string): void {
    const mine = waiting.filter((r) => r.systemId === systemId);
    for (const receipt of mine) waiting.splice(waiting.indexOf(receipt), 1);
    for (const receipt of mine) deliverReceipt(receipt);
  }

  function scheduleReceipt(systemId: string, pdu: PDU, id: string, text: string): void {
    const submitted = new Date();
    const to = String(pdu.destination_addr);
    const failing = `+${to}`.startsWith(SMSC_FAILING_PREFIX);
    const timer = setTimeout(() => {
      timers.delete(timer);
      const stat = failing ? 'UNDELIV' : 'DELIVRD';
      const body =
        `id:${id} sub:001 dlvrd:${failing ? '000' : '001'} submit date:${receiptTime(submitted)} ` +
        `done date:${receiptTime(new Date())} stat:${stat} err:${failing ? '001' : '000'} text:${text.slice(0, 20)}`;
      deliverReceipt({
        systemId,
        options: {
          source_addr_ton: pdu.dest_addr_ton,
          source_addr_npi: pdu.dest_addr_npi,
          source_addr: to,
          dest_addr_ton: pdu.source_addr_ton,
          dest_addr_npi: pdu.source_addr_npi,
          destination_addr: pdu.source_addr,
          esm_class: 0x04,
          data_coding: 0,
          short_message: body,
          receipted_message_id: id,
          message_state: failing ? 5 : 2,
        },
      });
    }, receiptDelayMs);
    timers.add(timer);
  }

  function keep(pdu: PDU, message: Omit<SmscMessage, 'from' | 'to' | 'dataCoding' | 'receivedAt'>): void {
    const ton = Number(pdu.dest_addr_ton);
    const to = String(pdu.destination_addr);
    stored.push({
      ...message,
      from: String(pdu.source_addr),
      to: ton === 1 ? `+${to}` : to,
      dataCoding: Number(pdu.data_coding ?? 0),
      receivedAt: Date.now(),
    });
  }

  function submit(session: Session, pdu: PDU): void {
    const bound = boundAs.get(session);
    if (!bound) {
      session.send(pdu.response({ command_status: smpp.errors.ESME_RINVBNDSTS }));
      return;
    }
    const dataCoding = Number(pdu.data_coding ?? 0) & 0x0f;
    if (dataCoding !== 0 && dataCoding !== 1 && dataCoding !== 8) {
      session.send(pdu.response({ command_status: smpp.errors.ESME_RINVDCS }));
      return;
    }
    const payload = textOf(pdu.message_payload);
    const short = textOf(pdu.short_message);
    const usePayload = typeof payload.message === 'string' && payload.message.length > 0;
    const decoded = usePayload ? payload : short;
    const text = typeof decoded.message === 'string' ? decoded.message : '';
    if (!usePayload && !text) {
      session.send(pdu.response({ command_status: smpp.errors.ESME_RINVMSGLEN }));
      return;
    }
    const id = newId();
    session.send(pdu.response({ message_id: id }));
    if (Number(pdu.registered_delivery ?? 0) & 0x03) scheduleReceipt(bound.systemId, pdu, id, text);

    const concat = usePayload ? null : concatenation(short.udh);
    if (usePayload) {
      keep(pdu, { id, partIds: [id], text, parts: partsOf(text, dataCoding), via: 'payload' });
      return;
    }
    if (!concat || concat.total <= 1) {
      keep(pdu, { id, partIds: [id], text, parts: 1, via: 'single' });
      return;
    }
    const key = `${bound.systemId}|${String(pdu.source_addr)}|${String(pdu.destination_addr)}|${concat.ref}|${concat.total}`;
    const parts = inProgress.get(key) ?? { total: concat.total, texts: new Map(), ids: new Map() };
    inProgress.set(key, parts);
    parts.texts.set(concat.seq, text);
    parts.ids.set(concat.seq, id);
    if (parts.texts.size < parts.total) return;
    inProgress.delete(key);
    const order = [...parts.texts.keys()].sort((a, b) => a - b);
    const partIds = order.map((seq) => parts.ids.get(seq)!);
    keep(pdu, {
      id: partIds[0]!,
      partIds,
      text: order.map((seq) => parts.texts.get(seq)).join(''),
      parts: parts.total,
      via: 'udh',
    });
  }

  function bind(session: Session, pdu: PDU, receiver: boolean): void {
    const systemId = String(pdu.system_id ?? '');
    if (boundAs.has(session)) {
      session.send(pdu.response({ command_status: smpp.errors.ESME_RALYBND }));
      return;
    }
    const status =
      systemId !== options.systemId
        ? smpp.errors.ESME_RINVSYSID
        : pdu.password !== options.password
          ? smpp.errors.ESME_RINVPASWD
          : 0;
    bindLog.push({ systemId, ok: status === 0 });
    if (status !== 0) {
      session.send(pdu.response({ command_status: status }));
      return;
    }
    boundAs.set(session, { systemId, receiver });
    session.send(pdu.response({ system_id: 'KaminuzaSMSC' }));
    if (receiver) flushReceipts(systemId);
  }

  const server = smpp.createServer({}, (session) => {
    session.socket.setNoDelay(true);
    session.on('error', () => session.destroy());
    session.on('close', () => boundAs.delete(session));
    const on = (command: string, handle: (pdu: PDU) => void) =>
      session.on(command, (pdu: PDU) => {
        if (responsive) handle(pdu);
      });
    on('bind_transceiver', (pdu) => bind(session, pdu, true));
    on('bind_transmitter', (pdu) => bind(session, pdu, false));
    on('enquire_link', (pdu) => session.send(pdu.response()));
    on('submit_sm', (pdu) => submit(session, pdu));
    on('unbind', (pdu) => {
      boundAs.delete(session);
      session.send(pdu.response(), () => session.close());
    });
    on('unknown', (pdu) => session.send(pdu.response()));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `smpp://${options.host ?? '127.0.0.1'}:${port}`,
    port,
    messages: () => stored.map((message) => ({ ...message, partIds: [...message.partIds] })),
    binds: () => bindLog.map((entry) => ({ ...entry })),
    setResponsive(value) {
      responsive = value;
      if (!value) return;
      for (const systemId of new Set(waiting.map((receipt) => receipt.systemId))) flushReceipts(systemId);
    },
    dropConnections() {
      for (const session of [...server.sessions]) session.destroy();
      boundAs.clear();
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const session of [...server.sessions]) session.destroy();
      await closed;
    },
  };
}
