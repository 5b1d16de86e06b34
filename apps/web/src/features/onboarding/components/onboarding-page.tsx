import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Navigate, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import {
  EDUCATION_LEVELS,
  GENDERS,
  LANGUAGES,
  LAST_ONBOARDING_STEP,
  ONBOARDING_STEPS,
  OnboardingStep0Schema,
  OnboardingStep1Schema,
  OnboardingStep2Schema,
  OnboardingStep3Schema,
  OnboardingStep4Schema,
  OnboardingStep5Schema,
  VALIDATION_MESSAGES,
  phoneCountryOf,
  type StudentProfile,
} from '@kaminuza/shared';
import { FormAlert, SelectField, TextField, useMessage } from '../../../components/form/field.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { CityCombobox } from '../../../components/profile-fields/city-combobox.tsx';
import { EMPTY_SCHOOL, SchoolPicker } from '../../../components/profile-fields/school-picker.tsx';
import { ProfilePictureInput } from '../../../components/upload/profile-picture-input.tsx';
import { countryOptions } from '../../../lib/countries.ts';
import { fieldErrors } from '../../../lib/error-messages.ts';
import { paths } from '../../../app/paths.ts';
import { useOnboarding, onboardingQuery } from '../api/get-onboarding.ts';
import { useSaveOnboardingStep } from '../api/save-onboarding-step.ts';
import { useCompleteOnboarding } from '../api/complete-onboarding.ts';
import { useQueryClient } from '@tanstack/react-query';

/** Language names in their own language, so anyone can find theirs. */
const NATIVE_NAMES = { en: 'English', fr: 'Français', rw: 'Kinyarwanda' } as const;

const STEP_TITLES = ['language', 'name', 'about', 'phone', 'address', 'education', 'picture'] as const;

/** Onboarding at /onboarding/student: steps 0–6 (spec section 2), saved after each one and resumable. */
export function OnboardingPage() {
  const { t } = useTranslation();
  const onboarding = useOnboarding();
  if (onboarding.isPending) return <Spinner />;
  if (onboarding.isError) {
    return (
      <section className="mx-auto flex max-w-xl flex-col gap-4">
        <h1 className="text-2xl font-bold">{t('onboarding.title')}</h1>
        <FormAlert>{t('errors.generic')}</FormAlert>
        <button type="button" className="btn-primary self-start" onClick={() => void onboarding.refetch()}>
          {t('onboarding.retry')}
        </button>
      </section>
    );
  }
  if (onboarding.data.is_complete) return <Navigate to={paths.student.home} replace />;
  return <Wizard initialStep={onboarding.data.step} profile={onboarding.data.profile} />;
}

/** What the student typed on each step, kept while they move back and forth. */
type Drafts = Partial<Record<number, object>>;

function Wizard({ initialStep, profile }: { initialStep: number; profile: StudentProfile }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [step, setStep] = useState(initialStep);
  const [drafts, setDrafts] = useState<Drafts>({});
  // Once the student moves between steps, each new step's title takes the focus, announcing it.
  const [moved, setMoved] = useState(false);
  const save = useSaveOnboardingStep();
  const complete = useCompleteOnboarding();

  const keep = (values: object) => setDrafts((current) => ({ ...current, [step]: values }));
  const back = (values: object) => {
    keep(values);
    save.reset();
    setMoved(true);
    setStep((current) => Math.max(0, current - 1));
  };
  const submit = async (values: object): Promise<Record<string, string> | null> => {
    keep(values);
    try {
      await save.mutateAsync({ step, values });
    } catch (error) {
      return fieldErrors(error);
    }
    if (step < LAST_ONBOARDING_STEP) {
      setMoved(true);
      setStep(step + 1);
      return null;
    }
    try {
      await complete.mutateAsync();
    } catch (error) {
      return fieldErrors(error);
    }
    void navigate(paths.student.home, { replace: true });
    return null;
  };

  const failure = save.isError
    ? t('profile.errors.save_failed')
    : complete.isError
      ? t('profile.errors.complete_failed')
      : null;
  const frame: FrameProps = {
    step,
    focusTitle: moved,
    failure,
    pending: save.isPending || complete.isPending,
    onBack: back,
  };
  const draft = drafts[step];
  const props = { frame, profile, onSubmit: submit };

  return (
    <section className="mx-auto flex max-w-xl flex-col gap-6">
      <div className="flex flex-col gap-3">
        <h1 className="text-3xl font-bold tracking-tight">{t('onboarding.title')}</h1>
        <p className="text-muted">{t('onboarding.intro')}</p>
        <StepIndicator step={step} />
      </div>
      {step === 0 && <LanguageStep {...props} draft={draft} />}
      {step === 1 && <NameStep {...props} draft={draft} />}
      {step === 2 && <AboutStep {...props} draft={draft} />}
      {step === 3 && <PhoneStep {...props} draft={draft} />}
      {step === 4 && <AddressStep {...props} draft={draft} />}
      {step === 5 && <EducationStep {...props} draft={draft} />}
      {step === 6 && <PictureStep {...props} />}
    </section>
  );
}

