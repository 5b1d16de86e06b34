import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import en from '@kaminuza/shared/locales/en.json';
import fr from '@kaminuza/shared/locales/fr.json';
import type { FormSection } from '@kaminuza/shared';
import { ConflictDialog, chosenAnswers, differingQuestions, type SavedDraft } from './conflict-dialog.tsx';
import type { Answers } from './use-draft-autosave.ts';

// jsdom has no modal dialogs: opening one only needs to set `open`, as browsers do.
HTMLDialogElement.prototype.showModal ??= function showModal(this: HTMLDialogElement) {
  this.open = true;
};
HTMLDialogElement.prototype.close ??= function close(this: HTMLDialogElement) {
  this.open = false;
};

const base = { help: {}, required: false };
const SECTIONS: FormSection[] = [
  {
    id: 'about',
    order: 0,
    title: { en: 'About you' },
    description: {},
    questions: [
      { ...base, id: 'name', order: 0, label: { en: 'Full name', fr: 'Nom complet' }, type: 'short_text' },
      { ...base, id: 'born', order: 1, label: { en: 'Date of birth', fr: 'Date de naissance' }, type: 'date' },
      {
        ...base,
        id: 'track',
        order: 2,
        label: { en: 'Track', fr: 'Filière' },
        type: 'single_choice',
        options: [
          { id: 'sci', label: { en: 'Sciences', fr: 'Sciences' } },
          { id: 'art', label: { en: 'Arts', fr: 'Lettres' } },
        ],
      },
    ],
  },
  {
    id: 'docs',
    order: 1,
    title: { en: 'Documents' },
    description: {},
    questions: [
      { ...base, id: 'why', order: 0, label: { en: 'Why us?' }, type: 'long_text', word_limit: null },
      {
        ...base,
        id: 'report',
        order: 1,
        label: { en: 'School report', fr: 'Bulletin' },
        type: 'file',
        document_type: 'transcript',
      },
    ],
  },
];

const DOC_MINE = '00000000-0000-4000-8000-0000000000d1';
const DOC_SAVED = '00000000-0000-4000-8000-0000000000d2';
const MINE: Answers = { name: 'Aline', born: '2007-03-14', track: 'sci', why: 'Same', report: DOC_MINE };
const SAVED: SavedDraft = {
  answers: { name: 'Aline Uwase', born: '2007-03-15', track: 'art', why: 'Same', report: DOC_SAVED, extra: 'kept' },
  version: 9,
  last_saved_at: '2026-11-22T10:15:00.000Z',
  documents: [{ id: DOC_SAVED, type: 'transcript', name: 'report-from-phone.pdf' }],
};

async function show(
  language: 'en' | 'fr',
  onResolve = vi.fn(),
  onLoadNewer = vi.fn(),
  saved: SavedDraft | null = SAVED,
) {
  const i18n = i18next.createInstance();
  await i18n
    .use(initReactI18next)
    .init({ lng: language, resources: { en: { translation: en }, fr: { translation: fr } }, initAsync: false });
  render(
    <I18nextProvider i18n={i18n}>
      <ConflictDialog
        sections={SECTIONS}
        language={language}
        mine={MINE}
        documents={[{ id: DOC_MINE, type: 'transcript', name: 'report-scan.pdf' }]}
        saved={saved}
        busy={false}
        onResolve={onResolve}
        onLoadNewer={onLoadNewer}
      />
    </I18nextProvider>,
  );
  return { onResolve, onLoadNewer };
}

afterEach(cleanup);

