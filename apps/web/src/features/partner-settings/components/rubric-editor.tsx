import { useFieldArray, useWatch, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { RUBRIC_MAX_CRITERIA, type PartnerAdmissionsSettingsUpdateSchema } from '@kaminuza/shared';
import { TextField, useMessage } from '../../../components/form/field.tsx';

type AdmissionsForm = UseFormReturn<
  z.input<typeof PartnerAdmissionsSettingsUpdateSchema>,
  unknown,
  z.output<typeof PartnerAdmissionsSettingsUpdateSchema>
>;

const ID_MAX = 48;

/**
 * A criterion's id from its name: lower case, accents dropped, words joined by '-', made unique among
 * `taken`. Scores are stored by id, so a criterion keeps the id it was saved with when renamed.
 */
export function criterionId(name: string, taken: Iterable<string>): string {
  const base =
    name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, ID_MAX)
      .replace(/-+$/, '') || 'criterion';
  const used = new Set(taken);
  if (!used.has(base)) return base;
  for (let suffix = 2; ; suffix += 1) {
    const candidate = `${base}-${suffix}`;
    if (!used.has(candidate)) return candidate;
  }
}

/** The review rubric: criteria each reviewer scores from 0 to 100, with the weight of each in the total. */
export function RubricEditor({
  form,
  canEdit,
  savedIds,
}: {
  form: AdmissionsForm;
  canEdit: boolean;
  /** The ids of the rubric as saved: those rows keep their id; the others take it from their name. */
  savedIds: readonly string[];
}) {
  const { t } = useTranslation();
  const message = useMessage();
  const {
    control,
    register,
    setValue,
    getValues,
    formState: { errors },
  } = form;
  const criteria = useFieldArray({ control, name: 'rubric' });
  const rows = useWatch({ control, name: 'rubric' }) ?? [];
  const weights = rows.reduce((sum, row) => sum + (Number.isFinite(row?.weight) ? Number(row.weight) : 0), 0);
  const l = (key: string, values: Record<string, unknown> = {}) => t(`partner_settings.admissions.${key}`, values);
  const asNumber = { setValueAs: (value: unknown) => (value === '' ? Number.NaN : Number(value)) };
  const rubricError = errors.rubric?.message ?? errors.rubric?.root?.message;

  const rename = (index: number, name: string) => {
    const current = getValues(`rubric.${index}.id`);
    if (current === undefined || savedIds.includes(current)) return;
    const others = (getValues('rubric') ?? []).filter((_, i) => i !== index).map((row) => row.id);
    setValue(`rubric.${index}.id`, criterionId(name, others));
  };

  return (
    <>
      <p className="text-sm text-muted">{l('rubric_hint')}</p>
      <ol aria-label={l('rubric_title')} className="flex flex-col gap-3">
        {criteria.fields.map((field, index) => {
          const name = rows[index]?.name || l('criterion_unnamed');
          const weight = Number(rows[index]?.weight);
          const share = weights > 0 && Number.isFinite(weight) ? Math.round((weight / weights) * 100) : null;
          const rowErrors = errors.rubric?.[index];
          return (
            <li
              key={field.id}
              className="flex min-w-0 flex-col gap-2 rounded-xl border border-border p-3 sm:flex-row sm:items-start"
            >
              <div className="min-w-0 flex-1">
                <TextField
                  label={l('criterion_name', { position: index + 1 })}
                  autoComplete="off"
                  maxLength={80}
                  error={rowErrors?.name?.message ?? rowErrors?.id?.message}
                  {...register(`rubric.${index}.name`, { onChange: (event) => rename(index, event.target.value) })}
                />
              </div>
              <div className="sm:w-40">
                <TextField
                  label={l('criterion_weight', { position: index + 1 })}
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={100}
                  step={1}
                  hint={share === null ? undefined : l('criterion_share', { share })}
                  error={rowErrors?.weight?.message}
                  {...register(`rubric.${index}.weight`, asNumber)}
                />
              </div>
              <div className="flex flex-wrap gap-2 sm:pt-7">
                <button
                  type="button"
                  className="btn-secondary"
                  disabled={index === 0}
                  aria-label={l('criterion_up', { name })}
                  onClick={() => criteria.move(index, index - 1)}
                >
                  <span aria-hidden="true">↑</span>
                </button>
                <button
                  type="button"
                  className="btn-secondary"
                  disabled={index === criteria.fields.length - 1}
                  aria-label={l('criterion_down', { name })}
                  onClick={() => criteria.move(index, index + 1)}
                >
                  <span aria-hidden="true">↓</span>
                </button>
                <button
                  type="button"
                  className="btn-secondary text-danger"
                  disabled={criteria.fields.length === 1}
                  aria-label={l('criterion_remove', { name })}
                  onClick={() => criteria.remove(index)}
                >
                  {l('remove')}
                </button>
              </div>
            </li>
          );
        })}
      </ol>
      {rubricError && <p className="text-sm font-medium text-danger">{message(rubricError)}</p>}
      {canEdit && (
        <div className="flex flex-wrap items-center gap-3">
          <button
            type="button"
            className="btn-secondary"
            disabled={criteria.fields.length >= RUBRIC_MAX_CRITERIA}
            onClick={() => {
              const taken = (getValues('rubric') ?? []).map((row) => row.id);
              criteria.append({ id: criterionId('', taken), name: '', weight: 1 });
            }}
          >
            {l('criterion_add')}
          </button>
          <p className="text-sm text-muted">{l('criteria_limit', { max: RUBRIC_MAX_CRITERIA })}</p>
        </div>
      )}
    </>
  );
}
