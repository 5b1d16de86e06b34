import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { REFEREE_MESSAGES as R, REFERENCE_LETTER_MAX_BYTES, type ReferenceRequest } from '@kaminuza/shared';
import { renderPage } from '../../../components/verification-page.testing.tsx';
import { ReferencePage } from './reference-page.tsx';

const TOKEN = 'r1.c2lnbmVkLXRva2Vu.abc';
const PATH = `/api/v1/references/${encodeURIComponent(TOKEN)}`;

const request = (overrides: Partial<ReferenceRequest> = {}): ReferenceRequest => ({
  referee_name: 'Grace Uwase',
  kind: 'teacher',
  applicant_name: 'Aline Mukamana',
  institution_name: 'Lake Kivu Institute',
  program_name: 'BSc Computer Science',
  waived: true,
  language: 'en',
  prompts: [
    { en: 'How long have you known the applicant?', fr: 'Depuis combien de temps connaissez-vous le candidat ?' },
  ],
  expires_at: '2026-12-28T12:00:00.000Z',
  letter_file_name: null,
  ...overrides,
});

type Reply = { status: number; body?: unknown };
type Route = (init: RequestInit | undefined) => Reply | Promise<Reply>;

const refusal = (status: number, code: string, message: string, reason?: string): Reply => ({
  status,
  body: { error: { status: code, message, ...(reason ? { reason } : {}) } },
});

