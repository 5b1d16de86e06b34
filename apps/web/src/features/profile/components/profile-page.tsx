import { useQueryClient } from '@tanstack/react-query';
import { useId, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { Controller, useFieldArray, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import {
  EDUCATION_LEVELS,
  EXAMINATIONS,
  EducationProfileSchema,
  GENDERS,
  PersonalProfileSchema,
  VALIDATION_MESSAGES,
  phoneCountryOf,
  type EducationProfile,
  type EducationProfileInput,
  type PersonalProfile,
  type PersonalProfileInput,
  type StudentProfile,
} from '@kaminuza/shared';
import { FormAlert, SelectField, TextField, useMessage } from '../../../components/form/field.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { Tabs as TabView } from '../../../components/tabs.tsx';
import { EMPTY_SCHOOL, SchoolPicker } from '../../../components/profile-fields/school-picker.tsx';
import { countryOptions } from '../../../lib/countries.ts';
import { errorMessageKey, fieldErrors } from '../../../lib/error-messages.ts';
import { profileQuery, useProfile } from '../api/get-profile.ts';
import { useUpdateProfile } from '../api/update-profile.ts';
import { ProfilePictureInput } from '../../../components/upload/profile-picture-input.tsx';
import { DocumentsTab } from './documents-tab.tsx';

const TABS = ['personal', 'education', 'documents'] as const;
type Tab = (typeof TABS)[number];

/** The student's profile at /profile: completion, and the Personal, Education and Documents tabs. */
export function ProfilePage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const profile = useProfile();
  return (
    <section className="mx-auto flex max-w-3xl flex-col gap-6">
      <h1 className="text-3xl font-bold tracking-tight">{t('profile.title')}</h1>
      {profile.isPending ? (
        <Spinner />
      ) : profile.isError ? (
        <div className="flex flex-col gap-3">
          <FormAlert>{t(errorMessageKey(profile.error))}</FormAlert>
          <button type="button" className="btn-secondary self-start" onClick={() => void profile.refetch()}>
            {t('profile.retry')}
          </button>
        </div>
      ) : (
        <>
          <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
            <ProfilePictureInput
              pictureUrl={profile.data.profile_picture}
              onUploaded={() => void queryClient.invalidateQueries({ queryKey: profileQuery().queryKey })}
            />
            <div className="sm:w-1/2">
              <Completion value={profile.data.profile_completion} />
            </div>
          </div>
          <Tabs profile={profile.data} />
        </>
      )}
    </section>
  );
}

function Completion({ value }: { value: number }) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="flex flex-col gap-2">
      <p id={id} className="font-medium">
        {t('profile.completion', { value })}
      </p>
      <div
        role="progressbar"
        aria-labelledby={id}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={value}
        className="h-3 overflow-hidden rounded-full bg-surface-muted"
      >
        <div className="h-full bg-brand" style={{ width: `${value}%` }} />
      </div>
    </div>
  );
}

/** The Personal, Education and Documents tabs. */
function Tabs({ profile }: { profile: StudentProfile }) {
  const { t } = useTranslation();
  // The open tab lives in the address (?tab=documents), so it can be linked to and survives a reload.
  const [params, setParams] = useSearchParams();
  const tab: Tab = TABS.find((name) => name === params.get('tab')) ?? 'personal';
  const setTab = (next: Tab) => setParams(next === 'personal' ? {} : { tab: next }, { replace: true });
  return (
    <TabView
      label={t('profile.tabs.label')}
      items={TABS.map((name) => ({ id: name, label: t(`profile.tabs.${name}`) }))}
      value={tab}
      onChange={setTab}
    >
      {tab === 'personal' && <PersonalForm profile={profile} />}
      {tab === 'education' && <EducationForm profile={profile} />}
      {tab === 'documents' && <DocumentsTab />}
    </TabView>
  );
}

function useCountries() {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? 'en';
  return useMemo(() => countryOptions(language), [language]);
}

/** The result of a save: the general message, a failure, or a confirmation. */
function SaveStatus({ hasErrors, failure, saved }: { hasErrors: boolean; failure: string | null; saved: boolean }) {
  const { t } = useTranslation();
  const message = useMessage();
  return (
    <>
      {hasErrors && <FormAlert>{message(VALIDATION_MESSAGES.general)}</FormAlert>}
      {failure && <FormAlert>{failure}</FormAlert>}
      {saved && <FormAlert tone="success">{t('profile.saved')}</FormAlert>}
    </>
  );
}

function useSave() {
  const { t } = useTranslation();
  const update = useUpdateProfile();
  const failure = update.isError
    ? Object.keys(fieldErrors(update.error)).length > 0
      ? null
      : t(errorMessageKey(update.error, { fallback: 'profile.errors.save_failed' }))
    : null;
  return { update, failure, saved: update.isSuccess };
}

