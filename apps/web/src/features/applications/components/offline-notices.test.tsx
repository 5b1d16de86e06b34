import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import en from '@kaminuza/shared/locales/en.json';
import type { ReactNode } from 'react';
import { SaveIndicator } from './save-indicator.tsx';
import { ReviewStep } from './review-step.tsx';

const i18n = i18next.createInstance();
await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, initAsync: false });
const wrap = (node: ReactNode) => render(<I18nextProvider i18n={i18n}>{node}</I18nextProvider>);

afterEach(cleanup);

describe('offline', () => {
  it('says the answers are saved on this device, not an error, when the device kept them', () => {
    wrap(<SaveIndicator status="offline" savedAt={null} keptOnDevice />);
    expect(screen.getByRole('status').textContent).toBe('Saved on this device');
  });

  it('does not claim the device kept what it could not', () => {
    wrap(<SaveIndicator status="offline" savedAt={null} keptOnDevice={false} />);
    expect(screen.getByRole('status').textContent).toBe('Offline — not saved yet');
  });

  it('holds Submit while offline and says why; online it is offered', () => {
    const onSubmit = vi.fn();
    const props = {
      sections: [],
      answers: {},
      language: 'en' as const,
      documents: [],
      issues: {},
      blockers: [],
      submitting: false,
      error: null,
      onEdit: vi.fn(),
      onSubmit,
    };
    const { rerender } = wrap(<ReviewStep {...props} online={false} />);
    const button = screen.getByRole('button', { name: 'Submit application' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(document.getElementById(button.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      en.applications.review.offline,
    );
    rerender(
      <I18nextProvider i18n={i18n}>
        <ReviewStep {...props} online />
      </I18nextProvider>,
    );
    expect((screen.getByRole('button', { name: 'Submit application' }) as HTMLButtonElement).disabled).toBe(false);
    expect(screen.queryByText(en.applications.review.offline)).toBeNull();
  });
});