describe('differing answers', () => {
  it('lists the questions whose answers differ, in the form’s order', () => {
    expect(differingQuestions(SECTIONS, MINE, SAVED.answers).map((question) => question.id)).toEqual([
      'name',
      'born',
      'track',
      'report',
    ]);
    expect(differingQuestions(SECTIONS, { name: 'A' }, { name: 'A' })).toEqual([]);
    // An answer present on one side only differs.
    expect(differingQuestions(SECTIONS, {}, { why: 'x' }).map((question) => question.id)).toEqual(['why']);
  });

  it('starts from the saved answers and takes the device’s where chosen, removing what the device cleared', () => {
    const questions = differingQuestions(SECTIONS, { name: 'Mine' }, { name: 'Saved', born: '2007-01-01' });
    expect(
      chosenAnswers(
        questions,
        { name: 'Mine' },
        { name: 'Saved', born: '2007-01-01', extra: 1 },
        { name: 'device', born: 'device' },
      ),
    ).toEqual({ name: 'Mine', extra: 1 });
    expect(chosenAnswers(questions, { name: 'Mine' }, { name: 'Saved' }, { name: 'saved' })).toEqual({ name: 'Saved' });
  });
});

describe('the conflict dialog', () => {
  it('shows each differing answer both ways, readably, and saves the choice made per question on the saved version', async () => {
    const { onResolve } = await show('en');
    const dialog = screen.getByRole('dialog', {
      name: 'This application was changed in another tab or on another device.',
    });
    expect(within(dialog).queryByRole('group', { name: 'Why us?' })).toBeNull();

    const name = within(dialog).getByRole('group', { name: 'Full name' });
    expect((within(name).getByRole('radio', { name: /On this device\s*Aline$/ }) as HTMLInputElement).checked).toBe(
      true,
    );
    const savedName = within(name).getByRole('radio', { name: /Saved elsewhere\s*Aline Uwase/ });
    expect(within(dialog).getByRole('group', { name: 'Date of birth' }).textContent).toContain('Mar 14, 2007');
    expect(within(dialog).getByRole('group', { name: 'Date of birth' }).textContent).toContain('Mar 15, 2007');
    expect(within(dialog).getByRole('group', { name: 'Track' }).textContent).toMatch(/Sciences.*Arts/);
    expect(within(dialog).getByRole('group', { name: 'School report' }).textContent).toMatch(
      /report-scan\.pdf.*report-from-phone\.pdf/,
    );

    fireEvent.click(savedName);
    fireEvent.click(within(within(dialog).getByRole('group', { name: 'Track' })).getByRole('radio', { name: /Arts/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save my choices' }));
    expect(onResolve).toHaveBeenCalledWith(
      { name: 'Aline Uwase', born: '2007-03-14', track: 'art', why: 'Same', report: DOC_MINE, extra: 'kept' },
      9,
    );
  });

  it('chooses every answer of one side at once', async () => {
    const { onResolve } = await show('en');
    fireEvent.click(screen.getByRole('button', { name: 'Choose all saved answers' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save my choices' }));
    expect(onResolve).toHaveBeenCalledWith(SAVED.answers, 9);
  });

  it('offers the saved version as a whole', async () => {
    const { onResolve, onLoadNewer } = await show('en');
    fireEvent.click(screen.getByRole('button', { name: 'Load the newer version' }));
    expect(onLoadNewer).toHaveBeenCalled();
    expect(onResolve).not.toHaveBeenCalled();
  });

  it('keeps the saved answers on the newer version without asking when no answer differs', async () => {
    const onResolve = vi.fn();
    const same: SavedDraft = { ...SAVED, answers: MINE };
    await show('en', onResolve, vi.fn(), same);
    expect(onResolve).toHaveBeenCalledTimes(1);
    expect(onResolve).toHaveBeenCalledWith(MINE, 9);
  });

  it('waits for the saved version before offering a choice', async () => {
    await show('en', vi.fn(), vi.fn(), null);
    expect(screen.queryByRole('button', { name: 'Save my choices' })).toBeNull();
  });

  it('speaks the reader’s language: labels and dates in French', async () => {
    await show('fr');
    const born = screen.getByRole('group', { name: 'Date de naissance' });
    expect(born.textContent).toContain('14 mars 2007');
    expect(within(born).getAllByRole('radio', { name: /Sur cet appareil/ })).toHaveLength(1);
    screen.getByRole('button', { name: 'Enregistrer mes choix' });
  });
});