function StepIndicator({ step }: { step: number }) {
  const { t } = useTranslation();
  const label = t('onboarding.step_of', { current: step + 1, total: ONBOARDING_STEPS });
  return (
    <div className="flex flex-col gap-2">
      <p className="text-sm font-medium text-muted">{label}</p>
      <div
        role="progressbar"
        aria-label={t('onboarding.progress')}
        aria-valuemin={1}
        aria-valuemax={ONBOARDING_STEPS}
        aria-valuenow={step + 1}
        aria-valuetext={label}
        className="h-2 overflow-hidden rounded-full bg-surface-muted"
      >
        <div className="h-full bg-brand" style={{ width: `${((step + 1) / ONBOARDING_STEPS) * 100}%` }} />
      </div>
    </div>
  );
}

interface FrameProps {
  step: number;
  focusTitle: boolean;
  failure: string | null;
  pending: boolean;
  onBack: (values: object) => void;
}

/** A step's form: its title, the general and failure messages, its fields, Back and Continue/Finish. */
function StepFrame({
  frame,
  hasErrors,
  onSubmit,
  values,
  children,
}: {
  frame: FrameProps;
  hasErrors: boolean;
  onSubmit: (event: React.FormEvent) => void;
  values: () => object;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const message = useMessage();
  const heading = useRef<HTMLHeadingElement>(null);
  const last = frame.step === LAST_ONBOARDING_STEP;
  const { focusTitle } = frame;
  useEffect(() => {
    if (focusTitle) heading.current?.focus();
  }, [focusTitle]);
  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5" aria-labelledby="onboarding-step-title">
      <h2 id="onboarding-step-title" ref={heading} tabIndex={-1} className="text-xl font-semibold focus:outline-none">
        {t(`onboarding.steps.${STEP_TITLES[frame.step]}`)}
      </h2>
      {hasErrors && <FormAlert>{message(VALIDATION_MESSAGES.general)}</FormAlert>}
      {frame.failure && <FormAlert>{frame.failure}</FormAlert>}
      {children}
      <div className="flex flex-wrap justify-between gap-3">
        {frame.step > 0 ? (
          <button
            type="button"
            className="btn-secondary"
            disabled={frame.pending}
            onClick={() => frame.onBack(values())}
          >
            {t('onboarding.back')}
          </button>
        ) : (
          <span />
        )}
        <button type="submit" className="btn-primary" disabled={frame.pending}>
          {frame.pending ? t('onboarding.saving') : last ? t('onboarding.finish') : t('onboarding.continue')}
        </button>
      </div>
    </form>
  );
}

interface StepProps {
  frame: FrameProps;
  profile: StudentProfile;
  draft?: object | undefined;
  /** Saves the step; answers the server's field errors when it refused them. */
  onSubmit: (values: object) => Promise<Record<string, string> | null>;
}

