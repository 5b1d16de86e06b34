import { useQueryClient } from '@tanstack/react-query';
import { useId, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { useForm, type FieldValues, type Path } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import {
  EducationProfileSchema,
  PersonalProfileSchema,
  VALIDATION_MESSAGES,
  phoneCountryOf,
  type EducationProfile,
  type EducationProfileInput,
  type PersonalProfile,
  type PersonalProfileInput,
  type ProfileUpdate,
  type StudentProfile,
} from '@kaminuza/shared';
import { FormAlert, TextField, useMessage } from '../../../components/form/field.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { EducationFields } from '../../../components/profile-fields/education-fields.tsx';
import { fieldOf, type FormBinding } from '../../../components/profile-fields/form-binding.ts';
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
import { Tabs as TabView } from '../../../components/tabs.tsx';
import { errorMessageKey, fieldErrors } from '../../../lib/error-messages.ts';
import { profileQuery, useProfile } from '../api/get-profile.ts';
import { useUpdateProfile } from '../api/update-profile.ts';
import { ProfilePictureInput } from '../../../components/upload/profile-picture-input.tsx';
import { DocumentsTab } from './documents-tab.tsx';
import { ExamSittingsSection } from './exam-sittings-section.tsx';
import { useOnline } from '../../../lib/use-online.ts';
import { useProfileEditsOnDevice } from './profile-edits-on-device.ts';

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
      {tab === 'education' && (
        <div className="flex flex-col gap-8">
          <EducationForm profile={profile} />
          <ExamSittingsSection profile={profile} />
        </div>
      )}
      {tab === 'documents' && <DocumentsTab />}
    </TabView>
  );
}

/** A profile tab's form: the result of the last save, its fields, and Save. */
function SectionForm<T extends FieldValues, O>({
  owner,
  section,
  form,
  children,
}: {
  /** The account (its email): whose edits the device keeps. */
  owner: string;
  section: ProfileUpdate['section'];
  form: FormBinding<T, O>;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const message = useMessage();
  const update = useUpdateProfile();
  const online = useOnline();
  const device = useProfileEditsOnDevice(owner, section, form);
  const offlineId = useId();
  const { errors, isDirty } = form.formState;
  const failure = update.isError
    ? Object.keys(fieldErrors(update.error)).length > 0
      ? null
      : t(errorMessageKey(update.error, { fallback: 'profile.errors.save_failed' }))
    : null;
  const onSubmit = form.handleSubmit((values) =>
    update.mutate({ section, values } as ProfileUpdate, {
      // What is saved becomes the form's baseline, so the confirmation shows until the next edit.
      onSuccess: () => {
        form.reset(form.getValues());
        device.saved();
      },
      onError: (error) => {
        for (const [path, text] of Object.entries(fieldErrors(error))) {
          form.setError(path.replace(/^values\./, '') as Path<T>, { message: text });
        }
      },
    }),
  );
  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4" aria-label={t(`profile.tabs.${section}`)}>
      {Object.keys(errors).length > 0 && <FormAlert>{message(VALIDATION_MESSAGES.general)}</FormAlert>}
      {failure && <FormAlert>{failure}</FormAlert>}
      {update.isSuccess && !isDirty && <FormAlert tone="success">{t('profile.saved')}</FormAlert>}
      {device.restored && (
        <div
          role="status"
          className="flex flex-wrap items-center justify-between gap-2 rounded-xl border border-accent p-3"
        >
          <p className="text-sm">{t('profile.device.restored')}</p>
          <button type="button" className="btn-secondary" onClick={device.discard}>
            {t('profile.device.discard')}
          </button>
        </div>
      )}
      {children}
      {!online && (
        <p id={offlineId} className="rounded-xl border border-accent p-3 text-sm">
          {t('profile.device.offline')}
        </p>
      )}
      <button
        type="submit"
        className="btn-primary self-start"
        disabled={update.isPending || !online}
        aria-describedby={online ? undefined : offlineId}
      >
        {update.isPending ? t('onboarding.saving') : t('profile.save')}
      </button>
    </form>
  );
}

function PersonalForm({ profile }: { profile: StudentProfile }) {
  const { t } = useTranslation();
  const form = useForm<PersonalProfileInput, unknown, PersonalProfile>({
    resolver: zodResolver(PersonalProfileSchema),
    mode: 'onSubmit',
    defaultValues: {
      ...nameValues(profile),
      phone_country: phoneCountryOf(profile.phone) ?? profile.country_of_residence ?? '',
      phone: profile.phone ?? '',
      ...aboutValues(profile),
      ...addressValues(profile),
      country: profile.country ?? '',
      country_of_residence: profile.country_of_residence ?? '',
    },
  });
  return (
    <SectionForm owner={profile.email} section="personal" form={form}>
      <NameFields form={form} layout="form" />
      <TextField
        label={t('profile.email')}
        type="email"
        value={profile.email}
        readOnly
        hint={t('profile.email_hint')}
      />
      <PhoneFields form={form} layout="form" />
      <AboutFields form={form} layout="form" />
      <AddressFields form={form} layout="form" />
      <div className="grid gap-4 sm:grid-cols-2">
        <CountryField form={form} name="country" label={t('profile.country')} autoComplete="country" />
        <CountryField form={form} name="country_of_residence" label={t('onboarding.fields.country_of_residence')} />
      </div>
    </SectionForm>
  );
}

function EducationForm({ profile }: { profile: StudentProfile }) {
  const { t } = useTranslation();
  const form = useForm<EducationProfileInput, unknown, EducationProfile>({
    resolver: zodResolver(EducationProfileSchema),
    mode: 'onSubmit',
    defaultValues: {
      ...educationValues(profile),
      graduation_year: profile.graduation_year === null ? '' : String(profile.graduation_year),
      gpa: profile.gpa ?? '',
      major: profile.major ?? '',
      degree_type: profile.degree_type ?? '',
    } as EducationProfileInput,
  });
  const field = fieldOf(form);
  return (
    <SectionForm owner={profile.email} section="education" form={form}>
      <EducationFields form={form} residence={profile.country_of_residence ?? ''} Heading="h2" />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label={t('profile.graduation_year')} optional inputMode="numeric" {...field('graduation_year')} />
        <TextField label={t('profile.gpa')} optional {...field('gpa')} />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label={t('profile.major')} optional {...field('major')} />
        <TextField label={t('profile.degree_type')} optional {...field('degree_type')} />
      </div>
    </SectionForm>
  );
}
