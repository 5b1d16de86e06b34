import smpp from 'smpp';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startSmscSimulator, SMSC_FAILING_PREFIX, type SmscSimulator } from '../../simulators/smsc.ts';
import { smppTransport, splitText, type SmppTransportOptions } from './smpp-transport.ts';
import type { SmsReceipt, SmsTransport } from './transport.ts';

/* The SMPP transport against the local SMSC over a real socket (ADR 055). */

const credentials = { systemId: 'kaminuza', password: 'secret12' };

let smsc: SmscSimulator;
let transports: SmsTransport[];

/** What the transport logged, by level (a logger writing to arrays). */
function recordingLog() {
  const lines: { level: string; message: string }[] = [];
  const at =
    (level: string) =>
    (...args: unknown[]) => {
      const message = args.find((arg) => typeof arg === 'string');
      lines.push({ level, message: typeof message === 'string' ? message : '' });
    };
  return { lines, log: { info: at('info'), warn: at('warn'), error: at('error') } as SmppTransportOptions['log'] };
}

function open(overrides: Partial<SmppTransportOptions> = {}) {
  const receipts: SmsReceipt[] = [];
  const { lines, log } = recordingLog();
  const transport = smppTransport({
    url: smsc.url,
    ...credentials,
    sender: 'Kaminuza',
    throughputPerSecond: 100,
    initialReconnectDelayMs: 20,
    maxReconnectDelayMs: 200,
    onReceipt: (receipt) => receipts.push(receipt),
    log,
    ...overrides,
  });
  transports.push(transport);
  return { transport, receipts, lines };
}

beforeEach(async () => {
  smsc = await startSmscSimulator({ ...credentials, receiptDelayMs: 30 });
  transports = [];
});

afterEach(async () => {
  await Promise.all(transports.map((t) => t.close()));
  await smsc.close();
});

describe('splitting', () => {
  it('fits 160 GSM-7 septets or 70 UCS-2 characters in one SMS, else 153 / 67 a part', () => {
    expect(splitText('a'.repeat(160), 'gsm7')).toHaveLength(1);
    expect(splitText('a'.repeat(161), 'gsm7').map((p) => p.length)).toEqual([153, 8]);
    expect(splitText('é'.repeat(70), 'ucs2')).toHaveLength(1);
    expect(splitText('é'.repeat(71), 'ucs2').map((p) => p.length)).toEqual([67, 4]);
  });

  it('counts an extension character as two septets and never cuts it or a surrogate pair', () => {
    expect(splitText('€'.repeat(80), 'gsm7')).toHaveLength(1);
    const parts = splitText('€'.repeat(81), 'gsm7');
    expect(parts.map((p) => p.length)).toEqual([76, 5]); // 152 septets: a 77th € would need 154
    const emoji = splitText('😊'.repeat(40), 'ucs2');
    expect(emoji.map((p) => p.length)).toEqual([66, 14]); // 33 pairs; a 34th would need 68 units
    expect(emoji.join('')).toBe('😊'.repeat(40));
  });
});

