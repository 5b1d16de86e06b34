import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import en from '@kaminuza/shared/locales/en.json';

/** The page side of the worker, as workbox-window reports it: events the test fires, messages it records. */
const worker = vi.hoisted(() => ({
  listeners: new Map<string, Array<() => void>>(),
  skipWaiting: vi.fn(),
  fire(type: string) {
    for (const listener of this.listeners.get(type) ?? []) listener();
  },
}));
vi.mock('workbox-window', () => ({
  Workbox: class {
    addEventListener(type: string, listener: () => void) {
      worker.listeners.set(type, [...(worker.listeners.get(type) ?? []), listener]);
    }
    register() {
      return Promise.resolve(undefined);
    }
    update() {
      return Promise.resolve();
    }
    messageSkipWaiting() {
      worker.skipWaiting();
    }
  },
}));

const { registerServiceWorker } = await import('../lib/service-worker.ts');
const { UpdatePrompt } = await import('./update-prompt.tsx');

const i18n = i18next.createInstance();
await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, initAsync: false });

const reload = vi.fn();
Object.defineProperty(navigator, 'serviceWorker', { value: {}, configurable: true });
Object.defineProperty(window, 'location', { value: { ...window.location, reload }, configurable: true });
registerServiceWorker(true);

function renderPrompt() {
  return render(
    <I18nextProvider i18n={i18n}>
      <UpdatePrompt />
    </I18nextProvider>,
  );
}

describe('UpdatePrompt', () => {
  beforeEach(() => {
    worker.skipWaiting.mockClear();
    reload.mockClear();
  });
  afterEach(cleanup);

  it('says nothing until a new version is waiting, then offers Refresh and Later', () => {
    renderPrompt();
    expect(screen.queryByText('A new version of Kaminuza is ready.')).toBeNull();
    act(() => worker.fire('waiting'));
    expect(screen.getByText('A new version of Kaminuza is ready.').closest('[aria-live="polite"]')).not.toBeNull();
    screen.getByRole('button', { name: 'Refresh' });
    fireEvent.click(screen.getByRole('button', { name: 'Later' }));
    expect(screen.queryByText('A new version of Kaminuza is ready.')).toBeNull();
    expect(worker.skipWaiting).not.toHaveBeenCalled();
    expect(reload).not.toHaveBeenCalled();
  });

  it('activates the new version only on Refresh, and reloads once it has taken over', () => {
    renderPrompt();
    act(() => worker.fire('waiting'));
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(worker.skipWaiting).toHaveBeenCalledTimes(1);
    expect(reload).not.toHaveBeenCalled();
    act(() => worker.fire('controlling'));
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