/** A step's form wired to its shared schema, with what was typed before or saved as its values. */
function useStepForm<S extends z.ZodType<Record<string, unknown>, Record<string, unknown>>>(
  schema: S,
  values: z.input<S>,
) {
  return useForm<z.input<S>, unknown, z.output<S>>({
    // The resolver's generic signature cannot follow a schema passed as a type parameter.
    resolver: zodResolver(schema as never) as never,
    defaultValues: values as never,
    // Checked on Continue, then as the student corrects: a message appearing when a field loses focus
    // would move the buttons under the pointer between press and release, and the click would be lost.
    mode: 'onSubmit',
  });
}

function submitWith<T extends Record<string, unknown>>(
  form: ReturnType<typeof useForm<T>>,
  onSubmit: StepProps['onSubmit'],
) {
  return form.handleSubmit(async (values) => {
    const rejected = await onSubmit(values);
    for (const [field, text] of Object.entries(rejected ?? {})) {
      form.setError(field as never, { message: text });
    }
  });
}

function LanguageStep({ frame, profile, draft, onSubmit }: StepProps) {
  const { t, i18n } = useTranslation();
  const current = LANGUAGES.find((l) => l === i18n.resolvedLanguage) ?? profile.language;
  const form = useStepForm(OnboardingStep0Schema, (draft as never) ?? { language: current });
  const error = form.formState.errors.language?.message;
  const language = form.register('language');
  return (
    <StepFrame frame={frame} hasErrors={!!error} onSubmit={submitWith(form as never, onSubmit)} values={form.getValues}>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 font-medium">{t('onboarding.language.label')}</legend>
        {LANGUAGES.map((lng) => (
          <label key={lng} className="flex min-h-11 items-center gap-3 rounded-lg border border-border px-3">
            <input
              type="radio"
              value={lng}
              className="size-5 accent-brand"
              {...language}
              onChange={(event) => {
                void language.onChange(event);
                // The interface switches at once, before the step is saved.
                void i18n.changeLanguage(event.target.value);
              }}
            />
            <span lang={lng}>{NATIVE_NAMES[lng]}</span>
          </label>
        ))}
      </fieldset>
      {error && <FieldMessage text={error} />}
    </StepFrame>
  );
}

function FieldMessage({ text }: { text: string }) {
  const message = useMessage();
  return <p className="text-sm font-medium text-danger">{message(text)}</p>;
}

function NameStep({ frame, profile, draft, onSubmit }: StepProps) {
  const { t } = useTranslation();
  const form = useStepForm(
    OnboardingStep1Schema,
    (draft as never) ?? {
      first_name: profile.first_name ?? '',
      last_name: profile.last_name ?? '',
      preferred_name: profile.preferred_name ?? '',
    },
  );
  const { errors } = form.formState;
  return (
    <StepFrame
      frame={frame}
      hasErrors={Object.keys(errors).length > 0}
      onSubmit={submitWith(form as never, onSubmit)}
      values={form.getValues}
    >
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
      <TextField
        label={t('onboarding.fields.preferred_name')}
        optional
        autoComplete="nickname"
        error={errors.preferred_name?.message}
        {...form.register('preferred_name')}
      />
    </StepFrame>
  );
}

function useCountries() {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? 'en';
  return useMemo(() => countryOptions(language), [language]);
}

function AboutStep({ frame, profile, draft, onSubmit }: StepProps) {
  const { t } = useTranslation();
  const countries = useCountries();
  const form = useStepForm(
    OnboardingStep2Schema,
    (draft as never) ?? {
      date_of_birth: profile.date_of_birth ?? '',
      gender: profile.gender ?? ('' as never),
      nationality: profile.nationality ?? '',
    },
  );
  const { errors } = form.formState;
  return (
    <StepFrame
      frame={frame}
      hasErrors={Object.keys(errors).length > 0}
      onSubmit={submitWith(form as never, onSubmit)}
      values={form.getValues}
    >
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
      <SelectField
        label={t('onboarding.fields.nationality')}
        placeholder={t('onboarding.choose')}
        options={countries}
        error={errors.nationality?.message}
        {...form.register('nationality')}
      />
    </StepFrame>
  );
}