describe('SMPP transport against the SMSC simulator', () => {
  it('sends a GSM-7 and a UCS-2 message, each arriving whole in one part', async () => {
    const { transport } = open();
    const gsm = 'Kaminuza: your code is 482913. {Valid 10 min} €0 [ok]';
    const ucs2 = 'Kaminuza: kode yawe ni 482913 ✓ — murakoze 😊';
    const sentGsm = await transport.send({ to: '+250788123456', text: gsm });
    const sentUcs2 = await transport.send({ to: '+250788123457', text: ucs2 });
    expect(sentGsm.parts).toBe(1);
    expect(sentUcs2.parts).toBe(1);

    const [first, second] = smsc.messages();
    expect(first).toMatchObject({ id: sentGsm.providerId, to: '+250788123456', from: 'Kaminuza' });
    expect(first).toMatchObject({ text: gsm, dataCoding: 0, parts: 1, via: 'single' });
    expect(second).toMatchObject({ id: sentUcs2.providerId, text: ucs2, dataCoding: 8, parts: 1 });
  });

  it('sends a long text as three concatenated parts that arrive as one message', async () => {
    const { transport } = open();
    const gsm = 'Your application to the University of Rwanda was received [ref 42]. '.repeat(6).trim();
    const ucs2 = 'Ubutumwa — ' + 'ü✓'.repeat(80);
    const sentGsm = await transport.send({ to: '+250788123456', text: gsm });
    const sentUcs2 = await transport.send({ to: '+250788123456', text: ucs2, encoding: 'ucs2' });
    expect(sentGsm.parts).toBe(3);
    expect(sentUcs2.parts).toBe(3);
    expect(sentGsm.partIds).toHaveLength(3);

    const messages = smsc.messages();
    expect(messages).toHaveLength(2);
    expect(messages[0]).toMatchObject({ text: gsm, parts: 3, via: 'udh', dataCoding: 0, partIds: sentGsm.partIds });
    expect(messages[1]).toMatchObject({ text: ucs2, parts: 3, via: 'udh', dataCoding: 8, partIds: sentUcs2.partIds });
  });

  it('reports a delivery receipt with the provider id send returned, once per message', async () => {
    const { transport, receipts } = open();
    const single = await transport.send({ to: '+250788123456', text: 'Your application was received.' });
    const long = await transport.send({ to: '+250788123456', text: 'x'.repeat(400) });
    await vi.waitFor(() => expect(receipts).toHaveLength(2), { timeout: 5000 });
    expect(receipts).toContainEqual({ providerId: single.providerId, state: 'delivered' });
    expect(receipts).toContainEqual({ providerId: long.providerId, state: 'delivered' });
  });

  it('reports an undelivered message as failed, with the SMSC error', async () => {
    const { transport, receipts } = open();
    const sent = await transport.send({ to: `${SMSC_FAILING_PREFIX}42`, text: 'Nobody home.' });
    await vi.waitFor(() => expect(receipts).toHaveLength(1), { timeout: 5000 });
    expect(receipts[0]).toEqual({ providerId: sent.providerId, state: 'failed', error: '001' });
  });

  it('reconnects after the SMSC drops the link and sends what was queued meanwhile', async () => {
    const { transport, lines, receipts } = open({ initialReconnectDelayMs: 300 });
    await transport.send({ to: '+250788123456', text: 'before' });

    smsc.dropConnections();
    await vi.waitFor(() => expect(lines.some((l) => l.message === 'SMPP: reconnecting')).toBe(true));
    const queued = [
      transport.send({ to: '+250788123456', text: 'queued one' }),
      transport.send({ to: '+250788123456', text: 'queued two' }),
    ];
    const sent = await Promise.all(queued);

    expect(smsc.messages().map((m) => m.text)).toEqual(['before', 'queued one', 'queued two']);
    expect(smsc.binds().filter((b) => b.ok)).toHaveLength(2);
    // Receipts of what was sent after the drop come on the new session.
    await vi.waitFor(
      () => expect(receipts.map((r) => r.providerId)).toEqual(expect.arrayContaining(sent.map((s) => s.providerId))),
      {
        timeout: 5000,
      },
    );
  });

  it('keeps the link with enquire_link, and drops and binds again when the SMSC stops answering', async () => {
    const { transport, lines } = open({ enquireLinkMs: 50, responseTimeoutMs: 300 });
    const said = (message: string) => lines.some((line) => line.message === message);
    await transport.send({ to: '+250788123456', text: 'before' });
    await new Promise((resolve) => setTimeout(resolve, 400)); // several enquire_link, all answered
    expect(said('SMPP: reconnecting')).toBe(false);

    smsc.setResponsive(false);
    await vi.waitFor(() => expect(said('SMPP: enquire_link unanswered, dropping the link')).toBe(true), {
      timeout: 5000,
    });
    const queued = transport.send({ to: '+250788123456', text: 'after the silence' });
    await vi.waitFor(() => expect(said('SMPP: not bound in time, dropping the link')).toBe(true), { timeout: 5000 });
    smsc.setResponsive(true);
    await queued;
    expect(smsc.messages().map((m) => m.text)).toEqual(['before', 'after the silence']);
  });

  it('keeps retrying a refused bind, with backoff, and close() stops it and rejects what waits', async () => {
    const { transport, lines } = open({ password: 'wrong', initialReconnectDelayMs: 10, maxReconnectDelayMs: 40 });
    const waiting = transport.send({ to: '+250788123456', text: 'never sent' });
    const rejected = expect(waiting).rejects.toThrow('closed');

    await vi.waitFor(() => expect(smsc.binds().length).toBeGreaterThanOrEqual(3), { timeout: 5000 });
    expect(smsc.binds().every((b) => !b.ok)).toBe(true);
    expect(lines.some((l) => l.level === 'error' && l.message === 'SMPP: the SMSC refused the bind')).toBe(true);

    await transport.close();
    await rejected;
    const attempts = smsc.binds().length;
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(smsc.binds()).toHaveLength(attempts);
    expect(smsc.messages()).toEqual([]);
    await expect(transport.send({ to: '+250788123456', text: 'after' })).rejects.toThrow('closed');
  });

  it('spaces submit_sm by the throughput limit', async () => {
    const { transport } = open({ throughputPerSecond: 20 }); // one every 50 ms
    await Promise.all(
      Array.from({ length: 11 }, (_, i) => transport.send({ to: '+250788123456', text: `message ${i}` })),
    );
    const times = smsc.messages().map((m) => m.receivedAt);
    expect(times).toHaveLength(11);
    // Sent 50 ms apart (timers never fire early) and seen at the SMSC give or take the socket's latency,
    // which a loaded machine can stretch for one PDU: so the bounds are over five intervals and the whole run,
    // generous for latency yet far above what an unlimited sender takes (11 PDUs in a few milliseconds). No
    // upper bound: a loaded machine only makes it slower.
    for (let i = 5; i < times.length; i++) expect(times[i]! - times[i - 5]!).toBeGreaterThanOrEqual(150);
    expect(times.at(-1)! - times[0]!).toBeGreaterThanOrEqual(400);
  });

  it('refuses a text outside GSM-7 when GSM-7 is asked, and a number that is not E.164', async () => {
    const { transport } = open();
    await expect(transport.send({ to: '+250788123456', text: 'ü✓', encoding: 'gsm7' })).rejects.toThrow('GSM-7');
    await expect(transport.send({ to: '0788123456', text: 'hi' })).rejects.toThrow('E.164');
  });
});

describe('SMSC simulator', () => {
  it('refuses a wrong password with ESME_RINVPASWD and takes a message_payload whole', async () => {
    const session = smpp.connect({ host: '127.0.0.1', port: smsc.port });
    session.on('error', () => {});
    const call = (command: 'bind_transceiver' | 'submit_sm', options: Record<string, unknown>) =>
      new Promise<{ command_status: number; message_id?: unknown }>((resolve) => session[command](options, resolve));

    const refused = await call('bind_transceiver', { system_id: credentials.systemId, password: 'nope' });
    expect(refused.command_status).toBe(smpp.errors.ESME_RINVPASWD);
    const bound = await call('bind_transceiver', { system_id: credentials.systemId, password: credentials.password });
    expect(bound.command_status).toBe(0);

    const text = 'p'.repeat(200);
    const resp = await call('submit_sm', {
      destination_addr: '250788123456',
      dest_addr_ton: 1,
      data_coding: 0,
      message_payload: { message: text },
    });
    expect(resp.command_status).toBe(0);
    expect(smsc.messages()).toMatchObject([
      { id: resp.message_id, text, parts: 2, via: 'payload', to: '+250788123456' },
    ]);
    await new Promise<void>((resolve) => session.destroy(resolve));
  });
});
