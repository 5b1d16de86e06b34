import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import en from '@kaminuza/shared/locales/en.json';
import type { AdminAnalytics } from '@kaminuza/shared';
import { setLowDataChoice } from '../../../lib/low-data.ts';
import { OverviewCharts } from './overview-section.tsx';

const i18n = i18next.createInstance();
await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, initAsync: false });

const analytics: AdminAnalytics = {
  institutions_by_status: { pending: 2, approved: 100, rejected: 1, suspended: 0 },
  students: 12,
  applications_by_status: { submitted: 5, under_review: 4, accepted: 2, rejected: 1, waitlisted: 1 },
  submissions_per_day: [
    { date: '2026-11-25', count: 3 },
    { date: '2026-11-26', count: 0 },
  ],
};

const charts = () =>
  render(
    <I18nextProvider i18n={i18n}>
      <OverviewCharts analytics={analytics} />
    </I18nextProvider>,
  );

beforeAll(() => {
  // jsdom measures nothing; the charts' container only needs to be able to observe.
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
});
afterEach(() => {
  cleanup();
  localStorage.clear();
});

describe('admin overview charts', () => {
  it('draws every chart, its figures in a table for screen readers only', () => {
    const { container } = charts();
    expect(container.querySelectorAll('.recharts-responsive-container')).toHaveLength(3);
    expect([...container.querySelectorAll('table')].every((table) => table.classList.contains('sr-only'))).toBe(true);
    expect(screen.queryByRole('button', { name: /Show chart/ })).toBeNull();
  });

  it('in low-data mode shows the figures as tables and draws a chart only when asked', () => {
    setLowDataChoice('on');
    const { container } = charts();
    expect(container.querySelector('.recharts-responsive-container')).toBeNull();
    expect([...container.querySelectorAll('table')].some((table) => table.classList.contains('sr-only'))).toBe(false);
    const institutions = screen.getByRole('table', { name: 'Institutions by status' });
    expect(institutions.textContent).toContain('Approved100');

    act(() => fireEvent.click(screen.getByRole('button', { name: 'Show chart: Institutions by status' })));
    expect(container.querySelectorAll('.recharts-responsive-container')).toHaveLength(1);
    expect(screen.getAllByRole('button', { name: /Show chart/ })).toHaveLength(2);
  });
});
