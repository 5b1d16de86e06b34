import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import en from '@kaminuza/shared/locales/en.json';
import { weightedScore, type ReviewApplication } from '@kaminuza/shared';
import { ME, OTHER_REVIEWER, PARTNER, SUBMISSION, reviewApplication } from './review-fixtures.ts';
import { parseScore, previewTotal, ScoresPanel } from './score-panel.tsx';

const i18n = i18next.createInstance();
await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, initAsync: false });

const rubric = reviewApplication().rubric;

/** Answers the score with what the api would: the caller's score and the new average. */
function serveScore() {
  const fetch = vi.fn(async (_url: string, init?: RequestInit) => {
    const sent = JSON.parse(String(init?.body)) as { criteria: Record<string, number>; comment?: string };
    const total = weightedScore(rubric, sent.criteria);
    const score = {
      reviewer: { id: ME, name: 'Diane Uwase' },
      criteria: sent.criteria,
      total,
      comment: sent.comment ?? null,
      updated_at: '2026-03-03T10:00:00.000Z',
    };
    return new Response(JSON.stringify({ data: { score, score_average: total, score_count: 1, decision: null } }), {
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

function renderPanel(application: ReviewApplication = reviewApplication()) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <ScoresPanel partnerId={PARTNER} application={application} me={ME} />
      </QueryClientProvider>
    </I18nextProvider>,
  );
}

const academics = () => screen.getByLabelText('Academic record — weight 2 (67 %)');
const motivation = () => screen.getByLabelText('Motivation — weight 1 (33 %)');

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('scores', () => {
  it('takes whole numbers from 0 to 100 only', () => {
    expect(['0', '7', '100', ' 42 '].map(parseScore)).toEqual([0, 7, 100, 42]);
    expect(['', '101', '-1', '4.5', '1e2', 'abc'].map(parseScore)).toEqual([null, null, null, null, null, null]);
  });

  it('previews the weighted total only once every criterion has a valid score', () => {
    expect(previewTotal(rubric, { academics: '90' })).toBeNull();
    expect(previewTotal(rubric, { academics: '90', motivation: '150' })).toBeNull();
    expect(previewTotal(rubric, { academics: '90', motivation: '60' })).toBe(80);
    expect(previewTotal(rubric, { academics: '85', motivation: '70' })).toBe(
      weightedScore(rubric, { academics: 85, motivation: 70 }),
    );
  });

  it('shows the weighted total as the reviewer types', () => {
    serveScore();
    renderPanel();
    screen.getByText('Score every criterion to see your total.');
    fireEvent.change(academics(), { target: { value: '85' } });
    fireEvent.change(motivation(), { target: { value: '70' } });
    screen.getByText('Your weighted total: 80 / 100');
  });

  it('refuses a score out of range before sending anything', async () => {
    const fetch = serveScore();
    renderPanel();
    fireEvent.change(academics(), { target: { value: '120' } });
    fireEvent.change(motivation(), { target: { value: '50' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save score' })));
    screen.getByText('Enter a score from 0 to 100.');
    expect(academics().getAttribute('aria-invalid')).toBe('true');
    expect(motivation().getAttribute('aria-invalid')).toBe('false');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('saves every criterion and the comment', async () => {
    const fetch = serveScore();
    renderPanel();
    fireEvent.change(academics(), { target: { value: '90' } });
    fireEvent.change(motivation(), { target: { value: '60' } });
    fireEvent.change(screen.getByLabelText(/Comment/), { target: { value: ' Strong maths. ' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save score' })));
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe(`/api/v1/partners/${PARTNER}/review/submissions/${SUBMISSION}/score`);
    expect(init?.method).toBe('PUT');
    expect(JSON.parse(String(init?.body))).toEqual({
      criteria: { academics: 90, motivation: 60 },
      comment: 'Strong maths.',
    });
    expect(await screen.findByText('Score saved.')).toBeTruthy();
  });

  it('lists each reviewer’s total with the average, and starts from the reviewer’s own score', () => {
    serveScore();
    renderPanel(
      reviewApplication({
        score_average: 72.5,
        scores: [
          {
            reviewer: { id: ME, name: 'Diane Uwase' },
            criteria: { academics: 80, motivation: 65 },
            total: 75,
            comment: null,
            updated_at: '2026-03-03T10:00:00.000Z',
          },
          {
            reviewer: { id: OTHER_REVIEWER, name: 'Eric Mugisha' },
            criteria: { academics: 70, motivation: 70 },
            total: 70,
            comment: 'Fine',
            updated_at: '2026-03-03T11:00:00.000Z',
          },
        ],
      }),
    );
    screen.getByText('Average 72.5 from 2 reviewers');
    screen.getByRole('rowheader', { name: /Eric Mugisha/ });
    screen.getByRole('heading', { name: 'Update your score' });
    expect((academics() as HTMLInputElement).value).toBe('80');
    screen.getByText('Your weighted total: 75 / 100');
  });
});