/** The api by method and path; anything else is not found. */
function serve(routes: Record<string, Route>) {
  const fetch = vi.fn(async (input: string, init?: RequestInit) => {
    const route = routes[`${init?.method ?? 'GET'} ${input}`];
    const reply = route ? await route(init) : refusal(404, 'NOT_FOUND', 'Not found');
    return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
      status: reply.status,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

const open = (lng: 'en' | 'fr' = 'en') =>
  renderPage('/reference/:token', <ReferencePage />, `/reference/${encodeURIComponent(TOKEN)}`, lng);

const pdf = (name: string, size = 64) => new File([new Uint8Array(size)], name, { type: 'application/pdf' });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  sessionStorage.clear();
});

describe('ReferencePage', () => {
  it('loads the request, refuses sending without a letter, sends the answers and letter, then thanks', async () => {
    let sent: unknown;
    const fetch = serve({
      [`GET ${PATH}`]: () => ({ status: 200, body: { data: request() } }),
      [`POST ${PATH}`]: (init) => {
        sent = JSON.parse(String(init?.body));
        return { status: 204 };
      },
    });
    await open();
    expect(screen.getByRole('status').textContent).toBe('Loading');

    expect(await screen.findByRole('heading', { level: 1, name: 'Reference for Aline Mukamana' })).toBeTruthy();
    screen.getByText('BSc Computer Science at Lake Kivu Institute');
    screen.getByText('Hello Grace Uwase,');
    expect(screen.getByTestId('waiver').textContent).toBe('The applicant has waived the right to read your letter.');
    expect(screen.getByText(/^This link works until/).textContent).toContain('December 28, 2026');

    const answer = screen.getByRole('textbox', { name: 'How long have you known the applicant?' });
    expect(answer.getAttribute('maxlength')).toBe('2000');
    const letter = screen.getByRole('textbox', { name: 'Letter' });
    expect(letter.getAttribute('maxlength')).toBe('20000');

    // Nothing answered, no letter: both are asked for, and the first takes focus.
    fireEvent.click(screen.getByRole('button', { name: 'Send the reference' }));
    screen.getByText('Answer this question.');
    screen.getByText('Write your letter or upload it as a PDF.');
    expect(document.activeElement).toBe(answer);
    expect(fetch.mock.calls.filter(([, init]) => init?.method === 'POST')).toHaveLength(0);

    fireEvent.change(answer, { target: { value: '  Three years, as her teacher.  ' } });
    fireEvent.change(letter, { target: { value: 'Aline is curious.\n\nShe works hard.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send the reference' }));

    expect(await screen.findByRole('heading', { level: 1, name: /Thank you/ })).toBeTruthy();
    screen.getByText('Your reference for Aline Mukamana has been sent to Lake Kivu Institute.');
    expect(sent).toEqual({
      answers: ['Three years, as her teacher.'],
      letter_text: 'Aline is curious.\n\nShe works hard.',
    });
    // The link is used up: it is not asked for again.
    expect(fetch.mock.calls.filter(([, init]) => (init?.method ?? 'GET') === 'GET')).toHaveLength(1);
  });

  it('opens in the language the applicant chose for the referee, and says when they may read the letter', async () => {
    serve({ [`GET ${PATH}`]: () => ({ status: 200, body: { data: request({ language: 'fr', waived: false }) } }) });
    await open('en');
    expect(await screen.findByRole('heading', { level: 1, name: 'Référence pour Aline Mukamana' })).toBeTruthy();
    expect(screen.getByTestId('waiver').textContent).toBe('Le candidat pourra lire votre lettre.');
    screen.getByRole('textbox', { name: 'Depuis combien de temps connaissez-vous le candidat ?' });
    expect(screen.getByText(/^Ce lien fonctionne jusqu’au/).textContent).toContain('28 décembre 2026');
  });

  it('says so while offline, and loads the request once the connection returns', async () => {
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    let answer: (reply: Reply) => void = () => undefined;
    serve({ [`GET ${PATH}`]: () => new Promise<Reply>((resolve) => (answer = resolve)) });
    await open();
    expect(await screen.findByRole('heading', { level: 1, name: 'You are offline' })).toBeTruthy();
    onLine.mockReturnValue(true);
    window.dispatchEvent(new Event('online'));
    answer({ status: 200, body: { data: request() } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Reference for Aline Mukamana' })).toBeTruthy();
  });

  it.each([
    [
      refusal(410, 'NOT_FOUND', R.link_used, 'reference_link_used'),
      'This reference has already been sent',
      R.link_used,
    ],
    [refusal(410, 'NOT_FOUND', R.link_expired, 'reference_link_expired'), 'This link has expired', R.link_expired],
    [refusal(404, 'NOT_FOUND', R.link_invalid), 'This link does not work', R.link_invalid],
    [
      refusal(429, 'RESOURCE_EXHAUSTED', 'Too many requests'),
      'Too many attempts',
      'Too many requests came from your connection. Wait a few minutes, then try again.',
    ],
  ])('answers a refused link with a page of its own (%#)', async (reply, title, text) => {
    serve({ [`GET ${PATH}`]: () => reply });
    await open();
    const heading = await screen.findByRole('heading', { level: 1, name: title });
    screen.getByText(text);
    expect(document.activeElement).toBe(heading);
    expect(screen.queryByRole('button', { name: 'Send the reference' })).toBeNull();
  });

  it('refuses a file that is not a PDF or too large before sending it, then uploads a PDF and sends without typing', async () => {
    let sent: unknown;
    const fetch = serve({
      [`GET ${PATH}`]: () => ({ status: 200, body: { data: request({ prompts: [] }) } }),
      [`PUT ${PATH}/letter`]: () => ({ status: 200, body: { data: { file_name: 'Lettre de Grace.pdf' } } }),
      [`POST ${PATH}`]: (init) => {
        sent = JSON.parse(String(init?.body));
        return { status: 204 };
      },
    });
    await open();
    const input = await screen.findByLabelText('Upload the letter as a PDF');
    expect(input.getAttribute('accept')).toBe('application/pdf');
    const uploads = () => fetch.mock.calls.filter(([, init]) => init?.method === 'PUT');

    fireEvent.change(input, {
      target: { files: [new File(['hello'], 'letter.docx', { type: 'application/msword' })] },
    });
    expect(screen.getByRole('alert').textContent).toBe('Upload the letter as a PDF file.');
    fireEvent.change(input, { target: { files: [pdf('big.pdf', REFERENCE_LETTER_MAX_BYTES + 1)] } });
    expect(screen.getByRole('alert').textContent).toBe('The letter is larger than 5 MB.');
    expect(uploads()).toHaveLength(0);

    const file = pdf('Lettre de Grace.pdf');
    fireEvent.change(input, { target: { files: [file] } });
    expect(await screen.findByText('PDF letter uploaded: Lettre de Grace.pdf')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    const [, init] = uploads()[0]!;
    expect(init?.body).toBe(file);
    expect(init?.headers).toMatchObject({
      'content-type': 'application/pdf',
      'x-file-name': 'Lettre%20de%20Grace.pdf',
    });
    // Another file replaces it.
    screen.getByLabelText('Replace the PDF with another file');

    fireEvent.click(screen.getByRole('button', { name: 'Send the reference' }));
    expect(await screen.findByRole('heading', { level: 1, name: /Thank you/ })).toBeTruthy();
    expect(sent).toEqual({ answers: [] });
  });

  it("shows the api's refusal of an upload in the reader's language, and a link that expired while writing", async () => {
    serve({
      [`GET ${PATH}`]: () => ({ status: 200, body: { data: request({ prompts: [] }) } }),
      [`PUT ${PATH}/letter`]: () => refusal(400, 'INVALID_ARGUMENT', R.letter_not_pdf),
      [`POST ${PATH}`]: () => refusal(410, 'NOT_FOUND', R.link_expired, 'reference_link_expired'),
    });
    await open();
    fireEvent.change(await screen.findByLabelText('Upload the letter as a PDF'), {
      target: { files: [pdf('scan.pdf')] },
    });
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Upload the letter as a PDF file.'));

    const letter = screen.getByRole('textbox', { name: 'Letter' });
    fireEvent.change(letter, { target: { value: 'A letter worth keeping.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send the reference' }));
    const form = letter.closest('form')!;
    await within(form).findByText(R.link_expired);
    // What was written stays on the page, to be copied.
    expect((letter as HTMLTextAreaElement).value).toBe('A letter worth keeping.');
  });
});
