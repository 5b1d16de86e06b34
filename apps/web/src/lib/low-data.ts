import { useSyncExternalStore } from 'react';

/*
 * Low-data mode (ADR 042): on a metered or slow connection the screens leave out what costs bytes and
 * is not needed to apply — institutions' logos until tapped, charts (their figures stay as a table),
 * long pages of results, frequent background checks. It belongs to this device and its connection, not
 * to the account: the same person on a phone over 2G and on a laptop on a campus network wants both.
 */

export const LOW_DATA_CHOICES = ['auto', 'on', 'off'] as const;
/** `auto` follows the browser: on when it asks to save data or reports a 2G connection. */
export type LowDataChoice = (typeof LOW_DATA_CHOICES)[number];
/** Why low-data mode is on, or null when it is off. */
export type LowDataReason = 'chosen' | 'save_data' | 'slow_connection' | null;

export const LOW_DATA_STORAGE_KEY = 'kaminuza.low-data';

/** Background checks that are not waited for (the unread count, admin queues) run this much less often. */
export const LOW_DATA_POLL_FACTOR = 5;

/** The Network Information API: Chromium-based browsers only, so every field may be missing. */
interface NetworkInformation extends EventTarget {
  saveData?: boolean;
  effectiveType?: string;
}

const connection = (): NetworkInformation | undefined =>
  typeof navigator === 'undefined'
    ? undefined
    : (navigator as Navigator & { connection?: NetworkInformation }).connection;

const SLOW_TYPES = new Set(['slow-2g', '2g']);

/** The choice when the browser refuses storage (private browsing): kept until the page is reloaded. */
let memoryChoice: LowDataChoice = 'auto';

export function readLowDataChoice(): LowDataChoice {
  try {
    const stored = localStorage.getItem(LOW_DATA_STORAGE_KEY);
    return (LOW_DATA_CHOICES as readonly string[]).includes(stored ?? '') ? (stored as LowDataChoice) : 'auto';
  } catch {
    return memoryChoice;
  }
}

/** What the browser says about the connection, for the automatic choice. */
export function connectionReason(): Exclude<LowDataReason, 'chosen'> {
  const info = connection();
  if (info?.saveData) return 'save_data';
  if (info?.effectiveType && SLOW_TYPES.has(info.effectiveType)) return 'slow_connection';
  return null;
}

export function lowDataReason(): LowDataReason {
  const choice = readLowDataChoice();
  if (choice === 'on') return 'chosen';
  if (choice === 'off') return null;
  return connectionReason();
}

export const isLowData = (): boolean => lowDataReason() !== null;

const listeners = new Set<() => void>();

export function setLowDataChoice(choice: LowDataChoice): void {
  try {
    if (choice === 'auto') localStorage.removeItem(LOW_DATA_STORAGE_KEY);
    else localStorage.setItem(LOW_DATA_STORAGE_KEY, choice);
  } catch {
    memoryChoice = choice;
  }
  listeners.forEach((notify) => notify());
}

/** Follows the choice (also made in another tab) and the connection as the browser reports it changing. */
function subscribe(notify: () => void): () => void {
  listeners.add(notify);
  const onStorage = (event: StorageEvent) => {
    if (event.key === LOW_DATA_STORAGE_KEY || event.key === null) notify();
  };
  window.addEventListener('storage', onStorage);
  const info = connection();
  info?.addEventListener('change', notify);
  return () => {
    listeners.delete(notify);
    window.removeEventListener('storage', onStorage);
    info?.removeEventListener('change', notify);
  };
}

const snapshot = () => `${readLowDataChoice()}|${connectionReason() ?? ''}`;

export interface LowData {
  /** Whether the screens should use less data now. */
  active: boolean;
  reason: LowDataReason;
  choice: LowDataChoice;
  /** What the browser reports, whatever the choice: shown beside the automatic choice. */
  detected: Exclude<LowDataReason, 'chosen'>;
  setChoice: (choice: LowDataChoice) => void;
}

/**
 * Low-data mode for the screens. Off while the server renders a page and while it hydrates (the server
 * cannot know the device's choice), so the first paint matches and images appear only if they should.
 */
export function useLowData(): LowData {
  const state = useSyncExternalStore(subscribe, snapshot, () => 'auto|');
  const [choice, detected] = state.split('|') as [LowDataChoice, string];
  const connectionSays = (detected || null) as Exclude<LowDataReason, 'chosen'>;
  const reason: LowDataReason = choice === 'on' ? 'chosen' : choice === 'off' ? null : connectionSays;
  return { active: reason !== null, reason, choice, detected: connectionSays, setChoice: setLowDataChoice };
}

/**
 * A polling interval for a background check that nothing waits on: as given, or LOW_DATA_POLL_FACTOR
 * times longer in low-data mode. Read at each tick (a function `refetchInterval`), so switching the mode
 * takes effect without remounting.
 */
export const backgroundInterval = (ms: number) => (): number => (isLowData() ? ms * LOW_DATA_POLL_FACTOR : ms);
