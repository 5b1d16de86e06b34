import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { localized, type ApplicationDocument, type FormSection, type Language, type Question } from '@kaminuza/shared';
import { Dialog } from '../../../components/dialog.tsx';
import { shownAnswer } from '../../../components/application-form/shown-answer.ts';
import { Spinner } from '../../../components/spinner.tsx';
import { useApplicationFormats } from './formats.ts';
import type { Answers } from './use-draft-autosave.ts';

/** The draft as the server holds it now: the other side of the conflict. */
export interface SavedDraft {
  answers: Answers;
  version: number;
  last_saved_at: string | null;
  documents: readonly ApplicationDocument[];
}

export type Side = 'device' | 'saved';

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The form's questions whose answer on this device is not the saved one, in the form's order. */
export function differingQuestions(sections: readonly FormSection[], mine: Answers, saved: Answers): Question[] {
  return sections.flatMap((section) =>
    section.questions.filter((question) => !same(mine[question.id], saved[question.id])),
  );
}

/**
 * The answers to save: the saved ones, with the device's answer wherever the student chose it. Answers to
 * questions no longer in the form stay as saved.
 */
export function chosenAnswers(
  questions: readonly Question[],
  mine: Answers,
  saved: Answers,
  choices: Readonly<Record<string, Side>>,
): Answers {
  const result: Answers = { ...saved };
  for (const question of questions) {
    if (choices[question.id] !== 'device') continue;
    const value = mine[question.id];
    if (value === undefined) delete result[question.id];
    else result[question.id] = value;
  }
  return result;
}

/**
 * A save refused because the draft changed elsewhere (another tab or device). Each answer that differs is
 * shown as it is on this device and as it was saved, and the student picks one per question; the dialog
 * stays until they save their choice or take the saved version, so nothing is overwritten without their say.
 */
export function ConflictDialog({
  sections,
  language,
  mine,
  documents,
  saved,
  busy,
  onResolve,
  onLoadNewer,
}: {
  sections: readonly FormSection[];
  language: Language;
  mine: Answers;
  /** The device's documents (a file answer reads as its name). */
  documents: readonly ApplicationDocument[];
  /** Null while the saved version is being fetched. */
  saved: SavedDraft | null;
  busy: boolean;
  onResolve: (answers: Answers, version: number) => void;
  onLoadNewer: () => void;
}) {
  const { t } = useTranslation();
  const format = useApplicationFormats();
  const questions = useMemo(
    () => (saved ? differingQuestions(sections, mine, saved.answers) : []),
    [sections, mine, saved],
  );
  const [choices, setChoices] = useState<Record<string, Side>>({});
  const choiceOf = (id: string): Side => choices[id] ?? 'device';
  const choose = (side: Side) => setChoices(Object.fromEntries(questions.map((question) => [question.id, side])));
  // Nothing to choose between when every answer is the same on both sides (only the position moved, say):
  // the saved answers are kept, on the newer version.
  const nothingDiffers = saved !== null && questions.length === 0;
  useEffect(() => {
    if (nothingDiffers) onResolve(saved.answers, saved.version);
    // Once per fetched version: onResolve closes the dialog.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [nothingDiffers, saved]);
  const yesNo = (value: boolean) => t(value ? 'application_form.yes' : 'application_form.no');

  const shown = (question: Question, value: unknown, docs: readonly ApplicationDocument[]) => {
    if (value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)) {
      return <span className="text-muted italic">{t('applications.review.not_answered')}</span>;
    }
    if (question.type === 'date' && typeof value === 'string') return format.day(value);
    return shownAnswer(question, value, language, [...docs, ...documents], yesNo);
  };

  return (
    <Dialog
      wide
      title={t('applications.conflict.title')}
      description={
        saved?.last_saved_at
          ? t('applications.conflict.compare_when', { time: format.moment(saved.last_saved_at) })
          : t('applications.conflict.compare')
      }
      onClose={() => undefined}
    >
      {() =>
        !saved ? (
          <Spinner />
        ) : (
          <div className="flex flex-col gap-4">
            {questions.length > 1 && (
              <div className="flex flex-wrap gap-2">
                <button type="button" className="btn-secondary" disabled={busy} onClick={() => choose('device')}>
                  {t('applications.conflict.all_device')}
                </button>
                <button type="button" className="btn-secondary" disabled={busy} onClick={() => choose('saved')}>
                  {t('applications.conflict.all_saved')}
                </button>
              </div>
            )}
            <ul className="flex flex-col gap-3">
              {questions.map((question) => {
                const label = localized(question.label, language);
                return (
                  <li key={question.id}>
                    <fieldset className="flex min-w-0 flex-col gap-2 rounded-xl border border-border p-3">
                      <legend className="px-1 font-semibold break-words">{label}</legend>
                      {(['device', 'saved'] as const).map((side) => (
                        <label
                          key={side}
                          className={`flex min-h-11 items-start gap-3 rounded-lg border p-2 ${choiceOf(question.id) === side ? 'border-brand' : 'border-border'}`}
                        >
                          <input
                            type="radio"
                            name={`conflict-${question.id}`}
                            className="mt-1 size-5 shrink-0 accent-brand"
                            checked={choiceOf(question.id) === side}
                            disabled={busy}
                            onChange={() => setChoices((previous) => ({ ...previous, [question.id]: side }))}
                          />
                          <span className="flex min-w-0 flex-col">
                            <span className="text-sm text-muted">
                              {t(side === 'device' ? 'applications.conflict.on_device' : 'applications.conflict.saved')}
                            </span>
                            <span className="break-words whitespace-pre-line">
                              {side === 'device'
                                ? shown(question, mine[question.id], [])
                                : shown(question, saved.answers[question.id], saved.documents)}
                            </span>
                          </span>
                        </label>
                      ))}
                    </fieldset>
                  </li>
                );
              })}
            </ul>
            <div className="flex flex-wrap justify-end gap-2">
              <button type="button" className="btn-secondary" disabled={busy} onClick={onLoadNewer}>
                {t('applications.conflict.load_newer')}
              </button>
              <button
                type="button"
                className="btn-primary"
                disabled={busy}
                onClick={() =>
                  onResolve(
                    chosenAnswers(
                      questions,
                      mine,
                      saved.answers,
                      Object.fromEntries(questions.map((question) => [question.id, choiceOf(question.id)])),
                    ),
                    saved.version,
                  )
                }
              >
                {t('applications.conflict.save_choice')}
              </button>
            </div>
          </div>
        )
      }
    </Dialog>
  );
}
