import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldValues } from 'react-hook-form';
import { GENDERS } from '@kaminuza/shared';
import { SelectField, TextField } from '../form/field.tsx';
import { fieldOf, type FormBinding } from './form-binding.ts';
import { useCountries } from './use-countries.ts';

/*
 * The personal fields of the student profile, shared by the onboarding steps and the profile's Personal
 * form so both ask for the same values in the same words.
 */

/** 'step': one field a line, with the onboarding hints; 'form': related fields side by side (profile). */
export type FieldLayout = 'step' | 'form';

/** A form that has these fields (the optional ones may be left out of its input type). */
type Having<Required extends string, Optional extends string = never> = FieldValues & {
  [K in Required]: unknown;
} & { [K in Optional]?: unknown };

interface GroupProps<T extends FieldValues, O> {
  form: FormBinding<T, O>;
  layout: FieldLayout;
}

/** Fields side by side on wider screens in the profile form; one under the other in a step. */
function Pair({ layout, children }: { layout: FieldLayout; children: ReactNode }) {
  return layout === 'form' ? <div className="grid gap-4 sm:grid-cols-2">{children}</div> : children;
}

export function NameFields<T extends Having<'first_name' | 'last_name', 'preferred_name'>, O>({
  form,
  layout,
}: GroupProps<T, O>) {
  const { t } = useTranslation();
  const field = fieldOf(form);
  return (
    <>
      <Pair layout={layout}>
        <TextField label={t('onboarding.fields.first_name')} autoComplete="given-name" {...field('first_name')} />
        <TextField label={t('onboarding.fields.last_name')} autoComplete="family-name" {...field('last_name')} />
      </Pair>
      <TextField
        label={t('onboarding.fields.preferred_name')}
        optional
        autoComplete="nickname"
        {...field('preferred_name')}
      />
    </>
  );
}

/** A country picked from the list, in the interface's language. */
export function CountryField<T extends FieldValues, O>({
  form,
  name,
  label,
  autoComplete,
}: {
  form: FormBinding<T, O>;
  name: keyof T & string;
  label: string;
  autoComplete?: string;
}) {
  const { t } = useTranslation();
  const countries = useCountries();
  return (
    <SelectField
      label={label}
      placeholder={t('onboarding.choose')}
      options={countries}
      autoComplete={autoComplete}
      {...fieldOf(form)(name)}
    />
  );
}

/** Date of birth, gender and nationality. */
export function AboutFields<T extends Having<'date_of_birth' | 'gender' | 'nationality'>, O>({
  form,
  layout,
}: GroupProps<T, O>) {
  const { t } = useTranslation();
  const field = fieldOf(form);
  return (
    <>
      <Pair layout={layout}>
        <TextField
          label={t('onboarding.fields.date_of_birth')}
          type="date"
          autoComplete="bday"
          {...field('date_of_birth')}
        />
        <SelectField
          label={t('onboarding.fields.gender')}
          placeholder={t('onboarding.choose')}
          options={GENDERS.map((g) => ({ value: g, label: t(`onboarding.genders.${g}`) }))}
          {...field('gender')}
        />
      </Pair>
      <CountryField form={form} name="nationality" label={t('onboarding.fields.nationality')} />
    </>
  );
}

/** The phone number and the country it is read in. */
export function PhoneFields<T extends Having<'phone_country' | 'phone'>, O>({ form, layout }: GroupProps<T, O>) {
  const { t } = useTranslation();
  const step = layout === 'step';
  return (
    <Pair layout={layout}>
      <CountryField
        form={form}
        name="phone_country"
        label={t('onboarding.fields.phone_country')}
        autoComplete={step ? 'tel-country-code' : undefined}
      />
      <TextField
        label={t('onboarding.fields.phone')}
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        hint={step ? t('onboarding.fields.phone_hint') : undefined}
        {...fieldOf(form)('phone')}
      />
    </Pair>
  );
}

/** Street address, then city and postal code side by side. */
export function AddressFields<T extends Having<'address' | 'city', 'postal_code'>, O>({
  form,
  layout,
}: GroupProps<T, O>) {
  const { t } = useTranslation();
  const field = fieldOf(form);
  return (
    <>
      <TextField
        label={t('onboarding.fields.address')}
        autoComplete="street-address"
        hint={layout === 'step' ? t('onboarding.fields.address_hint') : undefined}
        {...field('address')}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label={t('onboarding.fields.city')} autoComplete="address-level2" {...field('city')} />
        <TextField
          label={t('onboarding.fields.postal_code')}
          optional
          autoComplete="postal-code"
          {...field('postal_code')}
        />
      </div>
    </>
  );
}
