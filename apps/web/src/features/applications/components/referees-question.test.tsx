import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import en from '@kaminuza/shared/locales/en.json';
import { REFEREE_MESSAGES, type Question, type Referee } from '@kaminuza/shared';
import { RefereesQuestionAnswer } from './referees-question.tsx';

const i18n = i18next.createInstance();
await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, initAsync: false });

HTMLDialogElement.prototype.showModal ??= function showModal(this: HTMLDialogElement) {
  this.open = true;
};
HTMLDialogElement.prototype.close ??= function close(this: HTMLDialogElement) {
  this.open = false;
};

const APPLICATION = '4f7a2b9c-0000-4000-8000-000000000001';
const QUESTION: Extract<Question, { type: 'referees' }> = {
  id: 'references',
  order: 0,
  type: 'referees',
  label: { en: 'Referees' },
  help: {},
  required: true,
  count: 2,
  kinds: ['teacher', 'counsellor'],
  submit_before_letters: true,
  prompts: [],
};

const referee = (overrides: Partial<Referee>): Referee => ({
  id: '00000000-0000-4000-8000-0000000000a1',
  question_id: 'references',
  kind: 'teacher',
  name: 'Grace Uwase',
  title: 'Mathematics teacher',
  organization: 'Lycée de Kigali',
  email: 'grace@school.example',
  phone: null,
  waived: true,
  language: 'en',
  status: 'invited',
  expired: false,
  invited_at: '2026-03-01T09:00:00.000Z',
  opened_at: null,
  submitted_at: null,
  letter: null,
  ...overrides,
});

const json = (status: number, body: unknown) =>
  new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });

function serve(list: Referee[], onInvite: (body: unknown) => Response) {
  const fetch = vi.fn(async (url: string, init?: RequestInit) => {
    if (init?.method === 'POST') return onInvite(JSON.parse(String(init.body)));
    return json(200, { data: list });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

function show(onChange = vi.fn(), value: unknown = undefined) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <RefereesQuestionAnswer
          applicationId={APPLICATION}
          question={QUESTION}
          value={value}
          editable
          online
          onChange={onChange}
        />
      </QueryClientProvider>
    </I18nextProvider>,
  );
  return onChange;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('RefereesQuestionAnswer', () => {
  it('shows each referee where they stand, and the letter only when it was not waived', async () => {
    const waived = referee({ status: 'submitted', submitted_at: '2026-03-03T09:00:00.000Z' });
    const open = referee({
      id: '00000000-0000-4000-8000-0000000000b2',
      name: 'Jean Habimana',
      kind: 'counsellor',
      waived: false,
      status: 'submitted',
      submitted_at: '2026-03-04T09:00:00.000Z',
      letter: { text: 'A diligent student.', file_name: 'letter.pdf' },
    });
    serve([waived, open], () => json(500, {}));
    const onChange = show(vi.fn());
    await screen.findByText('Grace Uwase');
    expect(screen.getByText('2 of 2 referees invited')).toBeTruthy();
    const [first, second] = screen.getAllByRole('listitem');
    expect(within(first!).getByText('Letter received')).toBeTruthy();
    expect(within(first!).getByText('You waived the right to read this letter.')).toBeTruthy();
    expect(within(first!).queryByText('Read the letter')).toBeNull();
    expect(within(second!).getByText('A diligent student.')).toBeTruthy();
    expect(within(second!).getByRole('link', { name: 'Download the letter (letter.pdf)' }).getAttribute('href')).toBe(
      `/api/v1/applications/${APPLICATION}/referees/${open.id}/letter`,
    );
    // The question is full: no invitation, and the draft's answer follows the referees invited.
    expect(screen.queryByRole('button', { name: 'Invite a referee' })).toBeNull();
    await waitFor(() => expect(onChange).toHaveBeenCalledWith([waived.id, open.id]));
  });

  it('checks the invitation before sending it and shows the refusal of the api', async () => {
    const sent: unknown[] = [];
    serve([], (body) => {
      sent.push(body);
      return json(400, { error: { status: 'INVALID_ARGUMENT', message: REFEREE_MESSAGES.referee_is_you } });
    });
    show();
    fireEvent.click(await screen.findByRole('button', { name: 'Invite a referee' }));
    const dialog = screen.getByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send the invitation' }));
    expect(await within(dialog).findByText('Name is required')).toBeTruthy();
    expect(sent).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText('Full name'), { target: { value: 'Test Student' } });
    fireEvent.change(within(dialog).getByLabelText('Position'), { target: { value: 'Student' } });
    fireEvent.change(within(dialog).getByLabelText('School or organisation'), { target: { value: 'Home' } });
    fireEvent.change(within(dialog).getByLabelText('Email address'), { target: { value: 'me@example.com' } });
    fireEvent.click(within(dialog).getByLabelText('I waive my right to read this letter'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send the invitation' }));
    expect(await within(dialog).findByText('Invite someone other than yourself.')).toBeTruthy();
    expect(sent[0]).toMatchObject({ question_id: 'references', kind: 'teacher', waived: true, language: 'en' });
  });
});
