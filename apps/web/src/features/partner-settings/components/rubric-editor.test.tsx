import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import en from '@kaminuza/shared/locales/en.json';
import { defaultPartnerSettings, RUBRIC_MAX_CRITERIA, type PartnerAdmissionsSettings } from '@kaminuza/shared';
import { AdmissionsSettingsForm } from './admissions-settings-form.tsx';
import { criterionId } from './rubric-editor.tsx';

const i18n = i18next.createInstance();
await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, initAsync: false });

const PARTNER = '00000000-0000-4000-8000-000000000001';

function admissions(): PartnerAdmissionsSettings {
  return {
    ...defaultPartnerSettings().admissions,
    rubric: [
      { id: 'academics', name: 'Academic record', weight: 3 },
      { id: 'motivation', name: 'Motivation', weight: 1 },
    ],
  };
}

/** Answers the save with the settings it was sent, as the api does. */
function serveSave() {
  const fetch = vi.fn(async (_url: string, init?: RequestInit) => {
    const sent = JSON.parse(String(init?.body)) as PartnerAdmissionsSettings;
    const settings = { ...defaultPartnerSettings(), admissions: { ...sent, custom_stages: [] } };
    return new Response(JSON.stringify({ data: settings }), { headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

function renderForm(canEdit = true) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <AdmissionsSettingsForm partnerId={PARTNER} canEdit={canEdit} admissions={admissions()} />
      </QueryClientProvider>
    </I18nextProvider>,
  );
}

const save = () => act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save changes' })));
const sentBody = (fetch: ReturnType<typeof serveSave>) =>
  JSON.parse(String(fetch.mock.calls[0]![1]?.body)) as {
    rubric: Array<{ id: string; name: string; weight: number }>;
    blind_review: boolean;
  };

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('criterionId', () => {
  it('makes a short id from the name, without accents, unique among the others', () => {
    expect(criterionId('Academic record', [])).toBe('academic-record');
    expect(criterionId('  Entretien oral — évalué ', [])).toBe('entretien-oral-evalue');
    expect(criterionId('Motivation', ['motivation', 'motivation-2'])).toBe('motivation-3');
    expect(criterionId('???', [])).toBe('criterion');
    expect(criterionId('x'.repeat(100), [])).toHaveLength(48);
  });
});

describe('the rubric in the admissions settings', () => {
  it('adds, names, weighs, reorders and removes criteria; new ones take their id from their name', async () => {
    const fetch = serveSave();
    renderForm();
    screen.getByText('75 % of the total');
    fireEvent.click(screen.getByRole('button', { name: 'Add a criterion' }));
    fireEvent.change(screen.getByLabelText('Criterion 3 name'), { target: { value: 'Interview' } });
    fireEvent.change(screen.getByLabelText('Criterion 3 weight (1–100)'), { target: { value: '4' } });
    screen.getByText('50 % of the total');
    fireEvent.click(screen.getByRole('button', { name: 'Move Interview up' }));
    fireEvent.click(screen.getByRole('button', { name: 'Remove Academic record' }));
    // A saved criterion keeps its id when renamed: the scores already given stay attached to it.
    fireEvent.change(screen.getByLabelText('Criterion 2 name'), { target: { value: 'Personal motivation' } });
    fireEvent.click(screen.getByRole('switch', { name: 'Blind review' }));
    await save();

    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    const sent = sentBody(fetch);
    expect(sent.rubric).toEqual([
      { id: 'interview', name: 'Interview', weight: 4 },
      { id: 'motivation', name: 'Personal motivation', weight: 1 },
    ]);
    expect(sent.blind_review).toBe(true);
    expect(await screen.findByText('Changes saved.')).toBeTruthy();
  });

  it('refuses an unnamed criterion or a weight out of range before sending anything', async () => {
    const fetch = serveSave();
    renderForm();
    fireEvent.change(screen.getByLabelText('Criterion 1 name'), { target: { value: '' } });
    fireEvent.change(screen.getByLabelText('Criterion 2 weight (1–100)'), { target: { value: '0' } });
    await save();
    expect(await screen.findByText('Name the criterion.')).toBeTruthy();
    screen.getByText('Enter a weight from 1 to 100.');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('keeps at least one criterion and at most twelve', () => {
    serveSave();
    renderForm();
    fireEvent.click(screen.getByRole('button', { name: 'Remove Motivation' }));
    expect(screen.getByRole('button', { name: 'Remove Academic record' }).hasAttribute('disabled')).toBe(true);
    for (let i = 1; i < RUBRIC_MAX_CRITERIA; i += 1)
      fireEvent.click(screen.getByRole('button', { name: 'Add a criterion' }));
    expect(screen.getAllByLabelText(/^Criterion \d+ name$/)).toHaveLength(RUBRIC_MAX_CRITERIA);
    expect(screen.getByRole('button', { name: 'Add a criterion' }).hasAttribute('disabled')).toBe(true);
  });

  it('is read-only without manage_settings', () => {
    renderForm(false);
    expect(screen.getByLabelText('Criterion 1 name').matches(':disabled')).toBe(true);
    expect(screen.getByRole('switch', { name: 'Blind review' }).matches(':disabled')).toBe(true);
    expect(screen.queryByRole('button', { name: 'Add a criterion' })).toBeNull();
  });
});
