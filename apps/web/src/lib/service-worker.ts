import { useSyncExternalStore } from 'react';
import { Workbox } from 'workbox-window';

/*
 * The app's one service worker registration (ADR 039): made at every start of the built app, used by the
 * update prompt and by push notifications. A new version is never forced on the page: it waits until the
 * person presses Refresh.
 */
const SERVICE_WORKER = '/sw.js';

let workbox: Workbox | null = null;
let registration: Promise<ServiceWorkerRegistration | undefined> | null = null;
let waiting = false;
const listeners = new Set<() => void>();

function setWaiting(value: boolean) {
  waiting = value;
  for (const listener of listeners) listener();
}

function supported(): boolean {
  return typeof navigator !== 'undefined' && 'serviceWorker' in navigator;
}

/** Registers the service worker (once). `enabled` is false in development, where no worker is built. */
export function registerServiceWorker(enabled: boolean = import.meta.env.PROD): void {
  if (registration || !enabled || !supported()) return;
  workbox = new Workbox(SERVICE_WORKER);
  workbox.addEventListener('waiting', () => setWaiting(true));
  // A browser that refuses workers (some private windows, a policy) runs the app without one.
  registration = workbox.register().catch(() => undefined);
  // A tab left open for days still learns of a new version when it is looked at again.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') void workbox?.update();
  });
}

/**
 * The registration, for push subscriptions: the app's own when it made one, else one made now (in
 * development only a worker served at /sw.js can be used).
 */
export async function serviceWorkerRegistration(): Promise<ServiceWorkerRegistration> {
  const made = await registration;
  if (made) return made;
  await navigator.serviceWorker.register(SERVICE_WORKER);
  return navigator.serviceWorker.ready;
}

/** Activates the waiting version, then reloads once it controls the page: only on the person's request. */
export function applyUpdate(): void {
  if (!workbox) return;
  workbox.addEventListener('controlling', () => window.location.reload());
  workbox.messageSkipWaiting();
}

/** Hides the prompt until the next version (or the next start) without activating anything. */
export function postponeUpdate(): void {
  setWaiting(false);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether a new version is installed and waiting for the person to refresh. */
export function useUpdateWaiting(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => waiting,
    () => false,
  );
}