function PersonalForm({ profile }: { profile: StudentProfile }) {
  const { t } = useTranslation();
  const countries = useCountries();
  const { update, failure, saved } = useSave();
  const form = useForm<PersonalProfileInput, unknown, PersonalProfile>({
    resolver: zodResolver(PersonalProfileSchema),
    mode: 'onSubmit',
    defaultValues: {
      first_name: profile.first_name ?? '',
      last_name: profile.last_name ?? '',
      preferred_name: profile.preferred_name ?? '',
      phone_country: phoneCountryOf(profile.phone) ?? profile.country_of_residence ?? '',
      phone: profile.phone ?? '',
      date_of_birth: profile.date_of_birth ?? '',
      gender: profile.gender ?? ('' as never),
      nationality: profile.nationality ?? '',
      address: profile.address ?? '',
      city: profile.city ?? '',
      country: profile.country ?? '',
      country_of_residence: profile.country_of_residence ?? '',
      postal_code: profile.postal_code ?? '',
    },
  });
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit((values) =>
    update.mutate(
      { section: 'personal', values },
      {
        // What is saved becomes the form's baseline, so the confirmation shows until the next edit.
        onSuccess: () => form.reset(form.getValues()),
        onError: (error) => {
          for (const [path, text] of Object.entries(fieldErrors(error))) {
            form.setError(path.replace(/^values\./, '') as keyof PersonalProfileInput, { message: text });
          }
        },
      },
    ),
  );
  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4" aria-label={t('profile.tabs.personal')}>
      <SaveStatus
        hasErrors={Object.keys(errors).length > 0}
        failure={failure}
        saved={saved && !form.formState.isDirty}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label={t('onboarding.fields.first_name')}
          autoComplete="given-name"
          error={errors.first_name?.message}
          {...form.register('first_name')}
        />
        <TextField
          label={t('onboarding.fields.last_name')}
          autoComplete="family-name"
          error={errors.last_name?.message}
          {...form.register('last_name')}
        />
      </div>
      <TextField
        label={t('onboarding.fields.preferred_name')}
        optional
        autoComplete="nickname"
        error={errors.preferred_name?.message}
        {...form.register('preferred_name')}
      />
      <TextField
        label={t('profile.email')}
        type="email"
        value={profile.email}
        readOnly
        hint={t('profile.email_hint')}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          label={t('onboarding.fields.phone_country')}
          placeholder={t('onboarding.choose')}
          options={countries}
          error={errors.phone_country?.message}
          {...form.register('phone_country')}
        />
        <TextField
          label={t('onboarding.fields.phone')}
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          error={errors.phone?.message}
          {...form.register('phone')}
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label={t('onboarding.fields.date_of_birth')}
          type="date"
          autoComplete="bday"
          error={errors.date_of_birth?.message}
          {...form.register('date_of_birth')}
        />
        <SelectField
          label={t('onboarding.fields.gender')}
          placeholder={t('onboarding.choose')}
          options={GENDERS.map((g) => ({ value: g, label: t(`onboarding.genders.${g}`) }))}
          error={errors.gender?.message}
          {...form.register('gender')}
        />
      </div>
      <SelectField
        label={t('onboarding.fields.nationality')}
        placeholder={t('onboarding.choose')}
        options={countries}
        error={errors.nationality?.message}
        {...form.register('nationality')}
      />
      <TextField
        label={t('onboarding.fields.address')}
        autoComplete="street-address"
        error={errors.address?.message}
        {...form.register('address')}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label={t('onboarding.fields.city')}
          autoComplete="address-level2"
          error={errors.city?.message}
          {...form.register('city')}
        />
        <TextField
          label={t('onboarding.fields.postal_code')}
          optional
          autoComplete="postal-code"
          error={errors.postal_code?.message}
          {...form.register('postal_code')}
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          label={t('profile.country')}
          placeholder={t('onboarding.choose')}
          options={countries}
          autoComplete="country"
          error={errors.country?.message}
          {...form.register('country')}
        />
        <SelectField
          label={t('onboarding.fields.country_of_residence')}
          placeholder={t('onboarding.choose')}
          options={countries}
          error={errors.country_of_residence?.message}
          {...form.register('country_of_residence')}
        />
      </div>
      <button type="submit" className="btn-primary self-start" disabled={update.isPending}>
        {update.isPending ? t('onboarding.saving') : t('profile.save')}
      </button>
    </form>
  );
}

