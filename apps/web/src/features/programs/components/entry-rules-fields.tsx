import { useFieldArray, useWatch, type Control, type FieldErrors, type UseFormRegister } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { examSystem, examSystems, scaleOf, standingsOf } from '@kaminuza/shared/exams';
import { examLabel } from '../../../components/exam-sitting-summary.tsx';
import { SelectField, TextField } from '../../../components/form/field.tsx';
import { numberFormat } from '../../../lib/intl.ts';
import { emptyRule, type ProgramForm } from './program-form.ts';

const fieldsetClass = 'flex min-w-0 flex-col gap-3 rounded-xl border border-border p-4';
const legendClass = 'px-1 font-semibold';
const optionalNumber = (value: unknown) => (value === '' || value === null ? null : Number(value));

/**
 * A program's entry rules per examination (issue 25): for each examination it accepts, a minimum number of
 * passes or credits, subjects at minimum grades (with an alternative), a minimum aggregate or class, and
 * how many sittings may be combined. Any one examination's rules met is enough.
 */
export function EntryRulesFields({
  control,
  register,
  errors,
}: {
  control: Control<ProgramForm>;
  register: UseFormRegister<ProgramForm>;
  errors: FieldErrors<ProgramForm>;
}) {
  const { t } = useTranslation();
  const f = (key: string, values: Record<string, unknown> = {}) => t(`programs.entry_rules.${key}`, values);
  const rules = useFieldArray({ control, name: 'rules' });
  const chosen = useWatch({ control, name: 'rules' });
  const used = new Set(chosen.map((rule) => rule.exam));
  return (
    <fieldset className={fieldsetClass}>
      <legend className={legendClass}>{f('title')}</legend>
      <p className="text-sm text-muted">{f('description')}</p>
      {rules.fields.map((field, index) => (
        <ExamRuleFields
          key={field.id}
          index={index}
          control={control}
          register={register}
          errors={errors}
          taken={used}
          onRemove={() => rules.remove(index)}
        />
      ))}
      {rules.fields.length < 12 && (
        <button type="button" className="btn-secondary self-start" onClick={() => rules.append(emptyRule())}>
          {f('add_exam')}
        </button>
      )}
    </fieldset>
  );
}

