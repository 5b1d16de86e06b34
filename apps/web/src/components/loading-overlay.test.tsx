import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import en from '@kaminuza/shared/locales/en.json';
import { LoadingOverlay } from './loading-overlay.tsx';
import { AdminLoadingScreen } from './admin-loading-screen.tsx';

const i18n = i18next.createInstance();
await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, initAsync: false });
const wrap = (node: React.ReactNode) => render(<I18nextProvider i18n={i18n}>{node}</I18nextProvider>);

describe('loading screens', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('the overlay rotates its four messages every 3 seconds', () => {
    wrap(<LoadingOverlay />);
    const seen = [screen.getByRole('status').textContent];
    for (let i = 0; i < 4; i++) {
      act(() => vi.advanceTimersByTime(3000));
      seen.push(screen.getByRole('status').textContent);
    }
    expect(seen).toEqual(['Loading', 'Preparing your experience', 'Almost there', 'Just a moment', 'Loading']);
  });

  it('the admin screen advances a step every 1.8 seconds and shows three cards', () => {
    wrap(<AdminLoadingScreen />);
    const current = () => document.querySelector('[aria-current="step"]')?.textContent;
    expect(current()).toContain('Connecting to servers');
    act(() => vi.advanceTimersByTime(1800));
    expect(current()).toContain('Fetching university data');
    act(() => vi.advanceTimersByTime(3600));
    expect(current()).toContain('Preparing your dashboard');
    for (const card of ['Universities', 'Applications', 'Analytics']) screen.getByText(card);
  });
});
