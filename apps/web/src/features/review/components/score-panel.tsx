import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  SCORE_MAX,
  ScoreInputSchema,
  weightedScore,
  type ReviewApplication,
  type RubricCriterion,
} from '@kaminuza/shared';
import { FormAlert, TextAreaField, TextField } from '../../../components/form/field.tsx';
import { errorMessageKey } from '../../../lib/error-messages.ts';
import { useSaveScore } from '../api/save-score.ts';
import { useReviewFormats } from './review-parts.tsx';

/** A whole number from 0 to 100, as typed; anything else is not a score. */
export function parseScore(text: string): number | null {
  if (!/^\d{1,3}$/.test(text.trim())) return null;
  const value = Number(text.trim());
  return value <= SCORE_MAX ? value : null;
}

/** The weighted total of the scores typed so far, or null until every criterion has a valid score. */
export function previewTotal(rubric: readonly RubricCriterion[], values: Readonly<Record<string, string>>) {
  const scores: Record<string, number> = {};
  for (const criterion of rubric) {
    const score = parseScore(values[criterion.id] ?? '');
    if (score === null) return null;
    scores[criterion.id] = score;
  }
  return weightedScore(rubric, scores);
}

/** The caller's own score: one 0–100 input per criterion of the rubric, a comment, and the weighted total. */
export function ScoreForm({
  partnerId,
  application,
  me,
}: {
  partnerId: string;
  application: ReviewApplication;
  me: string | undefined;
}) {
  const { t } = useTranslation();
  const format = useReviewFormats();
  const save = useSaveScore(partnerId, application.id);
  const mine = application.scores.find((score) => score.reviewer.id === me);
  const { rubric } = application;
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(
      rubric.map((criterion) => [criterion.id, mine ? String(mine.criteria[criterion.id] ?? '') : '']),
    ),
  );
  const [comment, setComment] = useState(mine?.comment ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState(false);
  const total = previewTotal(rubric, values);
  const weights = rubric.reduce((sum, criterion) => sum + criterion.weight, 0);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    setSaved(false);
    const criteria = Object.fromEntries(
      rubric.map((criterion) => [criterion.id, parseScore(values[criterion.id] ?? '') ?? Number.NaN]),
    );
    const checked = ScoreInputSchema.safeParse({ criteria, comment: comment.trim() || undefined });
    if (!checked.success) {
      const found: Record<string, string> = {};
      for (const issue of checked.error.issues) {
        const key = issue.path[0] === 'criteria' ? String(issue.path[1]) : String(issue.path[0]);
        found[key] ??= issue.message;
      }
      setErrors(found);
      return;
    }
    save.mutate(checked.data, { onSuccess: () => setSaved(true) });
  };

  return (
    <form noValidate onSubmit={submit} aria-labelledby="review-score-form" className="flex flex-col gap-4">
      <h2 id="review-score-form" className="text-lg font-semibold">
        {t(mine ? 'review.scores.yours_update' : 'review.scores.yours')}
      </h2>
      <p className="text-sm text-muted">{t('review.scores.hint')}</p>
      <div className="grid gap-4 sm:grid-cols-2">
        {rubric.map((criterion) => (
          <TextField
            key={criterion.id}
            label={t('review.scores.criterion', {
              name: criterion.name,
              weight: criterion.weight,
              share: Math.round((criterion.weight / weights) * 100),
            })}
            type="number"
            inputMode="numeric"
            min={0}
            max={SCORE_MAX}
            step={1}
            value={values[criterion.id] ?? ''}
            error={errors[criterion.id]}
            onChange={(event) => {
              const text = event.target.value;
              setValues((current) => ({ ...current, [criterion.id]: text }));
              setErrors(({ [criterion.id]: _, ...rest }) => rest);
              setSaved(false);
            }}
          />
        ))}
      </div>
      <TextAreaField
        label={t('review.scores.comment')}
        optional
        rows={3}
        maxLength={2000}
        value={comment}
        error={errors.comment}
        onChange={(event) => {
          setComment(event.target.value);
          setSaved(false);
        }}
      />
      <p aria-live="polite" className="font-medium">
        {total === null
          ? t('review.scores.preview_incomplete')
          : t('review.scores.preview', { total: format.score(total) })}
      </p>
      {save.isError && <FormAlert>{t(errorMessageKey(save.error))}</FormAlert>}
      {saved && <FormAlert tone="success">{t('review.scores.saved')}</FormAlert>}
      <button type="submit" className="btn-primary self-start" disabled={save.isPending}>
        {t(save.isPending ? 'review.scores.saving' : 'review.scores.save')}
      </button>
    </form>
  );
}

/** Every reviewer's total, and the average the queue sorts by. */
export function ScoresPanel({
  partnerId,
  application,
  me,
}: {
  partnerId: string;
  application: ReviewApplication;
  me: string | undefined;
}) {
  const { t } = useTranslation();
  const format = useReviewFormats();
  const { scores } = application;
  return (
    <div className="flex flex-col gap-6">
      <section aria-labelledby="review-scores" className="flex flex-col gap-3">
        <h2 id="review-scores" className="text-lg font-semibold">
          {t('review.scores.title')}
        </h2>
        <p aria-live="polite" className="font-medium">
          {application.score_average === null
            ? t('review.scores.no_scores')
            : t('review.scores.average', { average: format.score(application.score_average), count: scores.length })}
        </p>
        {scores.length > 0 && (
          <div
            role="region"
            aria-labelledby="review-scores"
            tabIndex={0}
            className="relative overflow-x-auto rounded-xl border border-border bg-surface"
          >
            <table className="w-full min-w-[36rem] divide-y divide-border text-sm">
              <caption className="sr-only">{t('review.scores.table_caption')}</caption>
              <thead className="bg-surface-muted">
                <tr>
                  <th scope="col" className="px-3 py-2 text-left font-semibold">
                    {t('review.scores.reviewer')}
                  </th>
                  {application.rubric.map((criterion) => (
                    <th key={criterion.id} scope="col" className="px-3 py-2 text-left font-semibold">
                      {criterion.name}
                    </th>
                  ))}
                  <th scope="col" className="px-3 py-2 text-left font-semibold">
                    {t('review.scores.total')}
                  </th>
                  <th scope="col" className="px-3 py-2 text-left font-semibold">
                    {t('review.scores.comment')}
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-border">
                {scores.map((score) => (
                  <tr key={score.reviewer.id}>
                    <th scope="row" className="px-3 py-2 text-left align-top font-medium">
                      {score.reviewer.id === me
                        ? t('review.assignee.me', { name: score.reviewer.name })
                        : score.reviewer.name}
                      <span className="block font-normal text-muted">{format.dateTime(score.updated_at)}</span>
                    </th>
                    {application.rubric.map((criterion) => (
                      <td key={criterion.id} className="px-3 py-2 align-top">
                        {score.criteria[criterion.id] ?? '—'}
                      </td>
                    ))}
                    <td className="px-3 py-2 align-top font-semibold">{format.score(score.total)}</td>
                    <td className="px-3 py-2 align-top break-words whitespace-pre-line">{score.comment ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <section className="rounded-xl border border-border bg-surface p-4">
        <ScoreForm partnerId={partnerId} application={application} me={me} />
      </section>
    </div>
  );
}
