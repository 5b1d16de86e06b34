import { useEffect, useSyncExternalStore } from 'react';
import { queryOptions, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { RealtimeEventSchema, UnreadCountsSchema } from '@kaminuza/shared';
import { api } from './api-client.ts';
import { sessionQuery } from './session.tsx';

/** Everything about conversations lives under this key; a notice refetches what is on screen. */
export const MESSAGING_KEY = ['messaging'] as const;

/** Unread counts for the navigation badges (GET /messaging/unread), kept fresh by the socket. */
export const unreadQuery = () =>
  queryOptions({
    queryKey: [...MESSAGING_KEY, 'unread'],
    queryFn: ({ signal }) => api('/messaging/unread', UnreadCountsSchema, { signal }),
    staleTime: 60_000,
  });

export type RealtimeStatus = 'connecting' | 'connected' | 'disconnected';

export interface RealtimeState {
  status: RealtimeStatus;
  /** When the socket was last lost (or the first attempt began); null while connected. */
  downSince: number | null;
}

/** Reconnect delays: about 1 s, 2 s, 4 s … at most 30 s, each drawn at random from its upper half. */
const RETRY_BASE_MS = 1_000;
const RETRY_MAX_MS = 30_000;
/** The server's close code for a socket whose session ended. */
const SESSION_ENDED_CODE = 4401;

export function retryDelayMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(RETRY_BASE_MS * 2 ** attempt, RETRY_MAX_MS);
  // Jitter spreads the reconnects of many tabs after a server restart instead of a stampede.
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/* A tiny store: the socket is one per page, and any component may read its state. */
let state: RealtimeState = { status: 'connecting', downSince: Date.now() };
const listeners = new Set<() => void>();

function setState(next: RealtimeState): void {
  state = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The socket's state, from any component. */
export function useRealtimeState(): RealtimeState {
  return useSyncExternalStore(
    subscribe,
    () => state,
    () => state,
  );
}

function socketUrl(): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}/api/v1/realtime`;
}

/**
 * Opens the realtime socket and keeps it open: reconnects with exponential backoff and jitter, and at
 * once when the browser comes back online or the tab is shown again. Every notice refetches the
 * conversations on screen (it says what changed, not what was written), and so does every reconnect,
 * which picks up whatever was missed while the socket was down.
 */
export function connectRealtime(queryClient: QueryClient): () => void {
  let socket: WebSocket | null = null;
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;
  let everReady = false;

  const refetch = () => void queryClient.invalidateQueries({ queryKey: MESSAGING_KEY });

  function open(): void {
    if (stopped || socket) return;
    if (timer) clearTimeout(timer);
    timer = null;
    if (state.status !== 'disconnected') setState({ status: 'connecting', downSince: state.downSince ?? Date.now() });
    const current = new WebSocket(socketUrl());
    socket = current;
    current.addEventListener('message', (message) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(String(message.data));
      } catch {
        return;
      }
      const event = RealtimeEventSchema.safeParse(parsed);
      if (!event.success) return;
      if (event.data.type === 'ready') {
        attempt = 0;
        setState({ status: 'connected', downSince: null });
        if (everReady) refetch();
        everReady = true;
        return;
      }
      // A payment settled: the /pay page and the application's payment step read it again.
      if (event.data.type === 'payment.updated') {
        void queryClient.invalidateQueries({ queryKey: ['payments', 'checkout', event.data.reference] });
        void queryClient.invalidateQueries({ queryKey: ['applications', 'draft', event.data.application_id] });
        return;
      }
      refetch();
    });
    current.addEventListener('close', (closed) => {
      if (socket !== current) return;
      socket = null;
      setState({ status: 'disconnected', downSince: state.downSince ?? Date.now() });
      // The session ended: reading it again lets the guards send the person to sign in.
      if (closed.code === SESSION_ENDED_CODE) void queryClient.invalidateQueries({ queryKey: sessionQuery().queryKey });
      schedule();
    });
  }

  function schedule(): void {
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = null;
      open();
    }, retryDelayMs(attempt));
    attempt += 1;
  }

  function retryNow(): void {
    if (stopped || socket) return;
    attempt = 0;
    open();
  }
  const onVisible = () => {
    if (document.visibilityState === 'visible') retryNow();
  };

  addEventListener('online', retryNow);
  document.addEventListener('visibilitychange', onVisible);
  open();

  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    removeEventListener('online', retryNow);
    document.removeEventListener('visibilitychange', onVisible);
    const current = socket;
    socket = null;
    current?.close(1000, 'left the signed-in area');
    setState({ status: 'connecting', downSince: Date.now() });
  };
}

/** Mounted once, by the signed-in shell: keeps the socket open while the person is in their area. */
export function useRealtime(): RealtimeState {
  const queryClient = useQueryClient();
  useEffect(() => connectRealtime(queryClient), [queryClient]);
  return useRealtimeState();
}
