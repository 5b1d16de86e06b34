import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import en from '@kaminuza/shared/locales/en.json';
import type { StudentHome } from '@kaminuza/shared';
import { HomeDashboard } from './home-dashboard.tsx';

const i18n = i18next.createInstance();
await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, initAsync: false });

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const names = {
  application_id: id(1),
  partner_id: id(2),
  partner_name: 'Lake Kivu Institute',
  program_name: 'BSc Nursing',
};

function serve(replies: Array<{ status: number; body: unknown }>) {
  const fetch = vi.fn(async () => {
    const reply = replies.length > 1 ? replies.shift()! : replies[0]!;
    return new Response(JSON.stringify(reply.body), {
      status: reply.status,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

function renderDashboard() {
  const router = createMemoryRouter([{ path: '/home', element: <HomeDashboard /> }], { initialEntries: ['/home'] });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </I18nextProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const home = (overrides: Partial<StudentHome>): StudentHome => ({
  first_name: 'Aline',
  preferred_name: null,
  timezone: 'Africa/Kigali',
  language: 'en',
  completion: { percent: 60, missing: [] },
  next_steps: [],
  ...overrides,
});

describe('HomeDashboard', () => {
  it('lists the next steps in order, the closing date in the student’s time zone, and what is missing', async () => {
    serve([
      {
        status: 200,
        body: {
          data: home({
            completion: {
              percent: 60,
              missing: [
                { kind: 'field', field: 'graduation_year', place: 'education' },
                { kind: 'document', type: 'passport', place: 'documents' },
              ],
            },
            next_steps: [
              { kind: 'documents', types: ['passport'] },
              { kind: 'draft', ...names, progress_percentage: 40 },
              { kind: 'pay', ...names, amount: 50, currency: 'USD' },
              // The end of 30 June in Kigali (UTC+2) is 22:00 UTC.
              { kind: 'deadline', ...names, closes_at: '2026-06-30T22:00:00.000Z' },
            ],
          }),
        },
      },
    ]);
    renderDashboard();
    const steps = within(await screen.findByRole('region', { name: 'Next steps' }));
    const items = steps.getAllByRole('listitem').map((item) => item.textContent);
    expect(items[0]).toContain('Upload your documents: Passport');
    expect(items[1]).toContain('Continue your application to Lake Kivu Institute (BSc Nursing): 40% complete');
    expect(items[2]).toContain('Pay the $50.00 application fee for Lake Kivu Institute');
    expect(items[3]).toContain('Lake Kivu Institute stops taking applications on July 1, 2026 at 12:00 AM');
    steps.getByText('Dates and times are shown in your time zone (Central Africa Time).');
    expect(steps.getByRole('link', { name: /^Pay the fee/ }).getAttribute('href')).toBe(
      `/application/form?partner=${id(2)}`,
    );

    const profile = within(screen.getByRole('region', { name: 'Your profile' }));
    profile.getByText('Your profile is 60% complete');
    expect(profile.getByRole('link', { name: 'Add in Education: Graduation year' }).getAttribute('href')).toBe(
      '/profile?tab=education',
    );
    expect(profile.getByRole('link', { name: 'Upload in Documents: Document: Passport' }).getAttribute('href')).toBe(
      '/profile?tab=documents',
    );
    screen.getByRole('navigation', { name: 'Shortcuts' });
  });

  it('welcomes a brand-new student with what to do first', async () => {
    serve([
      {
        status: 200,
        body: {
          data: home({ completion: { percent: 25, missing: [] }, next_steps: [{ kind: 'onboarding', step: 0 }] }),
        },
      },
    ]);
    renderDashboard();
    expect(await screen.findByText('Welcome to Kaminuza')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Set up my profile' }).getAttribute('href')).toBe('/onboarding/student');
  });

  it('offers to try again when the home cannot be loaded', async () => {
    const fetch = serve([
      { status: 500, body: { error: { status: 'INTERNAL', message: 'Internal' } } },
      { status: 200, body: { data: home({}) } },
    ]);
    renderDashboard();
    expect(await screen.findByText('Your home could not be loaded.')).toBeTruthy();
    screen.getByRole('button', { name: 'Try again' }).click();
    expect(
      await screen.findByText('You are all caught up. Explore universities to find your next application.'),
    ).toBeTruthy();
    expect(fetch).toHaveBeenCalledTimes(2);
  });
});
