import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import type { ReactNode } from 'react';
import en from '@kaminuza/shared/locales/en.json';
import type { CitySuggestion, SchoolChoiceInput } from '@kaminuza/shared';
import { CityCombobox } from './city-combobox.tsx';
import { EMPTY_SCHOOL, SchoolPicker } from './school-picker.tsx';

const i18n = i18next.createInstance();
await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, initAsync: false });

/** Answers every request with `data`, as the api would. */
function serve(data: unknown) {
  const fetch = vi.fn(
    async () =>
      new Response(JSON.stringify({ data }), { status: 200, headers: { 'content-type': 'application/json' } }),
  );
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

function renderWith(children: ReactNode) {
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

const place = (overrides: Partial<CitySuggestion>): CitySuggestion => ({
  name: 'Huye',
  country: 'RW',
  admin_region: '15',
  lat: null,
  lng: null,
  kind: 'district',
  district: null,
  province: 'RW-05',
  ...overrides,
});

describe('CityCombobox', () => {
  it('says when no place matches and keeps the town as typed when the student enters it', async () => {
    serve([]);
    const onEnter = vi.fn();
    renderWith(<CityCombobox country="RW" onPick={vi.fn()} onEnter={onEnter} />);
    fireEvent.change(screen.getByRole('combobox', { name: 'Search your town or city' }), {
      target: { value: '  Gakenke-Centre ' },
    });
    expect(await screen.findByText('No place found with this name. You can enter it yourself.')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('0 places found');
    fireEvent.click(screen.getByRole('button', { name: 'Use “Gakenke-Centre” as my city' }));
    expect(onEnter).toHaveBeenCalledWith('Gakenke-Centre');
  });

  it('names the kind, district and province of each place, and offers no manual entry while places match', async () => {
    const district = place({});
    const sector = place({ kind: 'sector', district: 'Huye' });
    serve([district, sector]);
    const onPick = vi.fn();
    renderWith(<CityCombobox country="" onPick={onPick} onEnter={vi.fn()} />);
    fireEvent.change(screen.getByRole('combobox'), { target: { value: 'huye' } });
    expect(await screen.findByRole('option', { name: 'Huye District, Southern Province, Rwanda' })).toBeTruthy();
    fireEvent.click(screen.getByRole('option', { name: 'Huye Sector, Huye District, Southern Province, Rwanda' }));
    expect(onPick).toHaveBeenCalledWith(sector);
    expect(screen.queryByText(/You can enter it yourself/)).toBeNull();
  });

  it('keeps the list open when the student leaves the field and types again at once', async () => {
    serve([place({})]);
    renderWith(<CityCombobox country="" onPick={vi.fn()} onEnter={vi.fn()} />);
    const input = screen.getByRole('combobox');
    fireEvent.focus(input);
    fireEvent.blur(input);
    fireEvent.focus(input);
    fireEvent.change(input, { target: { value: 'huye' } });
    expect(await screen.findByRole('option', { name: /^Huye District/ })).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 300));
    screen.getByRole('option', { name: /^Huye District/ });
  });
});

describe('SchoolPicker', () => {
  it('says when no school matches and opens the manual entry with the name as typed', async () => {
    serve({ items: [], page: 1, has_more: false });
    let value: SchoolChoiceInput = EMPTY_SCHOOL;
    const onChange = vi.fn((next: SchoolChoiceInput) => (value = next));
    renderWith(<SchoolPicker value={value} onChange={onChange} errors={{}} country="RW" />);
    fireEvent.change(screen.getByLabelText('Search for your school'), { target: { value: 'Lycée de Zaza' } });
    expect(await screen.findByText('No school found with this name. You can enter it yourself.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Enter “Lycée de Zaza” myself' }));
    expect(value).toMatchObject({ id: null, name: 'Lycée de Zaza', country: 'RW' });
  });
});
