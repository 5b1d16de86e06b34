import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import en from '@kaminuza/shared/locales/en.json';
import { OfflineBanner } from './offline-banner.tsx';

const i18n = i18next.createInstance();
await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, initAsync: false });

function goOnline(online: boolean) {
  Object.defineProperty(navigator, 'onLine', { value: online, configurable: true });
  window.dispatchEvent(new Event(online ? 'online' : 'offline'));
}

describe('OfflineBanner', () => {
  afterEach(() => {
    cleanup();
    goOnline(true);
  });

  it('appears while the browser is offline and goes when the connection returns', () => {
    render(
      <I18nextProvider i18n={i18n}>
        <OfflineBanner />
      </I18nextProvider>,
    );
    expect(screen.queryByText(/^You are offline\./)).toBeNull();
    act(() => goOnline(false));
    // Said in the live region that is always there, so screen readers announce it.
    expect(screen.getByText(/^You are offline\./).closest('[aria-live="polite"]')).not.toBeNull();
    act(() => goOnline(true));
    expect(screen.queryByText(/^You are offline\./)).toBeNull();
  });
});