function EducationForm({ profile }: { profile: StudentProfile }) {
  const { t } = useTranslation();
  const { update, failure, saved } = useSave();
  const form = useForm<EducationProfileInput, unknown, EducationProfile>({
    resolver: zodResolver(EducationProfileSchema),
    mode: 'onSubmit',
    defaultValues: {
      education_level: profile.education_level ?? ('' as never),
      school: profile.school
        ? {
            id: profile.school.id,
            name: profile.school.name,
            city: profile.school.city ?? '',
            state_province: profile.school.state_province ?? '',
            country: profile.school.country ?? '',
            levels_offered: profile.school.levels_offered,
          }
        : EMPTY_SCHOOL,
      graduation_year: profile.graduation_year === null ? '' : String(profile.graduation_year),
      gpa: profile.gpa ?? '',
      major: profile.major ?? '',
      degree_type: profile.degree_type ?? '',
      exam_results: profile.exam_results.map((result) => ({ ...result, year: String(result.year) })),
    } as EducationProfileInput,
  });
  const exams = useFieldArray({ control: form.control, name: 'exam_results' });
  const examValues = useWatch({ control: form.control, name: 'exam_results' });
  const { errors } = form.formState;
  const schoolErrors = errors.school as
    Record<'name' | 'city' | 'country' | 'state_province', { message?: string } | undefined> | undefined;
  const onSubmit = form.handleSubmit((values) =>
    update.mutate(
      { section: 'education', values },
      {
        // What is saved becomes the form's baseline, so the confirmation shows until the next edit.
        onSuccess: () => form.reset(form.getValues()),
        onError: (error) => {
          for (const [path, text] of Object.entries(fieldErrors(error))) {
            form.setError(path.replace(/^values\./, '') as keyof EducationProfileInput, { message: text });
          }
        },
      },
    ),
  );
  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4" aria-label={t('profile.tabs.education')}>
      <SaveStatus
        hasErrors={Object.keys(errors).length > 0}
        failure={failure}
        saved={saved && !form.formState.isDirty}
      />
      <SelectField
        label={t('onboarding.fields.education_level')}
        placeholder={t('onboarding.choose')}
        options={EDUCATION_LEVELS.map((l) => ({ value: l, label: t(`onboarding.education_levels.${l}`) }))}
        error={errors.education_level?.message}
        {...form.register('education_level')}
      />
      <div className="flex flex-col gap-2">
        <h2 className="font-semibold">{t('onboarding.fields.school')}</h2>
        <Controller
          control={form.control}
          name="school"
          render={({ field }) => (
            <SchoolPicker
              value={field.value ?? EMPTY_SCHOOL}
              onChange={field.onChange}
              country={profile.country_of_residence ?? ''}
              errors={{
                name: schoolErrors?.name?.message,
                city: schoolErrors?.city?.message,
                country: schoolErrors?.country?.message,
                state_province: schoolErrors?.state_province?.message,
              }}
            />
          )}
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label={t('profile.graduation_year')}
          optional
          inputMode="numeric"
          error={errors.graduation_year?.message}
          {...form.register('graduation_year')}
        />
        <TextField label={t('profile.gpa')} optional error={errors.gpa?.message} {...form.register('gpa')} />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label={t('profile.major')} optional error={errors.major?.message} {...form.register('major')} />
        <TextField
          label={t('profile.degree_type')}
          optional
          error={errors.degree_type?.message}
          {...form.register('degree_type')}
        />
      </div>
      <fieldset className="flex flex-col gap-3">
        <legend className="mb-1 font-semibold">{t('profile.exams.title')}</legend>
        {exams.fields.length === 0 && <p className="text-sm text-muted">{t('profile.exams.empty')}</p>}
        {errors.exam_results?.message && <FieldError text={errors.exam_results.message} />}
        {exams.fields.map((exam, index) => {
          const rowErrors = errors.exam_results?.[index];
          const examination = examValues?.[index]?.examination;
          return (
            <fieldset key={exam.id} className="flex flex-col gap-3 rounded-lg border border-border p-3">
              <legend className="px-1 text-sm font-medium">{t('profile.exams.row', { number: index + 1 })}</legend>
              <div className="grid gap-3 sm:grid-cols-2">
                <SelectField
                  label={t('profile.exams.examination')}
                  placeholder={t('onboarding.choose')}
                  options={EXAMINATIONS.map((e) => ({ value: e, label: t(`profile.exams.names.${e}`) }))}
                  error={rowErrors?.examination?.message}
                  {...form.register(`exam_results.${index}.examination`)}
                />
                {examination === 'other' && (
                  <TextField
                    label={t('profile.exams.other_name')}
                    error={rowErrors?.name?.message}
                    {...form.register(`exam_results.${index}.name`)}
                  />
                )}
                <TextField
                  label={t('profile.exams.grade')}
                  error={rowErrors?.grade?.message}
                  {...form.register(`exam_results.${index}.grade`)}
                />
                <TextField
                  label={t('profile.exams.year')}
                  inputMode="numeric"
                  error={rowErrors?.year?.message}
                  {...form.register(`exam_results.${index}.year`)}
                />
              </div>
              <button type="button" className="btn-secondary self-start" onClick={() => exams.remove(index)}>
                {t('profile.exams.remove', { number: index + 1 })}
              </button>
            </fieldset>
          );
        })}
        <button
          type="button"
          className="btn-secondary self-start"
          onClick={() => exams.append({ examination: '' as never, name: '', grade: '', year: '' })}
        >
          {t('profile.exams.add')}
        </button>
      </fieldset>
      <button type="submit" className="btn-primary self-start" disabled={update.isPending}>
        {update.isPending ? t('onboarding.saving') : t('profile.save')}
      </button>
    </form>
  );
}

function FieldError({ text }: { text: string }) {
  const message = useMessage();
  return <p className="text-sm font-medium text-danger">{message(text)}</p>;
}
