import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import en from '@kaminuza/shared/locales/en.json';
import { ErrorScreen } from './error-screen.tsx';

const i18n = i18next.createInstance();
await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, initAsync: false });

describe('ErrorScreen', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    Object.assign(navigator, { clipboard: { writeText: vi.fn(async () => {}) } });
  });
  afterEach(() => vi.useRealTimers());

  it('shows the spec texts and copies the error, showing Copied! for 2 seconds', async () => {
    render(
      <I18nextProvider i18n={i18n}>
        <ErrorScreen error={new Error('boom')} />
      </I18nextProvider>,
    );
    screen.getByRole('heading', { name: 'Something went wrong' });
    screen.getByText('We encountered an unexpected error. Please try reloading the page.');
    screen.getByRole('button', { name: 'Reload page' });

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Copy error' })));
    expect(navigator.clipboard.writeText).toHaveBeenCalledWith(expect.stringContaining('boom'));
    screen.getByRole('button', { name: 'Copied!' });

    act(() => vi.advanceTimersByTime(1999));
    screen.getByRole('button', { name: 'Copied!' });
    act(() => vi.advanceTimersByTime(1));
    screen.getByRole('button', { name: 'Copy error' });
  });
});
