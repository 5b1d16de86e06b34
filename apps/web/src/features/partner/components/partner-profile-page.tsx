import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import {
  CAMPUS_SETTINGS,
  INSTITUTION_SIZES,
  INSTITUTION_TYPES,
  isWebAddress,
  PARTNER_MESSAGES,
  PartnerProfileFieldsSchema,
  PROGRAM_LEVELS,
  REGIONS,
  STUDY_FIELDS,
  type PartnerProfile,
} from '@kaminuza/shared';
import { FormAlert, SelectField, TextAreaField, TextField, useMessage } from '../../../components/form/field.tsx';
import { InvalidFormAlert, showFieldErrors, useCountryOptions } from '../../../components/form/account-fields.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { errorMessageKey, fieldErrors } from '../../../lib/error-messages.ts';
import { useOwnPartnerProfile } from '../api/get-partner-profile.ts';
import { useUpdatePartnerProfile } from '../api/update-partner-profile.ts';

/** The editor's form: the profile's fields, with the gallery as one address per line. */
const ProfileFormSchema = PartnerProfileFieldsSchema.omit({ gallery_images: true, published: true })
  .extend({
    gallery_text: z.string().transform((text) =>
      text
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean),
    ),
  })
  .superRefine((value, ctx) => {
    if (value.gallery_text.some((url) => !isWebAddress(url))) {
      ctx.addIssue({ code: 'custom', path: ['gallery_text'], message: PARTNER_MESSAGES.website_invalid });
    }
    if (value.tuition_min_usd > value.tuition_max_usd) {
      ctx.addIssue({ code: 'custom', path: ['tuition_max_usd'], message: PARTNER_MESSAGES.range_invalid });
    }
    if ((value.sat_min === null) !== (value.sat_max === null) || (value.sat_min ?? 0) > (value.sat_max ?? 0)) {
      ctx.addIssue({ code: 'custom', path: ['sat_max'], message: PARTNER_MESSAGES.sat_invalid });
    }
  });
type ProfileFormInput = z.input<typeof ProfileFormSchema>;
type ProfileForm = z.output<typeof ProfileFormSchema>;

function formValues(profile: PartnerProfile): ProfileFormInput {
  return {
    name: profile.name,
    description: profile.description,
    logo_url: profile.logo_url ?? '',
    gallery_text: profile.gallery_images.join('\n'),
    contact_email: profile.contact_email ?? '',
    contact_phone: profile.contact_phone ?? '',
    contact_website: profile.contact_website ?? '',
    address_street: profile.address_street ?? '',
    address_city: profile.address_city,
    address_country: profile.address_country,
    address_postal_code: profile.address_postal_code ?? '',
    institution_type: profile.institution_type,
    fields: profile.fields,
    region: profile.region,
    tuition_usd: profile.tuition_usd,
    tuition_min_usd: profile.tuition_min_usd,
    tuition_max_usd: profile.tuition_max_usd,
    avg_cost_after_aid_usd: profile.avg_cost_after_aid_usd,
    graduation_rate: profile.graduation_rate,
    acceptance_rate: profile.acceptance_rate,
    sat_min: profile.sat_min,
    sat_max: profile.sat_max,
    student_faculty_ratio: profile.student_faculty_ratio,
    total_enrollment: profile.total_enrollment,
    size: profile.size,
    setting: profile.setting,
    application_deadline: profile.application_deadline ?? '',
    program_levels: profile.program_levels,
    accreditation_body: profile.accreditation_body ?? '',
    accreditation_number: profile.accreditation_number ?? '',
    program_count: profile.program_count,
    year_established: profile.year_established,
  };
}

/** The institution's public profile and its "Published" switch. */
export function PartnerProfilePage() {
  const { t } = useTranslation();
  const { partnerId, profile } = useOwnPartnerProfile();
  return (
    <div className="mx-auto flex w-full max-w-4xl flex-col gap-6">
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{t('partner.profile.title')}</h1>
      {profile.isPending && <Spinner />}
      {profile.isError && <FormAlert>{t(errorMessageKey(profile.error))}</FormAlert>}
      {profile.data && (
        <>
          <PublishedSwitch partnerId={partnerId} profile={profile.data} />
          <ProfileEditor key={profile.data.id} partnerId={partnerId} profile={profile.data} />
        </>
      )}
    </div>
  );
}