function ExamRuleFields({
  index,
  control,
  register,
  errors,
  taken,
  onRemove,
}: {
  index: number;
  control: Control<ProgramForm>;
  register: UseFormRegister<ProgramForm>;
  errors: FieldErrors<ProgramForm>;
  taken: ReadonlySet<string>;
  onRemove: () => void;
}) {
  const { t, i18n } = useTranslation();
  const f = (key: string, values: Record<string, unknown> = {}) => t(`programs.entry_rules.${key}`, values);
  const exam = useWatch({ control, name: `rules.${index}.exam` });
  const subjectRules = useFieldArray({ control, name: `rules.${index}.subjects` });
  const subjects = useWatch({ control, name: `rules.${index}.subjects` });
  const system = exam ? examSystem(exam) : null;
  const ruleErrors = errors.rules?.[index];
  const number = numberFormat(i18n.language);
  const subjectOptions = system
    ? [...system.subjects]
        .sort((a, b) => a.name.localeCompare(b.name, i18n.language))
        .map((subject) => ({ value: subject.id, label: subject.name }))
    : [];
  const heading = system ? examLabel(system) : f('new_exam');

  return (
    <section aria-label={heading} className="flex flex-col gap-3 rounded-lg bg-surface-muted p-3">
      <div className="flex flex-wrap items-end gap-3">
        <div className="min-w-0 flex-1">
          <SelectField
            label={f('exam')}
            placeholder={f('choose')}
            options={examSystems()
              .filter((candidate) => candidate.id === exam || !taken.has(candidate.id))
              .map((candidate) => ({ value: candidate.id, label: examLabel(candidate) }))}
            error={ruleErrors?.exam?.message}
            {...register(`rules.${index}.exam`)}
          />
        </div>
        <button
          type="button"
          className="btn-secondary"
          onClick={onRemove}
          aria-label={f('remove_exam', { exam: heading })}
        >
          {f('remove')}
        </button>
      </div>

      {system && (
        <>
          <div className="grid gap-3 sm:grid-cols-2">
            <TextField
              label={f('standing_count')}
              type="number"
              inputMode="numeric"
              min={1}
              max={15}
              optional
              error={ruleErrors?.standing_count?.message}
              {...register(`rules.${index}.standing_count`, { setValueAs: optionalNumber })}
            />
            <SelectField
              label={f('standing')}
              placeholder={f('none')}
              options={standingsOf(system).map((standing) => ({ value: standing, label: f(`standings.${standing}`) }))}
              error={ruleErrors?.standing?.message}
              {...register(`rules.${index}.standing`)}
            />
          </div>

          <fieldset className="flex min-w-0 flex-col gap-3">
            <legend className="text-sm font-semibold">{f('subjects')}</legend>
            {subjectRules.fields.map((field, rule) => {
              const first = subjects[rule]?.first ?? '';
              const scale = first ? scaleOf(system, first) : system.scales.main!;
              const subjectErrors = ruleErrors?.subjects?.[rule];
              return (
                <div key={field.id} className="grid items-end gap-3 sm:grid-cols-[1fr_1fr_8rem_auto]">
                  <SelectField
                    label={f('subject')}
                    placeholder={f('choose')}
                    options={subjectOptions}
                    error={subjectErrors?.first?.message}
                    {...register(`rules.${index}.subjects.${rule}.first`)}
                  />
                  <SelectField
                    label={f('alternative')}
                    placeholder={f('no_alternative')}
                    options={subjectOptions.filter((option) => option.value !== first)}
                    {...register(`rules.${index}.subjects.${rule}.second`)}
                  />
                  {scale.kind === 'grades' ? (
                    <SelectField
                      label={f('min_grade')}
                      placeholder={f('choose')}
                      options={scale.grades.map((grade) => ({ value: grade.grade, label: grade.grade }))}
                      error={subjectErrors?.min_grade?.message}
                      {...register(`rules.${index}.subjects.${rule}.min_grade`)}
                    />
                  ) : (
                    <TextField
                      label={f('min_mark', { max: number.format(scale.max) })}
                      inputMode="decimal"
                      error={subjectErrors?.min_grade?.message}
                      {...register(`rules.${index}.subjects.${rule}.min_grade`)}
                    />
                  )}
                  <button
                    type="button"
                    className="btn-secondary"
                    onClick={() => subjectRules.remove(rule)}
                    aria-label={f('remove_subject', { number: rule + 1 })}
                  >
                    {f('remove')}
                  </button>
                </div>
              );
            })}
            {subjectRules.fields.length < 10 && (
              <button
                type="button"
                className="btn-secondary self-start"
                onClick={() => subjectRules.append({ first: '', second: '', min_grade: '' })}
              >
                {f('add_subject')}
              </button>
            )}
          </fieldset>

          <div className="grid gap-3 sm:grid-cols-2">
            <TextField
              label={f('min_aggregate', { label: system.aggregate.label })}
              hint={f(system.aggregate.better === 'lower' ? 'aggregate_lower' : 'aggregate_higher', {
                low: number.format(system.aggregate.range[0]),
                high: number.format(system.aggregate.range[1]),
              })}
              type="number"
              inputMode="decimal"
              step="any"
              optional
              error={ruleErrors?.min_aggregate?.message}
              {...register(`rules.${index}.min_aggregate`, { setValueAs: optionalNumber })}
            />
            {system.aggregate.classes.length > 0 && (
              <SelectField
                label={f('min_class')}
                placeholder={f('none')}
                options={system.aggregate.classes.map((entry) => ({ value: entry.label, label: entry.label }))}
                error={ruleErrors?.min_class?.message}
                {...register(`rules.${index}.min_class`)}
              />
            )}
            <SelectField
              label={f('sittings')}
              placeholder={f('any_sittings')}
              options={['1', '2', '3'].map((value) => ({
                value,
                label: f('at_most_sittings', { count: Number(value) }),
              }))}
              {...register(`rules.${index}.max_sittings`)}
            />
          </div>
          {system.aggregate.note && <p className="text-sm text-muted">{system.aggregate.note}</p>}
        </>
      )}
    </section>
  );
}
