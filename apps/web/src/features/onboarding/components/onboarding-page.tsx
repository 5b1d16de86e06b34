import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useForm, type FieldValues, type Path } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, Navigate, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import {
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
import { FormAlert, useMessage } from '../../../components/form/field.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { CityCombobox } from '../../../components/profile-fields/city-combobox.tsx';
import { EducationFields } from '../../../components/profile-fields/education-fields.tsx';
import { type FormBinding } from '../../../components/profile-fields/form-binding.ts';
import { FieldMessage } from '../../../components/profile-fields/field-message.tsx';
import {
  AboutFields,
  AddressFields,
  CountryField,
  NameFields,
  PhoneFields,
} from '../../../components/profile-fields/personal-fields.tsx';
import {
  aboutValues,
  addressValues,
  educationValues,
  nameValues,
} from '../../../components/profile-fields/profile-values.ts';
import { ProfilePictureInput } from '../../../components/upload/profile-picture-input.tsx';
import { fieldErrors } from '../../../lib/error-messages.ts';
import { paths } from '../../../lib/paths.ts';
import { forgetReturn, peekReturn } from '../../../lib/return-to.ts';
import { useOnboarding, onboardingQuery } from '../api/get-onboarding.ts';
import { useSaveOnboardingStep } from '../api/save-onboarding-step.ts';
import { useCompleteOnboarding } from '../api/complete-onboarding.ts';
import { useQueryClient } from '@tanstack/react-query';

/** Language names in their own language, so anyone can find theirs. */
const NATIVE_NAMES = { en: 'English', fr: 'Français', rw: 'Kinyarwanda' } as const;

const STEP_TITLES = ['language', 'name', 'about', 'phone', 'address', 'education', 'picture'] as const;
const STEPS = [LanguageStep, NameStep, AboutStep, PhoneStep, AddressStep, EducationStep, PictureStep] as const;

/** Onboarding at /onboarding/student: steps 0–6 (spec section 2), saved after each one and resumable. */
export function OnboardingPage() {
  const { t } = useTranslation();
  const onboarding = useOnboarding();
  // Where the student was going when they signed up (an application from Explore), else home; read
  // once, so finishing sends them there whichever of the two exits below renders first.
  const [destination] = useState(() => peekReturn() ?? paths.student.home);
  const complete = onboarding.data?.is_complete === true;
  useEffect(() => {
    if (complete) forgetReturn();
  }, [complete]);
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
  if (onboarding.data.is_complete) return <Navigate to={destination} replace />;
  return <Wizard initialStep={onboarding.data.step} profile={onboarding.data.profile} destination={destination} />;
}

/** What the student typed on each step, kept while they move back and forth. */
type Drafts = Partial<Record<number, object>>;

function Wizard({
  initialStep,
  profile,
  destination,
}: {
  initialStep: number;
  profile: StudentProfile;
  destination: string;
}) {
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
    forgetReturn();
    void navigate(destination, { replace: true });
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
  const Step = STEPS[step];

  return (
    <section className="mx-auto flex max-w-xl flex-col gap-6">
      <div className="flex flex-col gap-3">
        <h1 className="text-3xl font-bold tracking-tight">{t('onboarding.title')}</h1>
        <p className="text-muted">{t('onboarding.intro')}</p>
        <StepIndicator step={step} />
      </div>
      {Step && <Step frame={frame} profile={profile} draft={drafts[step]} onSubmit={submit} />}
      <LeaveForNow />
    </section>
  );
}

/**
 * Onboarding closes the rest of the student area, not the account: its settings (password, data download,
 * deletion) stay one link away, and signing out (in the header) keeps the saved steps.
 */
function LeaveForNow() {
  const { t } = useTranslation();
  return (
    <p className="border-t border-border pt-4 text-sm text-muted">
      {t('onboarding.leave.text')}{' '}
      <Link to={paths.student.settings} className="link font-medium">
        {t('onboarding.leave.settings')}
      </Link>
    </p>
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
  draft: object | undefined,
  saved: z.input<S>,
) {
  return useForm<z.input<S>, unknown, z.output<S>>({
    // The resolver's generic signature cannot follow a schema passed as a type parameter.
    resolver: zodResolver(schema as never) as never,
    defaultValues: (draft ?? saved) as never,
    // Checked on Continue, then as the student corrects: a message appearing when a field loses focus
    // would move the buttons under the pointer between press and release, and the click would be lost.
    mode: 'onSubmit',
  });
}

/** A step made of form fields: the frame shows their errors, Continue saves them, Back keeps them. */
function FormStep<T extends FieldValues, O>({
  step,
  form,
  children,
}: {
  step: StepProps;
  form: FormBinding<T, O>;
  children: ReactNode;
}) {
  const onSubmit = form.handleSubmit(async (values) => {
    const rejected = await step.onSubmit(values as object);
    for (const [field, text] of Object.entries(rejected ?? {})) {
      form.setError(field as Path<T>, { message: text });
    }
  });
  return (
    <StepFrame
      frame={step.frame}
      hasErrors={Object.keys(form.formState.errors).length > 0}
      onSubmit={onSubmit}
      values={form.getValues}
    >
      {children}
    </StepFrame>
  );
}

function LanguageStep(props: StepProps) {
  const { t, i18n } = useTranslation();
  const current = LANGUAGES.find((l) => l === i18n.resolvedLanguage) ?? props.profile.language;
  const form = useStepForm(OnboardingStep0Schema, props.draft, { language: current });
  const error = form.formState.errors.language?.message;
  const language = form.register('language');
  return (
    <FormStep step={props} form={form}>
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
    </FormStep>
  );
}

function NameStep(props: StepProps) {
  const form = useStepForm(OnboardingStep1Schema, props.draft, nameValues(props.profile));
  return (
    <FormStep step={props} form={form}>
      <NameFields form={form} layout="step" />
    </FormStep>
  );
}

function AboutStep(props: StepProps) {
  const form = useStepForm(OnboardingStep2Schema, props.draft, aboutValues(props.profile));
  return (
    <FormStep step={props} form={form}>
      <AboutFields form={form} layout="step" />
    </FormStep>
  );
}

function PhoneStep(props: StepProps) {
  const { profile } = props;
  const form = useStepForm(OnboardingStep3Schema, props.draft, {
    phone_country: phoneCountryOf(profile.phone) ?? profile.country_of_residence ?? profile.country ?? '',
    phone: profile.phone ?? '',
  });
  return (
    <FormStep step={props} form={form}>
      <PhoneFields form={form} layout="step" />
    </FormStep>
  );
}

function AddressStep(props: StepProps) {
  const { t } = useTranslation();
  const { profile } = props;
  const form = useStepForm(OnboardingStep4Schema, props.draft, {
    country_of_residence: profile.country_of_residence ?? profile.country ?? '',
    ...addressValues(profile),
  });
  const country = form.watch('country_of_residence') ?? '';
  return (
    <FormStep step={props} form={form}>
      <CountryField
        form={form}
        name="country_of_residence"
        label={t('onboarding.fields.country_of_residence')}
        autoComplete="country"
      />
      <CityCombobox
        country={country}
        onPick={(city) => {
          form.setValue('city', city.name, { shouldValidate: true, shouldDirty: true });
          if (!country) form.setValue('country_of_residence', city.country, { shouldValidate: true });
        }}
        onEnter={(typed) => {
          form.setValue('city', typed, { shouldValidate: true, shouldDirty: true });
          form.setFocus('city');
        }}
      />
      <AddressFields form={form} layout="step" />
    </FormStep>
  );
}

function EducationStep(props: StepProps) {
  const form = useStepForm(OnboardingStep5Schema, props.draft, educationValues(props.profile));
  return (
    <FormStep step={props} form={form}>
      <EducationFields form={form} residence={props.profile.country_of_residence ?? ''} Heading="h3" />
    </FormStep>
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
