import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  DECISION_MESSAGE_MAX,
  OFFER_CONDITIONS_MAX,
  type DecisionDraftInput,
  type OfferCondition,
  type ReviewDecision,
} from '@kaminuza/shared';
import { examSystem, examSystems } from '@kaminuza/shared/exams';
import { examLabel } from '../../../components/exam-sitting-summary.tsx';
import { FormAlert, SelectField, TextAreaField, TextField } from '../../../components/form/field.tsx';
import { errorMessageKey, fieldErrors } from '../../../lib/error-messages.ts';
import { numberFormat } from '../../../lib/intl.ts';
import { useSaveDecision } from '../api/save-decision.ts';

/*
 * A drafted decision's message to the applicant and, for an offer, its terms (issue 26, ADR 051):
 * written conditions, examination conditions (an examination's overall result at least a class or an
 * aggregate, in the entry requirements' own form), and the day by which the applicant must reply.
 */

/** A condition as edited: written text, or an examination with its minimum class or aggregate. */
type EditedCondition =
  { kind: 'text'; text: string } | { kind: 'exam'; exam: string; min_class: string; min_aggregate: string };

function edited(condition: OfferCondition): EditedCondition {
  if (condition.kind === 'text') return { kind: 'text', text: condition.text };
  const { exam, min_class, min_aggregate } = condition.requirement;
  return {
    kind: 'exam',
    exam,
    min_class: min_class ?? '',
    min_aggregate: min_aggregate === undefined ? '' : String(min_aggregate),
  };
}

function condition(edit: EditedCondition): OfferCondition {
  if (edit.kind === 'text') return { kind: 'text', text: edit.text };
  return {
    kind: 'exam',
    requirement: {
      exam: edit.exam,
      subjects: [],
      ...(edit.min_class ? { min_class: edit.min_class } : {}),
      ...(edit.min_aggregate.trim() ? { min_aggregate: Number(edit.min_aggregate) } : {}),
    },
  };
}

/** The draft a change of state keeps: the message always, an offer's terms only for an offer. */
export function draftOf(state: DecisionDraftInput['state'], decision: ReviewDecision | null): DecisionDraftInput {
  const offer = state === 'accepted';
  return {
    state,
    message: decision?.message ?? '',
    conditions: offer ? (decision?.conditions ?? []) : [],
    reply_by: offer ? (decision?.reply_by_on ?? null) : null,
  };
}

/** Tomorrow as a calendar day where the member is: the earliest reply deadline the date picker offers. */
const tomorrow = () => {
  const day = new Date(Date.now() + 24 * 60 * 60_000);
  return `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, '0')}-${String(day.getDate()).padStart(2, '0')}`;
};

