import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import en from '@kaminuza/shared/locales/en.json';
import type { FormSnapshot, ReviewApplication, SessionUser } from '@kaminuza/shared';
import { SessionProvider } from '../../../lib/session.tsx';
import { PARTNER, reviewApplication, reviewOptions, staffReferee, SUBMISSION } from './review-fixtures.ts';
import { RefereesPanel } from './referees-panel.tsx';
import { ReviewApplicationPage } from './review-application-page.tsx';

const i18n = i18next.createInstance();
await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, initAsync: false });

const REFEREE = staffReferee();

/** A submitted form whose one section asks for two referees. */
const FORM_WITH_REFEREES: FormSnapshot = {
  id: '00000000-0000-4000-8000-0000000000f9',
  name: 'Undergraduate form',
  version: 1,
  sections: [
    {
      id: 'about',
      order: 0,
      title: { en: 'About you' },
      description: {},
      questions: [
        {
          id: 'references',
          order: 0,
          type: 'referees',
          label: { en: 'Your referees' },
          help: {},
          required: true,
          count: 2,
          kinds: ['teacher', 'counsellor'],
          submit_before_letters: true,
          prompts: [{ en: 'How long have you known the applicant?' }],
        },
      ],
    },
  ],
} as FormSnapshot;

function renderPanel(application: ReviewApplication) {
  render(
    <I18nextProvider i18n={i18n}>
      <RefereesPanel partnerId={PARTNER} application={application} />
    </I18nextProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the referees of an application', () => {
  it('shows who each referee is, where they stand, their answers, typed letter and PDF', () => {
    renderPanel(
      reviewApplication({
        referees: [
          REFEREE,
          staffReferee({
            id: '00000000-0000-4000-8000-000000000092',
            kind: 'counsellor',
            name: 'Eric Mugisha',
            phone: null,
            waived: false,
            status: 'invited',
            expired: true,
            opened_at: null,
            submitted_at: null,
            answers: [],
            letter: null,
          }),
        ],
      }),
    );
    const section = screen.getByRole('region', { name: 'Referees' });
    within(section).getByText('1 of 2 letters received');
    const [grace, eric] = within(section).getAllByRole('listitem') as [HTMLElement, HTMLElement];

    within(grace).getByRole('heading', { name: 'Grace Uwase' });
    within(grace).getByText('Teacher · Mathematics teacher, Lycée de Kigali');
    within(grace).getByText('Letter received', { selector: 'span' });
    expect(within(grace).getByRole('link', { name: 'grace@school.example' }).getAttribute('href')).toBe(
      'mailto:grace@school.example',
    );
    within(grace).getByRole('link', { name: '+250788000111' });
    within(grace).getByText('The applicant waived the right to read this letter');
    within(grace).getByText('Feb 22, 2026', { exact: false });
    within(grace).getByText('How long have you known the applicant?');
    within(grace).getByText('Three years.');
    // The typed letter keeps its paragraphs.
    const letter = within(grace).getByText(/Aline is curious/);
    expect(letter.textContent).toBe('Aline is curious.\n\nShe works hard.');
    expect(letter.className).toContain('whitespace-pre-line');
    const download = within(grace).getByRole('link', { name: 'Download the PDF letter from Grace Uwase' });
    expect(download.getAttribute('href')).toBe(
      `/api/v1/partners/${PARTNER}/review/submissions/${SUBMISSION}/referees/${REFEREE.id}/letter`,
    );
    expect(download.getAttribute('download')).toBe('Lettre de Grace.pdf');

    within(eric).getByText('Counsellor · Mathematics teacher, Lycée de Kigali');
    within(eric).getByText('Link expired');
    within(eric).getByText('Not given');
    within(eric).getByText('The applicant may read this letter');
    within(eric).getByText('The link expired before the letter arrived. The applicant can send the invitation again.');
    expect(within(eric).queryByRole('link', { name: /Download/ })).toBeNull();
  });

  it('says so when nobody has been invited yet', () => {
    renderPanel(reviewApplication({ form: FORM_WITH_REFEREES, referees: [] }));
    const section = screen.getByRole('region', { name: 'Referees' });
    within(section).getByRole('heading', { name: 'No referees invited yet' });
  });
});

const member: SessionUser = {
  id: '00000000-0000-4000-8000-00000000000b',
  email: 'registrar@example.com',
  type: 'staff',
  first_name: 'Diane',
  preferred_name: null,
  language: 'en',
  contact_verified: true,
  partner_id: PARTNER,
  onboarding_complete: true,
  partner_name: 'Lake Kivu Institute',
  partner_status: 'approved',
  partner_review_reason: null,
  staff_approval_status: 'approved',
  staff_permissions: ['review_applications'],
  staff_active: true,
};

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

async function renderApplication(application: ReviewApplication) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const path = new URL(url, 'http://x').pathname;
      if (path === '/api/v1/auth/session') return json({ data: member });
      if (path.endsWith('/review/options')) return json({ data: reviewOptions() });
      return json({ data: application });
    }),
  );
  const router = createMemoryRouter(
    [{ path: '/partner/applications/:submissionId', element: <ReviewApplicationPage /> }],
    {
      initialEntries: [`/partner/applications/${SUBMISSION}`],
    },
  );
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <SessionProvider>
          <RouterProvider router={router} />
        </SessionProvider>
      </QueryClientProvider>
    </I18nextProvider>,
  );
  await screen.findByRole('tablist');
  await screen.findByRole('heading', { level: 1 });
}

describe('the referees on the review page', () => {
  it('follow the answers when the form asks for referees', async () => {
    await renderApplication(
      reviewApplication({ form: FORM_WITH_REFEREES, answers: { references: [REFEREE.id] }, referees: [REFEREE] }),
    );
    const section = screen.getByRole('region', { name: 'Referees' });
    within(section).getByText('1 of 1 letter received');
    within(section).getByRole('heading', { name: 'Grace Uwase' });
    // After the form's own sections, where the question points to it.
    const about = screen.getByRole('heading', { name: 'About you' });
    expect(about.compareDocumentPosition(section) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    screen.getByText('1 referee invited (see Referees)');
    // Not on another tab.
    fireEvent.click(screen.getByRole('tab', { name: /Documents/ }));
    expect(screen.queryByRole('region', { name: 'Referees' })).toBeNull();
  });

  it('are not shown when the form asks for none and nobody was invited', async () => {
    await renderApplication(reviewApplication({ referees: [] }));
    screen.getByRole('tab', { name: /Documents/ });
    expect(screen.queryByRole('region', { name: 'Referees' })).toBeNull();
  });
});
