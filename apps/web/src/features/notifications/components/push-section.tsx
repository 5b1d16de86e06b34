import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PushSubscriptionInput } from '@kaminuza/shared';
import { ApiError } from '../../../lib/api-client.ts';
import { serviceWorkerRegistration } from '../../../lib/service-worker.ts';
import { deletePushSubscription, getPushKey, savePushSubscription } from '../api/notifications.ts';

type PushState = 'checking' | 'unsupported' | 'denied' | 'off' | 'on';

function supported(): boolean {
  return (
    typeof window !== 'undefined' &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window &&
    window.isSecureContext
  );
}

/** The VAPID public key (base64url) as PushManager.subscribe wants it. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration();
  return (await registration?.pushManager.getSubscription()) ?? null;
}

async function readState(): Promise<PushState> {
  if (!supported()) return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  return (await currentSubscription()) ? 'on' : 'off';
}

async function turnOn(): Promise<PushState> {
  const permission = await Notification.requestPermission();
  if (permission === 'denied') return 'denied';
  if (permission !== 'granted') return 'off';
  const registration = await serviceWorkerRegistration();
  const { public_key } = await getPushKey();
  const subscription = await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: keyBytes(public_key),
  });
  await savePushSubscription(subscription.toJSON() as PushSubscriptionInput);
  return 'on';
}

async function turnOff(): Promise<PushState> {
  const subscription = await currentSubscription();
  if (subscription) {
    try {
      await deletePushSubscription(subscription.endpoint);
    } catch (error) {
      // Already gone on the server (another account took this browser over, or it expired): fine.
      if (!(error instanceof ApiError && error.httpStatus === 404)) throw error;
    }
    await subscription.unsubscribe();
  }
  return 'off';
}

/**
 * "Push notifications on this device" in settings: whether this browser can get push, is blocked, off or
 * on, and the button that turns it on (asking permission, subscribing with the server's VAPID key) or
 * off. The in-app list works whatever this says.
 */
export function PushSection() {
  const { t } = useTranslation();
  const [state, setState] = useState<PushState>('checking');
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let live = true;
    readState()
      .then((next) => live && setState(next))
      .catch(() => live && setState('off'));
    return () => {
      live = false;
    };
  }, []);

  const change = useCallback(async (action: () => Promise<PushState>) => {
    setBusy(true);
    setFailed(false);
    try {
      setState(await action());
    } catch {
      setFailed(true);
      setState(await readState().catch(() => 'off' as const));
    } finally {
      setBusy(false);
    }
  }, []);

  const status: Record<Exclude<PushState, 'checking'>, string> = {
    unsupported: t('notifications.push.unsupported'),
    denied: t('notifications.push.denied'),
    off: t('notifications.push.off'),
    on: t('notifications.push.on'),
  };

  return (
    <section aria-labelledby="push-section-title" className="space-y-3 rounded-xl border border-border bg-surface p-4">
      <h2 id="push-section-title" className="text-xl font-semibold">
        {t('notifications.push.title')}
      </h2>
      <p className="text-muted">{t('notifications.push.intro')}</p>
      <p role="status" data-testid="push-state" data-state={state}>
        {state === 'checking' ? '' : status[state]}
      </p>
      {state === 'off' && (
        <button type="button" className="btn-primary" disabled={busy} onClick={() => void change(turnOn)}>
          {t('notifications.push.turn_on')}
        </button>
      )}
      {state === 'on' && (
        <button type="button" className="btn-secondary" disabled={busy} onClick={() => void change(turnOff)}>
          {t('notifications.push.turn_off')}
        </button>
      )}
      {failed && (
        <p role="alert" className="text-danger">
          {t('notifications.push.failed')}
        </p>
      )}
    </section>
  );
}