export function DecisionTerms({
  partnerId,
  submissionId,
  decision,
  onSaved,
}: {
  partnerId: string;
  submissionId: string;
  decision: ReviewDecision;
  onSaved: (text: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const headingId = useId();
  const save = useSaveDecision(partnerId, submissionId);
  const offer = decision.state === 'accepted';
  const [message, setMessage] = useState(decision.message);
  const [conditions, setConditions] = useState<EditedCondition[]>(decision.conditions.map(edited));
  const [replyBy, setReplyBy] = useState(decision.reply_by_on ?? '');
  const errors = fieldErrors(save.error);
  const number = numberFormat(i18n.language);
  const f = (key: string, values: Record<string, unknown> = {}) => t(`review.decision.terms.${key}`, values);

  const change = (index: number, next: EditedCondition) =>
    setConditions((current) => current.map((entry, at) => (at === index ? next : entry)));
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    save.mutate(
      {
        state: decision.state,
        message,
        conditions: offer ? conditions.map(condition) : [],
        reply_by: offer && replyBy ? replyBy : null,
      },
      { onSuccess: () => onSaved(f('saved')) },
    );
  };

  return (
    <form noValidate onSubmit={submit} aria-labelledby={headingId} className="flex flex-col gap-3">
      <h3 id={headingId} className="font-medium">
        {f(offer ? 'title_offer' : 'title')}
      </h3>
      <TextAreaField
        label={f('message')}
        hint={f('message_hint')}
        optional
        rows={3}
        maxLength={DECISION_MESSAGE_MAX}
        value={message}
        error={errors.message}
        onChange={(event) => setMessage(event.target.value)}
      />
      {offer && (
        <>
          <fieldset className="flex min-w-0 flex-col gap-3 rounded-xl border border-border p-3">
            <legend className="px-1 font-medium">{f('conditions')}</legend>
            <p className="text-sm text-muted">{f('conditions_hint')}</p>
            {conditions.map((entry, index) => {
              const at = (path: string) => errors[`conditions.${index}.${path}`];
              const system = entry.kind === 'exam' ? examSystem(entry.exam) : null;
              return (
                <div key={index} className="flex min-w-0 flex-col gap-2 border-b border-border pb-3 last:border-0">
                  {entry.kind === 'text' ? (
                    <TextAreaField
                      label={f('condition_number', { number: number.format(index + 1) })}
                      rows={2}
                      maxLength={300}
                      value={entry.text}
                      error={at('text')}
                      onChange={(event) => change(index, { ...entry, text: event.target.value })}
                    />
                  ) : (
                    <div className="grid gap-2 sm:grid-cols-2">
                      <SelectField
                        label={f('condition_exam', { number: number.format(index + 1) })}
                        placeholder={f('choose')}
                        options={examSystems().map((option) => ({ value: option.id, label: examLabel(option) }))}
                        value={entry.exam}
                        error={at('requirement.exam')}
                        onChange={(event) =>
                          change(index, { ...entry, exam: event.target.value, min_class: '', min_aggregate: '' })
                        }
                      />
                      {system && system.aggregate.classes.length > 0 ? (
                        <SelectField
                          label={f('min_class', { label: system.aggregate.label })}
                          placeholder={f('choose')}
                          options={system.aggregate.classes.map((entry) => ({
                            value: entry.label,
                            label: entry.label,
                          }))}
                          value={entry.min_class}
                          error={at('requirement.min_class')}
                          onChange={(event) => change(index, { ...entry, min_class: event.target.value })}
                        />
                      ) : (
                        system && (
                          <TextField
                            label={f('min_aggregate', { label: system.aggregate.label })}
                            hint={f(system.aggregate.better === 'lower' ? 'aggregate_lower' : 'aggregate_higher', {
                              low: number.format(system.aggregate.range[0]),
                              high: number.format(system.aggregate.range[1]),
                            })}
                            type="number"
                            inputMode="decimal"
                            step="any"
                            value={entry.min_aggregate}
                            error={at('requirement.min_aggregate')}
                            onChange={(event) => change(index, { ...entry, min_aggregate: event.target.value })}
                          />
                        )
                      )}
                    </div>
                  )}
                  <button
                    type="button"
                    className="btn-secondary self-start text-danger"
                    onClick={() => setConditions((current) => current.filter((_, at) => at !== index))}
                  >
                    {f('remove_condition', { number: number.format(index + 1) })}
                  </button>
                </div>
              );
            })}
            {conditions.length < OFFER_CONDITIONS_MAX && (
              <div className="flex flex-wrap gap-2">
                <button
                  type="button"
                  className="btn-secondary"
                  onClick={() => setConditions((current) => [...current, { kind: 'text', text: '' }])}
                >
                  {f('add_text')}
                </button>
                <button
                  type="button"
                  className="btn-secondary"
                  onClick={() =>
                    setConditions((current) => [
                      ...current,
                      { kind: 'exam', exam: '', min_class: '', min_aggregate: '' },
                    ])
                  }
                >
                  {f('add_exam')}
                </button>
              </div>
            )}
          </fieldset>
          <TextField
            label={f('reply_by')}
            hint={f('reply_by_hint')}
            optional
            type="date"
            min={tomorrow()}
            value={replyBy}
            error={errors.reply_by}
            onChange={(event) => setReplyBy(event.target.value)}
          />
        </>
      )}
      {save.isError && Object.keys(errors).length === 0 && <FormAlert>{t(errorMessageKey(save.error))}</FormAlert>}
      <button type="submit" className="btn-primary self-start" disabled={save.isPending}>
        {f('save')}
      </button>
    </form>
  );
}
