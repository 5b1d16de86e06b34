import { useMemo } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import {
  LANGUAGES,
  PartnerGeneralSettingsUpdateSchema,
  timeZones,
  type PartnerGeneralSettings,
} from '@kaminuza/shared';
import { FormAlert, SelectField, useMessage } from '../../../components/form/field.tsx';
import { InvalidFormAlert, showFieldErrors } from '../../../components/form/account-fields.tsx';
import { errorMessageKey } from '../../../lib/error-messages.ts';
import { displayName, timeZoneLabel } from '../../../lib/intl.ts';
import { useCycles } from '../api/get-cycles.ts';
import { useUpdateGeneral } from '../api/update-general-settings.ts';
import { SaveBar, SettingsSection } from './form-parts.tsx';

type GeneralInput = z.input<typeof PartnerGeneralSettingsUpdateSchema>;
type GeneralOutput = z.output<typeof PartnerGeneralSettingsUpdateSchema>;

/** Currencies institutions on the continent charge in most, then the ones of international fees. */
export const CURRENCIES = [
  'USD',
  'EUR',
  'GBP',
  'RWF',
  'KES',
  'UGX',
  'TZS',
  'BIF',
  'CDF',
  'ETB',
  'NGN',
  'GHS',
  'XOF',
  'XAF',
  'ZAR',
  'EGP',
  'MAD',
] as const;

/**
 * Currency options named in the reader's language (the code is kept, as finance staff use it). CLDR has no
 * currency names in Kinyarwanda: they are English there.
 */
export function useCurrencyOptions(current: string) {
  const { i18n } = useTranslation();
  return useMemo(() => {
    const codes: string[] = CURRENCIES.includes(current as (typeof CURRENCIES)[number])
      ? [...CURRENCIES]
      : [current, ...CURRENCIES];
    return codes.map((code) => ({ value: code, label: `${code} — ${displayName(i18n.language, 'currency', code)}` }));
  }, [i18n.language, current]);
}

/**
 * Africa's zones first (most institutions are there), then UTC and the rest of the world, each by its city
 * and its name in the reader's language.
 */
function zoneOptions(language: string) {
  const zones = timeZones();
  const african = zones.filter((zone) => zone.startsWith('Africa/'));
  const rest = zones.filter((zone) => !zone.startsWith('Africa/') && zone !== 'UTC');
  return [...african, 'UTC', ...rest].map((zone) => ({ value: zone, label: timeZoneLabel(language, zone) }));
}

export function GeneralSettingsForm({
  partnerId,
  canEdit,
  general,
}: {
  partnerId: string;
  canEdit: boolean;
  general: PartnerGeneralSettings;
}) {
  const { t, i18n } = useTranslation();
  const message = useMessage();
  const update = useUpdateGeneral(partnerId);
  const cycles = useCycles(partnerId);
  const zones = useMemo(() => zoneOptions(i18n.language), [i18n.language]);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    control,
    formState: { errors, isDirty },
  } = useForm<GeneralInput, unknown, GeneralOutput>({
    resolver: zodResolver(PartnerGeneralSettingsUpdateSchema),
    defaultValues: general,
  });
  const currencies = useCurrencyOptions(useWatch({ control, name: 'default_currency' }));
  const languageName = (language: string) => t(`partner_settings.general.language_names.${language}`);

  const onSubmit = handleSubmit((values) =>
    update.mutate(values, {
      onSuccess: (saved) => reset(saved.general),
      onError: (error) => showFieldErrors(error, setError),
    }),
  );

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-6">
      <fieldset disabled={!canEdit} className="flex min-w-0 flex-col gap-6">
        <InvalidFormAlert errors={errors} />
        <SettingsSection id="settings-languages" title={t('partner_settings.general.languages_title')}>
          <fieldset className="min-w-0" aria-describedby="supported-languages-hint">
            <legend className="mb-1 font-medium">{t('partner_settings.general.supported_languages')}</legend>
            <p id="supported-languages-hint" className="mb-2 text-sm text-muted">
              {t('partner_settings.general.supported_languages_hint')}
            </p>
            <div className="flex flex-wrap gap-x-6 gap-y-2">
              {LANGUAGES.map((language) => (
                <label key={language} className="flex min-h-11 cursor-pointer items-center gap-3">
                  <input
                    type="checkbox"
                    value={language}
                    className="size-5 shrink-0 accent-brand"
                    {...register('supported_languages')}
                  />
                  <span>{languageName(language)}</span>
                </label>
              ))}
            </div>
            {errors.supported_languages?.message && (
              <p className="mt-1 text-sm font-medium text-danger">{message(errors.supported_languages.message)}</p>
            )}
          </fieldset>
          <SelectField
            label={t('partner_settings.general.default_language')}
            placeholder={t('partner_settings.choose')}
            options={LANGUAGES.map((language) => ({ value: language, label: languageName(language) }))}
            error={errors.default_language?.message}
            {...register('default_language')}
          />
        </SettingsSection>

        <SettingsSection id="settings-region" title={t('partner_settings.general.region_title')}>
          <div className="grid gap-4 sm:grid-cols-2">
            <SelectField
              label={t('partner_settings.general.currency')}
              hint={t('partner_settings.general.currency_hint')}
              placeholder={t('partner_settings.choose')}
              options={currencies}
              error={errors.default_currency?.message}
              {...register('default_currency')}
            />
            <SelectField
              label={t('partner_settings.general.timezone')}
              hint={t('partner_settings.general.timezone_hint')}
              placeholder={t('partner_settings.choose')}
              options={zones}
              error={errors.timezone?.message}
              {...register('timezone')}
            />
          </div>
        </SettingsSection>

        <SettingsSection id="settings-cycle" title={t('partner_settings.general.cycle_title')}>
          {cycles.isPending && <p className="text-muted">{t('partner_settings.general.cycles_loading')}</p>}
          {cycles.isError && (
            // Without the list the current cycle is kept as it is; the rest of the form still saves.
            <FormAlert>
              {t('partner_settings.general.cycles_error')} {t(errorMessageKey(cycles.error))}
            </FormAlert>
          )}
          {cycles.data && (
            <SelectField
              label={t('partner_settings.general.current_cycle')}
              hint={
                cycles.data.length === 0
                  ? t('partner_settings.general.no_cycles')
                  : t('partner_settings.general.current_cycle_hint')
              }
              placeholder={t('partner_settings.general.no_current_cycle')}
              options={cycles.data.map((cycle) => ({ value: cycle.id, label: cycle.name }))}
              error={errors.current_cycle_id?.message}
              {...register('current_cycle_id', { setValueAs: (value: string | null) => value || null })}
            />
          )}
        </SettingsSection>
      </fieldset>
      <SaveBar canEdit={canEdit} pending={update.isPending} saved={update.isSuccess && !isDirty} error={update.error} />
    </form>
  );
}
