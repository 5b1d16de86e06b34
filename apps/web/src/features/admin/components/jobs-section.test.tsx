import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import en from '@kaminuza/shared/locales/en.json';
import { JobsSection } from './jobs-section.tsx';

const i18n = i18next.createInstance();
await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, initAsync: false });

const JOB = '6f1c2a3e-1111-4222-8333-444455556666';
const overview = (failed: unknown[]) => ({
  data: {
    queues: [
      { queue: 'email.send', queued: 3, active: 1, failed: 0 },
      { queue: 'payments.sandbox-callback', queued: 0, active: 0, failed: failed.length },
    ],
    failed: { items: failed, total: failed.length, page: 1, page_size: 20 },
  },
});
const failedJob = {
  id: JOB,
  queue: 'payments.sandbox-callback',
  subject: 'KZ-PAY-7Q2M',
  error: 'sandbox payment callback for KZ-PAY-7Q2M not accepted',
  attempts: 11,
  created_at: '2026-11-26T09:00:00.000Z',
  failed_at: '2026-11-26T09:40:00.000Z',
};

/** The API as the browser sees it: by method and path, the status and envelope body to answer. */
function serve(routes: Record<string, { status: number; body: unknown }>) {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const key = `${init?.method ?? 'GET'} ${input}`;
      calls.push(key);
      const route = routes[key] ?? { status: 404, body: { error: { status: 'NOT_FOUND', message: 'Not found' } } };
      return new Response(JSON.stringify(route.body), {
        status: route.status,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  return calls;
}

function renderSection() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <JobsSection />
      </QueryClientProvider>
    </I18nextProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const LIST = 'GET /api/v1/admin/jobs?page=1&page_size=20';
const RETRY = `POST /api/v1/admin/jobs/payments.sandbox-callback/${JOB}/retry`;

describe('the background jobs section', () => {
  it('shows each queue by name with its counts, and says when nothing failed', async () => {
    serve({ [LIST]: { status: 200, body: overview([]) } });
    renderSection();
    const table = await screen.findByRole('region', { name: 'Queues' });
    const email = within(table).getByRole('row', { name: /Email delivery/ });
    expect(
      within(email)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['3', '1', '0']);
    expect(within(table).getByRole('row', { name: /Sandbox payment callbacks/ })).toBeTruthy();
    expect(screen.getByText('No failed jobs.')).toBeTruthy();
  });

  it('lists a failed job with its error and attempts, and retries it', async () => {
    const calls = serve({
      [LIST]: { status: 200, body: overview([failedJob]) },
      [RETRY]: { status: 200, body: { data: { retried: true } } },
    });
    renderSection();
    const item = (await screen.findByText('Sandbox payment callbacks', { selector: 'p' })).closest('li')!;
    expect(within(item).getByText('About KZ-PAY-7Q2M')).toBeTruthy();
    expect(within(item).getByText('Error: sandbox payment callback for KZ-PAY-7Q2M not accepted')).toBeTruthy();
    expect(item.textContent).toContain('11 attempts');
    const button = within(item).getByRole('button', { name: /^Retry the failed job: Sandbox payment callbacks, / });
    await act(async () => fireEvent.click(button));
    expect(await within(item).findByText('The job is back in its queue.')).toBeTruthy();
    expect(calls).toContain(RETRY);
    expect((button as HTMLButtonElement).disabled).toBe(true);
  });

  it('says so when the job is no longer failed', async () => {
    serve({ [LIST]: { status: 200, body: overview([failedJob]) } });
    renderSection();
    const button = await screen.findByRole('button', { name: /^Retry the failed job/ });
    await act(async () => fireEvent.click(button));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This job is no longer failed; the list has been refreshed.',
    );
  });

  it('offers to try again when the list cannot be loaded', async () => {
    serve({ [LIST]: { status: 503, body: { error: { status: 'UNAVAILABLE', message: 'Service unavailable' } } } });
    renderSection();
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});