function PublishedSwitch({ partnerId, profile }: { partnerId: string; profile: PartnerProfile }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'partner.profile.publish' });
  const { t: tRoot } = useTranslation();
  const update = useUpdatePartnerProfile(partnerId);
  const listed = profile.published && profile.status === 'approved';
  return (
    <section aria-labelledby="publish-title" className="rounded-2xl border border-border bg-surface p-5 sm:p-6">
      <h2 id="publish-title" className="text-xl font-semibold">
        {t('title')}
      </h2>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <button
          type="button"
          role="switch"
          aria-checked={profile.published}
          aria-describedby="publish-state"
          disabled={update.isPending}
          onClick={() => update.mutate({ published: !profile.published })}
          className="inline-flex min-h-11 items-center gap-3 rounded-lg border border-border px-3 font-medium"
        >
          <span
            aria-hidden="true"
            className={`relative inline-block h-6 w-11 rounded-full transition-colors ${profile.published ? 'bg-brand' : 'bg-surface-muted ring-1 ring-border'}`}
          >
            <span
              className={`absolute top-0.5 size-5 rounded-full bg-white shadow transition-all ${profile.published ? 'left-5.5' : 'left-0.5'}`}
            />
          </span>
          {t('label')}
        </button>
        <p id="publish-state" role="status" className="text-sm text-muted">
          {listed ? t('listed') : profile.published ? t('published_not_approved') : t('hidden')}
        </p>
      </div>
      {update.isError && <FormAlert>{tRoot(errorMessageKey(update.error))}</FormAlert>}
    </section>
  );
}

const fieldsetClass = 'flex min-w-0 flex-col gap-4 rounded-2xl border border-border bg-surface p-5 sm:p-6';
const legendClass = 'float-left mb-2 w-full text-xl font-semibold';

