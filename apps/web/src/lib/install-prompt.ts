import { useSyncExternalStore } from 'react';

/*
 * The browser's offer to install the app (beforeinstallprompt, Chromium browsers). It is kept when it
 * arrives and shown later, where installing makes sense: when an applicant has an application under way.
 */
interface InstallPromptEvent extends Event {
  prompt: () => Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

/** Local storage: when the offer was last dismissed (ms since epoch). A device preference, kept at sign-out. */
export const INSTALL_DISMISSED_KEY = 'kaminuza.install-dismissed';
/** After "Not now", the offer stays away this long. */
export const INSTALL_QUIET_MS = 30 * 24 * 60 * 60 * 1000;

let deferred: InstallPromptEvent | null = null;
const listeners = new Set<() => void>();
const notify = () => {
  for (const listener of listeners) listener();
};

/** Starts listening for the browser's offer; called once at start. */
export function captureInstallPrompt(target: Window = window): void {
  target.addEventListener('beforeinstallprompt', (event) => {
    // Without this the browser shows its own banner at a moment of its choosing.
    event.preventDefault();
    deferred = event as InstallPromptEvent;
    notify();
  });
  target.addEventListener('appinstalled', () => {
    deferred = null;
    notify();
  });
}

function dismissedRecently(now: number): boolean {
  try {
    const at = Number(localStorage.getItem(INSTALL_DISMISSED_KEY));
    return Number.isFinite(at) && at > 0 && now - at < INSTALL_QUIET_MS;
  } catch {
    return false;
  }
}

/** Shows the browser's install dialog; the offer is used up whatever the answer. */
export async function install(): Promise<void> {
  const event = deferred;
  if (!event) return;
  deferred = null;
  notify();
  await event.prompt();
  const { outcome } = await event.userChoice;
  if (outcome === 'dismissed') dismissInstall();
}

export function dismissInstall(now: number = Date.now()): void {
  try {
    localStorage.setItem(INSTALL_DISMISSED_KEY, String(now));
  } catch {
    // Storage unavailable: the offer comes back next time, which is harmless.
  }
  deferred = null;
  notify();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether the install offer can be shown now. */
export function useInstallAvailable(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => deferred !== null && !dismissedRecently(Date.now()),
    () => false,
  );
}
