import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { connectRealtime, retryDelayMs } from './realtime.ts';

/** Stands in for the browser's WebSocket: the test opens, feeds and drops it. */
class FakeSocket extends EventTarget {
  static all: FakeSocket[] = [];
  readonly url: string;
  closed = false;

  constructor(url: string) {
    super();
    this.url = url;
    FakeSocket.all.push(this);
  }

  receive(data: unknown): void {
    this.dispatchEvent(new MessageEvent('message', { data: JSON.stringify(data) }));
  }

  drop(code = 1006): void {
    this.dispatchEvent(new CloseEvent('close', { code }));
  }

  close(): void {
    this.closed = true;
  }
}

const TICKET = '00000000-0000-4000-8000-000000000001';

describe('retryDelayMs', () => {
  it('doubles from about a second up to thirty, each drawn from the upper half', () => {
    expect(retryDelayMs(0, () => 0)).toBe(500);
    expect(retryDelayMs(0, () => 1)).toBe(1_000);
    expect(retryDelayMs(3, () => 1)).toBe(8_000);
    expect(retryDelayMs(20, () => 0)).toBe(15_000);
    expect(retryDelayMs(20, () => 1)).toBe(30_000);
  });
});

describe('connectRealtime', () => {
  beforeEach(() => {
    FakeSocket.all = [];
    vi.useFakeTimers();
    vi.stubGlobal('WebSocket', FakeSocket);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('refetches the conversations on every notice and after a reconnect, not on the first connect', async () => {
    const client = new QueryClient();
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    const stop = connectRealtime(client);
    const first = FakeSocket.all[0]!;
    expect(first.url).toBe(`ws://${location.host}/api/v1/realtime`);

    first.receive({ type: 'ready' });
    expect(invalidate).not.toHaveBeenCalled();
    first.receive({ type: 'support.message', ticket_id: TICKET });
    expect(invalidate).toHaveBeenLastCalledWith({ queryKey: ['messaging'] });
    // Anything else on the socket is ignored.
    first.receive({ type: 'unknown' });
    expect(invalidate).toHaveBeenCalledTimes(1);

    first.drop();
    await vi.advanceTimersByTimeAsync(1_000);
    const second = FakeSocket.all[1]!;
    second.receive({ type: 'ready' });
    expect(invalidate).toHaveBeenCalledTimes(2);

    stop();
    expect(second.closed).toBe(true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(FakeSocket.all).toHaveLength(2);
  });

  it('backs off while the server cannot be reached, and retries at once when the browser is back online', async () => {
    const stop = connectRealtime(new QueryClient());
    FakeSocket.all[0]!.drop();
    await vi.advanceTimersByTimeAsync(1_000);
    FakeSocket.all[1]!.drop();
    // The second retry waits between one and two seconds.
    await vi.advanceTimersByTimeAsync(900);
    expect(FakeSocket.all).toHaveLength(2);
    dispatchEvent(new Event('online'));
    expect(FakeSocket.all).toHaveLength(3);
    stop();
  });

  it('reads the session again when the server says it ended', () => {
    const client = new QueryClient();
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    const stop = connectRealtime(client);
    FakeSocket.all[0]!.drop(4401);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['auth', 'session'] });
    stop();
  });
});
