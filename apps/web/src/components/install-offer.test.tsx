import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import en from '@kaminuza/shared/locales/en.json';
import { INSTALL_DISMISSED_KEY, INSTALL_QUIET_MS, captureInstallPrompt } from '../lib/install-prompt.ts';
import { InstallOffer } from './install-offer.tsx';

const i18n = i18next.createInstance();
await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, initAsync: false });

/** What Chromium fires when the app can be installed; `outcome` is the person's answer to its dialog. */
function offer(outcome: 'accepted' | 'dismissed' = 'accepted') {
  const event = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
    prompt: vi.fn(async () => {}),
    userChoice: Promise.resolve({ outcome }),
  });
  act(() => {
    window.dispatchEvent(event);
  });
  return event;
}

const renderOffer = () =>
  render(
    <I18nextProvider i18n={i18n}>
      <InstallOffer />
    </I18nextProvider>,
  );
const title = () => screen.queryByRole('heading', { name: 'Install Kaminuza on this device' });

describe('InstallOffer', () => {
  beforeAll(() => captureInstallPrompt(window));
  afterEach(() => {
    cleanup();
    localStorage.clear();
    act(() => {
      window.dispatchEvent(new Event('appinstalled'));
    });
  });

  it('shows nothing until the browser offers installation', () => {
    renderOffer();
    expect(title()).toBeNull();
    const event = offer();
    expect(event.defaultPrevented).toBe(true);
    expect(title()).not.toBeNull();
  });

  it("opens the browser's dialog on Install, once", async () => {
    renderOffer();
    const event = offer();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Install' })));
    expect(event.prompt).toHaveBeenCalledTimes(1);
    expect(title()).toBeNull();
  });

  it('stays away for a while after Not now, and comes back after it', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      renderOffer();
      offer();
      fireEvent.click(screen.getByRole('button', { name: 'Not now' }));
      expect(title()).toBeNull();
      expect(localStorage.getItem(INSTALL_DISMISSED_KEY)).toBe(String(Date.now()));

      offer();
      expect(title()).toBeNull();
      vi.setSystemTime(Date.now() + INSTALL_QUIET_MS + 1000);
      offer();
      expect(title()).not.toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('remembers a refusal in the browser dialog too', async () => {
    renderOffer();
    offer('dismissed');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Install' })));
    expect(localStorage.getItem(INSTALL_DISMISSED_KEY)).not.toBeNull();
  });
});
