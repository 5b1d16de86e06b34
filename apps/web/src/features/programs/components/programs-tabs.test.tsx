import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import en from '@kaminuza/shared/locales/en.json';
import type { Campus, Program } from '@kaminuza/shared';
import { CampusesTab } from './campuses-tab.tsx';
import { ProgramsTab } from './programs-tab.tsx';

const i18n = i18next.createInstance();
await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, initAsync: false });

const PARTNER = '00000000-0000-4000-8000-00000000000a';
const stamp = '2026-01-01T00:00:00.000Z';
const campus: Campus = {
  id: '00000000-0000-4000-8000-000000000001',
  name: 'Rubavu Lakeside',
  address: 'Lake road',
  city: 'Rubavu',
  country: 'RW',
  program_count: 1,
  created_at: stamp,
  updated_at: stamp,
};
const program: Program = {
  id: '00000000-0000-4000-8000-000000000002',
  name: 'Nursing',
  level: 'undergraduate',
  field: 'medicine',
  duration_months: 18,
  language: 'fr',
  tuition_amount: 1200,
  tuition_currency: 'USD',
  requirements: '',
  entry_rules: { exams: [] },
  seats: null,
  campus_ids: [campus.id],
  created_at: stamp,
  updated_at: stamp,
};

/** Answers each api path with its body (status 200), or a 500 for paths not listed. */
function serve(bodies: Record<string, unknown>) {
  const fetch = vi.fn(async (url: string) => {
    const path = new URL(url, 'http://x').pathname.replace(`/api/v1/partners/${PARTNER}`, '');
    const body = bodies[path];
    return body === undefined
      ? new Response(JSON.stringify({ error: { status: 'INTERNAL', message: 'x' } }), { status: 500 })
      : new Response(JSON.stringify({ data: body }), { status: 200, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

function renderWith(children: React.ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    </I18nextProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('CampusesTab', () => {
  it('shows members without manage_programs the campuses, and no control to change them', async () => {
    serve({ '/campuses': [campus] });
    renderWith(<CampusesTab partnerId={PARTNER} canEdit={false} />);
    const card = within(await screen.findByRole('listitem'));
    card.getByRole('heading', { name: 'Rubavu Lakeside' });
    card.getByText('Lake road, Rubavu, Rwanda');
    card.getByText('1 program');
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('gives managers add, edit and delete, named after each campus', async () => {
    serve({ '/campuses': [campus] });
    renderWith(<CampusesTab partnerId={PARTNER} canEdit />);
    await screen.findByRole('listitem');
    screen.getByRole('button', { name: 'Add a campus' });
    screen.getByRole('button', { name: 'Edit Rubavu Lakeside' });
    screen.getByRole('button', { name: 'Delete Rubavu Lakeside' });
  });

  it('says why the list failed and loads it again on request', async () => {
    const fetch = serve({});
    renderWith(<CampusesTab partnerId={PARTNER} canEdit />);
    expect((await screen.findByRole('alert')).textContent).toBe('Something went wrong. Please try again.');
    fetch.mockImplementation(
      async () =>
        new Response(JSON.stringify({ data: [] }), { status: 200, headers: { 'content-type': 'application/json' } }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'No campuses yet' })).toBeTruthy();
  });
});

describe('ProgramsTab', () => {
  it('asks for a campus first, and leads there', async () => {
    serve({ '/campuses': [], '/programs': [] });
    const onAddCampus = vi.fn();
    renderWith(<ProgramsTab partnerId={PARTNER} canEdit onAddCampus={onAddCampus} />);
    expect(await screen.findByRole('heading', { name: 'Add a campus first' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add a program' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Go to campuses' }));
    expect(onAddCampus).toHaveBeenCalledOnce();
  });

  it('describes each program in the reader’s words, without controls for readers', async () => {
    serve({ '/campuses': [campus], '/programs': [program] });
    renderWith(<ProgramsTab partnerId={PARTNER} canEdit={false} onAddCampus={() => {}} />);
    const card = within(await screen.findByRole('listitem'));
    card.getByText('Undergraduate · Medicine');
    card.getByText('1 year 6 months');
    card.getByText('French');
    card.getByText('$1,200');
    card.getByText('Not capped');
    card.getByText('Rubavu Lakeside');
    expect(screen.queryByRole('button')).toBeNull();
  });
});