function PhoneStep({ frame, profile, draft, onSubmit }: StepProps) {
  const { t } = useTranslation();
  const countries = useCountries();
  const form = useStepForm(
    OnboardingStep3Schema,
    (draft as never) ?? {
      phone_country: phoneCountryOf(profile.phone) ?? profile.country_of_residence ?? profile.country ?? '',
      phone: profile.phone ?? '',
    },
  );
  const { errors } = form.formState;
  return (
    <StepFrame
      frame={frame}
      hasErrors={Object.keys(errors).length > 0}
      onSubmit={submitWith(form as never, onSubmit)}
      values={form.getValues}
    >
      <SelectField
        label={t('onboarding.fields.phone_country')}
        placeholder={t('onboarding.choose')}
        options={countries}
        autoComplete="tel-country-code"
        error={errors.phone_country?.message}
        {...form.register('phone_country')}
      />
      <TextField
        label={t('onboarding.fields.phone')}
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        hint={t('onboarding.fields.phone_hint')}
        error={errors.phone?.message}
        {...form.register('phone')}
      />
    </StepFrame>
  );
}

function AddressStep({ frame, profile, draft, onSubmit }: StepProps) {
  const { t } = useTranslation();
  const countries = useCountries();
  const form = useStepForm(
    OnboardingStep4Schema,
    (draft as never) ?? {
      country_of_residence: profile.country_of_residence ?? profile.country ?? '',
      address: profile.address ?? '',
      city: profile.city ?? '',
      postal_code: profile.postal_code ?? '',
    },
  );
  const { errors } = form.formState;
  const country = form.watch('country_of_residence') ?? '';
  return (
    <StepFrame
      frame={frame}
      hasErrors={Object.keys(errors).length > 0}
      onSubmit={submitWith(form as never, onSubmit)}
      values={form.getValues}
    >
      <SelectField
        label={t('onboarding.fields.country_of_residence')}
        placeholder={t('onboarding.choose')}
        options={countries}
        autoComplete="country"
        error={errors.country_of_residence?.message}
        {...form.register('country_of_residence')}
      />
      <CityCombobox
        country={country}
        onPick={(city) => {
          form.setValue('city', city.name, { shouldValidate: true, shouldDirty: true });
          if (!country) form.setValue('country_of_residence', city.country, { shouldValidate: true });
        }}
      />
      <TextField
        label={t('onboarding.fields.address')}
        autoComplete="street-address"
        hint={t('onboarding.fields.address_hint')}
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
    </StepFrame>
  );
}

function EducationStep({ frame, profile, draft, onSubmit }: StepProps) {
  const { t } = useTranslation();
  const form = useStepForm(
    OnboardingStep5Schema,
    (draft as never) ?? {
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
    },
  );
  const { errors } = form.formState;
  const schoolErrors = errors.school as
    Record<'name' | 'city' | 'country' | 'state_province', { message?: string } | undefined> | undefined;
  return (
    <StepFrame
      frame={frame}
      hasErrors={Object.keys(errors).length > 0}
      onSubmit={submitWith(form as never, onSubmit)}
      values={form.getValues}
    >
      <SelectField
        label={t('onboarding.fields.education_level')}
        placeholder={t('onboarding.choose')}
        options={EDUCATION_LEVELS.map((l) => ({ value: l, label: t(`onboarding.education_levels.${l}`) }))}
        error={errors.education_level?.message}
        {...form.register('education_level')}
      />
      <div className="flex flex-col gap-2">
        <h3 className="font-semibold">{t('onboarding.fields.school')}</h3>
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
    </StepFrame>
  );
}

function PictureStep({ frame, profile, onSubmit }: StepProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [rejected, setRejected] = useState(false);
  return (
    <StepFrame
      frame={frame}
      hasErrors={rejected}
      onSubmit={(event) => {
        event.preventDefault();
        void onSubmit({}).then((errors) => setRejected(!!errors && Object.keys(errors).length > 0));
      }}
      values={() => ({})}
    >
      <p className="text-muted">{t('onboarding.picture.intro')}</p>
      <ProfilePictureInput
        pictureUrl={profile.profile_picture}
        onUploaded={() => void queryClient.invalidateQueries({ queryKey: onboardingQuery().queryKey })}
      />
    </StepFrame>
  );
}
