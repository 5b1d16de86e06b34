import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { CampusInputSchema, type Campus, type CampusInput } from '@kaminuza/shared';
import { Dialog } from '../../../components/dialog.tsx';
import { FormAlert, SelectField, TextField } from '../../../components/form/field.tsx';
import { showFieldErrors, useCountryOptions } from '../../../components/form/account-fields.tsx';
import { errorMessageKey, fieldErrors } from '../../../lib/error-messages.ts';
import { useCreateCampus } from '../api/create-campus.ts';
import { useUpdateCampus } from '../api/update-campus.ts';

/** Adds a campus, or edits `campus`. */
export function CampusDialog({
  partnerId,
  campus,
  onClose,
}: {
  partnerId: string;
  campus: Campus | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const countries = useCountryOptions();
  const create = useCreateCampus(partnerId);
  const update = useUpdateCampus(partnerId);
  const save = campus ? update : create;
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<CampusInput>({
    resolver: zodResolver(CampusInputSchema),
    defaultValues: campus
      ? { name: campus.name, address: campus.address, city: campus.city, country: campus.country }
      : { name: '', address: '', city: '', country: '' },
  });

  const onSubmit = handleSubmit((input) => {
    const options = { onSuccess: onClose, onError: (error: unknown) => showFieldErrors(error, setError) };
    if (campus) update.mutate({ id: campus.id, input }, options);
    else create.mutate(input, options);
  });

  const f = (key: string) => t(`programs.campus_form.${key}`);
  return (
    <Dialog
      title={campus ? t('programs.campus_form.edit_title') : t('programs.campus_form.add_title')}
      onClose={onClose}
    >
      {() => (
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
          <TextField label={f('name')} autoComplete="off" error={errors.name?.message} {...register('name')} />
          <TextField
            label={f('address')}
            optional
            autoComplete="street-address"
            error={errors.address?.message}
            {...register('address')}
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              label={f('city')}
              autoComplete="address-level2"
              error={errors.city?.message}
              {...register('city')}
            />
            <SelectField
              label={f('country')}
              placeholder={f('choose_country')}
              options={countries}
              error={errors.country?.message}
              {...register('country')}
            />
          </div>
          {save.isError && Object.keys(fieldErrors(save.error)).length === 0 && (
            <FormAlert>{t(errorMessageKey(save.error))}</FormAlert>
          )}
          <div className="flex flex-wrap justify-end gap-2">
            <button type="button" className="btn-secondary" onClick={onClose}>
              {t('programs.cancel')}
            </button>
            <button type="submit" className="btn-primary" disabled={save.isPending}>
              {save.isPending ? t('programs.saving') : f('save')}
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
