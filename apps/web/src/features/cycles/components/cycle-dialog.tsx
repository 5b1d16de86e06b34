import { useEffect, useId, useRef } from 'react';
import { Link } from 'react-router';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { CYCLE_STATUSES, CycleInputSchema, type Cycle, type CycleInput, type Program } from '@kaminuza/shared';
import { paths } from '../../../lib/paths.ts';
import { Dialog } from '../../../components/dialog.tsx';
import { CheckboxField, FormAlert, SelectField, TextField, useMessage } from '../../../components/form/field.tsx';
import { showFieldErrors } from '../../../components/form/account-fields.tsx';
import { errorMessageKey, fieldErrors } from '../../../lib/error-messages.ts';
import { useCreateCycle } from '../api/create-cycle.ts';
import { useUpdateCycle } from '../api/update-cycle.ts';

function formValues(cycle: Cycle | null): CycleInput {
  if (!cycle) {
    return { name: '', opens_on: '', closes_on: '', decision_release_on: null, status: 'draft', program_ids: [] };
  }
  return {
    name: cycle.name,
    opens_on: cycle.opens_on,
    closes_on: cycle.closes_on,
    decision_release_on: cycle.decision_release_on,
    status: cycle.status,
    program_ids: cycle.program_ids,
  };
}

/** Adds an admission cycle, or edits `cycle`: its dates, status and the programs it opens. */
export function CycleDialog({
  partnerId,
  cycle,
  programs,
  onClose,
}: {
  partnerId: string;
  cycle: Cycle | null;
  programs: Program[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const message = useMessage();
  const id = useId();
  const create = useCreateCycle(partnerId);
  const update = useUpdateCycle(partnerId);
  const save = cycle ? update : create;
  const {
    register,
    handleSubmit,
    setError,
    control,
    formState: { errors },
  } = useForm<CycleInput>({ resolver: zodResolver(CycleInputSchema), defaultValues: formValues(cycle) });

  const onSubmit = handleSubmit((input) => {
    const options = {
      onSuccess: onClose,
      onError: (error: unknown) =>
        showFieldErrors(error, setError, (field) => (field.startsWith('program_ids') ? 'program_ids' : field)),
    };
    if (cycle) update.mutate({ id: cycle.id, input }, options);
    else create.mutate(input, options);
  });

  const f = (key: string) => t(`cycles.form.${key}`);
  const programsError = errors.program_ids?.message ?? errors.program_ids?.root?.message;
  return (
    <Dialog wide title={cycle ? f('edit_title') : f('add_title')} description={f('description')} onClose={onClose}>
      {() => (
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
          <TextField
            label={f('name')}
            autoComplete="off"
            hint={f('name_hint')}
            error={errors.name?.message}
            {...register('name')}
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField label={f('opens_on')} type="date" error={errors.opens_on?.message} {...register('opens_on')} />
            <TextField
              label={f('closes_on')}
              type="date"
              error={errors.closes_on?.message}
              {...register('closes_on')}
            />
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              label={f('decision_release_on')}
              type="date"
              optional
              error={errors.decision_release_on?.message}
              {...register('decision_release_on', { setValueAs: (value) => (value ? value : null) })}
            />
            <SelectField
              label={f('status')}
              placeholder={f('choose')}
              hint={f('status_hint')}
              options={CYCLE_STATUSES.map((value) => ({ value, label: t(`cycles.statuses.${value}`) }))}
              error={errors.status?.message}
              {...register('status')}
            />
          </div>

          <Controller
            control={control}
            name="program_ids"
            render={({ field }) => (
              <fieldset
                className="flex min-w-0 flex-col gap-3 rounded-xl border border-border p-4"
                aria-describedby={programsError ? `${id}-programs-error` : undefined}
              >
                <legend className="px-1 font-semibold">{f('programs')}</legend>
                {programs.length === 0 ? (
                  <p className="text-sm text-muted">
                    {f('no_programs')}{' '}
                    <Link to={paths.partner.programs} className="link">
                      {f('go_to_programs')}
                    </Link>
                  </p>
                ) : (
                  <>
                    <SelectAll
                      label={f('select_all')}
                      total={programs.length}
                      chosen={field.value.length}
                      onChange={(all) => field.onChange(all ? programs.map((program) => program.id) : [])}
                    />
                    <ul className="flex flex-col gap-2 border-t border-border pt-3">
                      {programs.map((program) => (
                        <li key={program.id}>
                          <CheckboxField
                            label={`${program.name} (${t(`partner.program_levels.${program.level}`)})`}
                            checked={field.value.includes(program.id)}
                            onBlur={field.onBlur}
                            onChange={(event) =>
                              field.onChange(
                                event.target.checked
                                  ? [...field.value, program.id]
                                  : field.value.filter((value) => value !== program.id),
                              )
                            }
                          />
                        </li>
                      ))}
                    </ul>
                  </>
                )}
                {programsError && (
                  <p id={`${id}-programs-error`} className="text-sm font-medium text-danger">
                    {message(programsError)}
                  </p>
                )}
              </fieldset>
            )}
          />

          {save.isError && Object.keys(fieldErrors(save.error)).length === 0 && (
            <FormAlert>{t(errorMessageKey(save.error))}</FormAlert>
          )}
          <div className="flex flex-wrap justify-end gap-2">
            <button type="button" className="btn-secondary" onClick={onClose}>
              {t('cycles.cancel')}
            </button>
            <button type="submit" className="btn-primary" disabled={save.isPending}>
              {save.isPending ? t('cycles.saving') : f('save')}
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}

/** "Select all": checked when every program is chosen, mixed when some are. */
function SelectAll({
  label,
  total,
  chosen,
  onChange,
}: {
  label: string;
  total: number;
  chosen: number;
  onChange: (all: boolean) => void;
}) {
  const box = useRef<HTMLInputElement>(null);
  const some = chosen > 0 && chosen < total;
  useEffect(() => {
    // Mixed is a property only, not an attribute React can set.
    if (box.current) box.current.indeterminate = some;
  }, [some]);
  return (
    <CheckboxField
      ref={box}
      label={label}
      checked={chosen === total}
      onChange={(event) => onChange(event.target.checked)}
    />
  );
}