function ProfileEditor({ partnerId, profile }: { partnerId: string; profile: PartnerProfile }) {
  const { t } = useTranslation();
  const update = useUpdatePartnerProfile(partnerId);
  const countries = useCountryOptions();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isDirty },
  } = useForm<ProfileFormInput, unknown, ProfileForm>({
    resolver: zodResolver(ProfileFormSchema),
    defaultValues: formValues(profile),
    mode: 'onTouched',
  });

  const onSubmit = handleSubmit(({ gallery_text, ...values }) =>
    update.mutate(
      { ...values, gallery_images: gallery_text },
      {
        onSuccess: (saved) => reset(formValues(saved)),
        onError: (error) =>
          showFieldErrors(error, setError, (field) => (field === 'gallery_images' ? 'gallery_text' : field)),
      },
    ),
  );

  const f = (key: string) => t(`partner.profile.fields.${key}`);
  const err = (field: keyof ProfileFormInput) => errors[field]?.message;
  const number = (field: keyof ProfileFormInput, extra: { step?: string; nullable?: boolean } = {}) => ({
    type: 'number' as const,
    inputMode: 'decimal' as const,
    step: extra.step ?? '1',
    error: err(field),
    ...register(field, {
      setValueAs: (value: unknown) =>
        value === '' || value === null ? (extra.nullable ? null : Number.NaN) : Number(value),
    }),
  });
  const choose = t('partner_signup.choose');

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-6">
      <InvalidFormAlert errors={errors} />

      <fieldset className={fieldsetClass}>
        <legend className={legendClass}>{t('partner.profile.sections.about')}</legend>
        <TextField label={f('name')} error={err('name')} {...register('name')} />
        <TextAreaField
          label={f('description')}
          optional
          rows={5}
          error={err('description')}
          {...register('description')}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField
            label={f('institution_type')}
            placeholder={choose}
            options={INSTITUTION_TYPES.map((v) => ({ value: v, label: t(`partner.types.${v}`) }))}
            error={err('institution_type')}
            {...register('institution_type')}
          />
          <TextField label={f('year_established')} {...number('year_established')} />
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label={f('accreditation_body')}
            optional
            error={err('accreditation_body')}
            {...register('accreditation_body')}
          />
          <TextField
            label={f('accreditation_number')}
            optional
            error={err('accreditation_number')}
            {...register('accreditation_number')}
          />
        </div>
      </fieldset>

      <fieldset className={fieldsetClass}>
        <legend className={legendClass}>{t('partner.profile.sections.images')}</legend>
        <TextField
          label={f('logo_url')}
          optional
          type="url"
          hint={t('partner.profile.images_hint')}
          error={err('logo_url')}
          {...register('logo_url')}
        />
        <TextAreaField
          label={f('gallery_images')}
          hint={t('partner.profile.gallery_hint')}
          optional
          rows={3}
          error={err('gallery_text')}
          {...register('gallery_text')}
        />
      </fieldset>

      <fieldset className={fieldsetClass}>
        <legend className={legendClass}>{t('partner.profile.sections.contact')}</legend>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label={f('contact_email')}
            optional
            type="email"
            error={err('contact_email')}
            {...register('contact_email')}
          />
          <TextField
            label={f('contact_phone')}
            optional
            type="tel"
            error={err('contact_phone')}
            {...register('contact_phone')}
          />
        </div>
        <TextField
          label={f('contact_website')}
          optional
          type="url"
          error={err('contact_website')}
          {...register('contact_website')}
        />
        <TextField label={f('address_street')} optional error={err('address_street')} {...register('address_street')} />
        <div className="grid gap-4 sm:grid-cols-3">
          <TextField label={f('address_city')} error={err('address_city')} {...register('address_city')} />
          <SelectField
            label={f('address_country')}
            placeholder={choose}
            options={countries}
            error={err('address_country')}
            {...register('address_country')}
          />
          <TextField
            label={f('address_postal_code')}
            optional
            error={err('address_postal_code')}
            {...register('address_postal_code')}
          />
        </div>
      </fieldset>

      <fieldset className={fieldsetClass}>
        <legend className={legendClass}>{t('partner.profile.sections.listing')}</legend>
        <CheckboxGroup legend={f('fields')} error={err('fields')}>
          {STUDY_FIELDS.map((v) => (
            <Choice key={v} label={t(`partner.study_fields.${v}`)} value={v} {...register('fields')} />
          ))}
        </CheckboxGroup>
        <CheckboxGroup legend={f('program_levels')} error={err('program_levels')}>
          {PROGRAM_LEVELS.map((v) => (
            <Choice key={v} label={t(`partner.program_levels.${v}`)} value={v} {...register('program_levels')} />
          ))}
        </CheckboxGroup>
        <div className="grid gap-4 sm:grid-cols-3">
          <SelectField
            label={f('region')}
            placeholder={choose}
            options={REGIONS.map((v) => ({ value: v, label: t(`partner.regions.${v}`) }))}
            error={err('region')}
            {...register('region')}
          />
          <SelectField
            label={f('size')}
            placeholder={choose}
            options={INSTITUTION_SIZES.map((v) => ({ value: v, label: t(`partner.sizes.${v}`) }))}
            error={err('size')}
            {...register('size')}
          />
          <SelectField
            label={f('setting')}
            placeholder={choose}
            options={CAMPUS_SETTINGS.map((v) => ({ value: v, label: t(`partner.settings.${v}`) }))}
            error={err('setting')}
            {...register('setting')}
          />
        </div>
        <div className="grid gap-4 sm:grid-cols-3">
          <TextField label={f('tuition_usd')} {...number('tuition_usd')} />
          <TextField label={f('tuition_min_usd')} {...number('tuition_min_usd')} />
          <TextField label={f('tuition_max_usd')} {...number('tuition_max_usd')} />
        </div>
        <div className="grid gap-4 sm:grid-cols-3">
          <TextField label={f('avg_cost_after_aid_usd')} {...number('avg_cost_after_aid_usd')} />
          <TextField label={f('graduation_rate')} {...number('graduation_rate', { step: 'any' })} />
          <TextField label={f('acceptance_rate')} {...number('acceptance_rate', { step: 'any' })} />
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label={f('sat_min')} optional {...number('sat_min', { nullable: true })} />
          <TextField label={f('sat_max')} optional {...number('sat_max', { nullable: true })} />
        </div>
        <div className="grid gap-4 sm:grid-cols-3">
          <TextField label={f('student_faculty_ratio')} {...number('student_faculty_ratio', { step: 'any' })} />
          <TextField label={f('total_enrollment')} {...number('total_enrollment')} />
          <TextField label={f('program_count')} {...number('program_count')} />
        </div>
        <TextField
          label={f('application_deadline')}
          hint={f('application_deadline_hint')}
          optional
          type="date"
          error={err('application_deadline')}
          {...register('application_deadline')}
        />
      </fieldset>

      {update.isError && Object.keys(fieldErrors(update.error)).length === 0 && (
        <FormAlert>{t(errorMessageKey(update.error))}</FormAlert>
      )}
      {update.isSuccess && !isDirty && <FormAlert tone="success">{t('partner.profile.saved')}</FormAlert>}
      <button type="submit" className="btn-primary self-start" disabled={update.isPending}>
        {update.isPending ? t('partner.profile.saving') : t('partner.profile.save')}
      </button>
    </form>
  );
}

function CheckboxGroup({ legend, error, children }: { legend: string; error?: string; children: React.ReactNode }) {
  const message = useMessage();
  return (
    <fieldset className="min-w-0">
      <legend className="mb-2 font-medium">{legend}</legend>
      <div className="grid gap-2 sm:grid-cols-3">{children}</div>
      {error && <p className="mt-1 text-sm font-medium text-danger">{message(error)}</p>}
    </fieldset>
  );
}

function Choice({
  label,
  ref,
  ...input
}: { label: string; ref?: React.Ref<HTMLInputElement> } & React.InputHTMLAttributes<HTMLInputElement>) {
  return (
    <label className="flex min-h-11 cursor-pointer items-center gap-3">
      <input ref={ref} type="checkbox" className="size-5 shrink-0 accent-brand" {...input} />
      <span>{label}</span>
    </label>
  );
}
