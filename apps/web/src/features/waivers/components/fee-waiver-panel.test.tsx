import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import en from '@kaminuza/shared/locales/en.json';
import { WAIVER_MESSAGES, type FeeWaiver } from '@kaminuza/shared';
import { FeeWaiverPanel } from './fee-waiver-panel.tsx';

const i18n = i18next.createInstance();
await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, initAsync: false });

const APPLICATION = '00000000-0000-4000-8000-000000000001';
const DOCUMENT = '00000000-0000-4000-8000-000000000002';
const URL_BASE = `/api/v1/applications/${APPLICATION}/waiver`;
const documents = [{ id: DOCUMENT, type: 'transcript' as const, name: 'transcript.pdf' }];
const REASON = 'My family lost its income this year and cannot pay.';

function waiver(overrides: Partial<FeeWaiver>): FeeWaiver {
  return {
    id: '00000000-0000-4000-8000-000000000003',
    kind: 'request',
    status: 'requested',
    reason: REASON,
    document_id: null,
    decline_reason: null,
    decided_at: null,
    created_at: '2026-03-02T10:00:00.000Z',
    ...overrides,
  };
}

type Answer = { status: number; body: unknown };
const json = ({ status, body }: Answer) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** GET answers `current` (then whatever a POST changed it to); POSTs answer as given. */
function serve(current: Answer, posts: Record<string, Answer> = {}) {
  let state = current;
  const fetch = vi.fn(async (url: string, init?: RequestInit) => {
    if (init?.method === 'POST') {
      const answer = posts[url] ?? { status: 404, body: { error: { status: 'NOT_FOUND', message: 'Not found' } } };
      if (answer.status < 300) state = answer;
      return json(answer);
    }
    if (url === URL_BASE) return json(state);
    return json({ status: 404, body: { error: { status: 'NOT_FOUND', message: 'Not found' } } });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

function renderPanel(props: { paid?: boolean; onContinue?: () => void } = {}) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <FeeWaiverPanel applicationId={APPLICATION} documents={documents} {...props} />
      </QueryClientProvider>
    </I18nextProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('FeeWaiverPanel', () => {
  it('redeems a code and says the fee is waived', async () => {
    const fetch = serve(
      { status: 200, body: { data: null } },
      {
        [`${URL_BASE}/code`]: {
          status: 201,
          body: { data: waiver({ kind: 'code', status: 'approved', reason: null }) },
        },
      },
    );
    const onContinue = vi.fn();
    renderPanel({ onContinue });
    const code = await screen.findByLabelText('Waiver code');
    fireEvent.change(code, { target: { value: 'abcd efgh jklm' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply code' }));
    expect(await screen.findByText(/The application fee is waived with your code/)).toBeTruthy();
    const post = fetch.mock.calls.find(([, init]) => init?.method === 'POST')!;
    expect(JSON.parse(String(post[1]!.body))).toEqual({ code: 'abcd efgh jklm' });
    fireEvent.click(screen.getByRole('button', { name: 'Continue to review' }));
    expect(onContinue).toHaveBeenCalled();
  });

  it('checks the code’s shape before sending, and shows the api’s refusal under the field', async () => {
    const fetch = serve(
      { status: 200, body: { data: null } },
      {
        [`${URL_BASE}/code`]: {
          status: 400,
          body: {
            error: {
              status: 'INVALID_ARGUMENT',
              message: WAIVER_MESSAGES.code_used_up,
              details: [{ path: 'code', message: WAIVER_MESSAGES.code_used_up }],
            },
          },
        },
      },
    );
    renderPanel();
    const code = await screen.findByLabelText('Waiver code');
    fireEvent.change(code, { target: { value: 'nope' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply code' }));
    expect(await screen.findByText(en.waivers.errors.code_format)).toBeTruthy();
    expect(fetch.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);

    fireEvent.change(code, { target: { value: 'ABCD-EFGH-JKLM' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply code' }));
    expect(await screen.findByText(en.waivers.errors.code_used_up)).toBeTruthy();
    expect(code.getAttribute('aria-invalid')).toBe('true');
  });

  it('asks for a waiver with a reason and a document, then shows it waiting', async () => {
    const fetch = serve(
      { status: 200, body: { data: null } },
      { [`${URL_BASE}/request`]: { status: 201, body: { data: waiver({ document_id: DOCUMENT }) } } },
    );
    renderPanel();
    const toggle = await screen.findByRole('button', { name: 'Ask the institution to waive the fee' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const form = within(screen.getByRole('form', { name: 'Fee waiver request' }));
    fireEvent.change(form.getByLabelText('Your reason'), { target: { value: 'Too short' } });
    fireEvent.click(form.getByRole('button', { name: 'Send request' }));
    expect(await form.findByText(en.waivers.errors.reason_length)).toBeTruthy();

    fireEvent.change(form.getByLabelText('Your reason'), { target: { value: REASON } });
    fireEvent.change(form.getByLabelText('Supporting document'), { target: { value: DOCUMENT } });
    fireEvent.click(form.getByRole('button', { name: 'Send request' }));
    expect(await screen.findByText(/You asked for a fee waiver on Mar 2, 2026/)).toBeTruthy();
    const post = fetch.mock.calls.find(([, init]) => init?.method === 'POST')!;
    expect(JSON.parse(String(post[1]!.body))).toEqual({ reason: REASON, document_id: DOCUMENT });
  });

  it('shows a declined request with the institution’s reason, and lets the applicant ask again', async () => {
    serve({
      status: 200,
      body: { data: waiver({ status: 'declined', decline_reason: 'Please attach a letter from your school.' }) },
    });
    renderPanel();
    expect(await screen.findByText('Your fee waiver request was declined.')).toBeTruthy();
    screen.getByText('Please attach a letter from your school.');
    screen.getByRole('button', { name: 'Ask the institution to waive the fee' });
    screen.getByLabelText('Waiver code');
  });

  it('shows an approved request', async () => {
    serve({ status: 200, body: { data: waiver({ status: 'approved' }) } });
    renderPanel();
    expect(await screen.findByText(/The institution waived your application fee/)).toBeTruthy();
    expect(screen.queryByLabelText('Waiver code')).toBeNull();
  });

  it('says when the waiver cannot be loaded, with a retry', async () => {
    serve({ status: 500, body: { error: { status: 'INTERNAL', message: 'boom' } } });
    renderPanel();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Your fee waiver could not be loaded.');
    within(alert).getByRole('button', { name: 'Try again' });
  });

  it('says nothing once the fee is paid', () => {
    const fetch = serve({ status: 200, body: { data: null } });
    renderPanel({ paid: true });
    expect(screen.queryByRole('heading', { name: 'Fee waiver' })).toBeNull();
    expect(fetch).not.toHaveBeenCalled();
  });
});
