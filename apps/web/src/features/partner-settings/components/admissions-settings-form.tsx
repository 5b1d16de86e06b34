import { useFieldArray, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import {
  ADMISSION_LETTER_MAX_LENGTH,
  ADMISSION_LETTER_PLACEHOLDERS,
  AUTO_DECISION_BASES,
  CUSTOM_STAGES_MAX,
  PartnerAdmissionsSettingsUpdateSchema,
  type PartnerAdmissionsSettings,
} from '@kaminuza/shared';
import { CheckboxField, TextAreaField, TextField, useMessage } from '../../../components/form/field.tsx';
import { InvalidFormAlert, showFieldErrors } from '../../../components/form/account-fields.tsx';
import { useUpdateAdmissionsSettings } from '../api/update-admissions-settings.ts';
import { SaveBar, SettingsSection } from './form-parts.tsx';
import { FeeOptionsEditor } from './fee-options-editor.tsx';
import { RubricEditor } from './rubric-editor.tsx';
import { BankAccountsEditor } from './bank-accounts-editor.tsx';

type AdmissionsInput = z.input<typeof PartnerAdmissionsSettingsUpdateSchema>;
type AdmissionsOutput = z.output<typeof PartnerAdmissionsSettingsUpdateSchema>;

function formValues({
  application_fee: _fee,
  application_fee_currency: _currency,
  ...admissions
}: PartnerAdmissionsSettings): AdmissionsInput {
  return {
    ...admissions,
    admission_letter: {
      ...admissions.admission_letter,
      signature_image: admissions.admission_letter.signature_image ?? '',
    },
    custom_stages: [...admissions.custom_stages]
      .sort((a, b) => a.order - b.order)
      .map(({ id, name }) => ({ id, name })),
  };
}

/** A stage id that stays the same when the stage is renamed, so applications keep pointing at it. */
const newStageId = () => `stage-${crypto.randomUUID().slice(0, 8)}`;

export function AdmissionsSettingsForm({
  partnerId,
  canEdit,
  admissions,
}: {
  partnerId: string;
  canEdit: boolean;
  admissions: PartnerAdmissionsSettings;
}) {
  const { t } = useTranslation();
  const message = useMessage();
  const update = useUpdateAdmissionsSettings(partnerId);
  const form = useForm<AdmissionsInput, unknown, AdmissionsOutput>({
    resolver: zodResolver(PartnerAdmissionsSettingsUpdateSchema),
    defaultValues: formValues(admissions),
  });
  const {
    register,
    control,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isDirty },
  } = form;
  const stages = useFieldArray({ control, name: 'custom_stages' });
  const stageNames = useWatch({ control, name: 'custom_stages' });
  const l = (key: string) => t(`partner_settings.admissions.${key}`);
  const asNumber = { setValueAs: (value: unknown) => (value === '' ? Number.NaN : Number(value)) };

  const onSubmit = handleSubmit((values) =>
    update.mutate(values, {
      onSuccess: (saved) => reset(formValues(saved.admissions)),
      onError: (error) => showFieldErrors(error, setError),
    }),
  );

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-6">
      <fieldset disabled={!canEdit} className="flex min-w-0 flex-col gap-6">
        <InvalidFormAlert errors={errors} />
        <SettingsSection id="admissions-auto" title={l('auto_title')}>
          <p className="text-sm text-muted">{l('auto_hint')}</p>
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-1 font-medium">{l('auto_basis')}</legend>
            {AUTO_DECISION_BASES.map((basis) => (
              <label key={basis} className="flex items-start gap-3">
                <input
                  type="radio"
                  value={basis}
                  className="mt-1 size-5 shrink-0 accent-brand"
                  aria-describedby={`auto-basis-${basis}-hint`}
                  {...register('auto_decision_basis')}
                />
                <span className="flex flex-col">
                  <span>{l(`auto_basis_${basis}`)}</span>
                  <span id={`auto-basis-${basis}-hint`} className="text-sm text-muted">
                    {l(`auto_basis_${basis}_hint`)}
                  </span>
                </span>
              </label>
            ))}
          </fieldset>
          <CheckboxField
            label={l('auto_accept')}
            role="switch"
            aria-describedby="auto-accept-hint"
            {...register('auto_accept_enabled')}
          >
            <p id="auto-accept-hint" className="ml-9 text-sm text-muted">
              {l('auto_accept_hint')}
            </p>
          </CheckboxField>
          <TextField
            label={l('auto_accept_threshold')}
            type="number"
            inputMode="decimal"
            min={0}
            max={100}
            error={errors.auto_accept_threshold?.message}
            {...register('auto_accept_threshold', asNumber)}
          />
          <CheckboxField
            label={l('auto_reject')}
            role="switch"
            aria-describedby="auto-reject-hint"
            {...register('auto_reject_enabled')}
          >
            <p id="auto-reject-hint" className="ml-9 text-sm text-muted">
              {l('auto_reject_hint')}
            </p>
          </CheckboxField>
          <TextField
            label={l('auto_reject_threshold')}
            type="number"
            inputMode="decimal"
            min={0}
            max={100}
            error={errors.auto_reject_threshold?.message}
            {...register('auto_reject_threshold', asNumber)}
          />
        </SettingsSection>

        <SettingsSection id="admissions-fee" title={l('fee_title')}>
          <FeeOptionsEditor form={form} canEdit={canEdit} />
        </SettingsSection>

        <SettingsSection id="admissions-letter" title={l('letter_title')}>
          <TextAreaField
            label={l('letter_template')}
            optional
            rows={8}
            maxLength={ADMISSION_LETTER_MAX_LENGTH}
            hint={l('letter_hint')}
            error={errors.admission_letter?.template?.message}
            {...register('admission_letter.template')}
          />
          <div>
            <h3 className="font-medium">{l('placeholders_title')}</h3>
            <ul aria-label={l('placeholders_title')} className="mt-2 grid gap-1 text-sm sm:grid-cols-2">
              {ADMISSION_LETTER_PLACEHOLDERS.map((placeholder) => (
                <li key={placeholder} className="min-w-0 break-words">
                  <code className="rounded bg-surface-muted px-1.5 py-0.5 font-mono">{`{${placeholder}}`}</code>{' '}
                  {l(`placeholders.${placeholder}`)}
                </li>
              ))}
            </ul>
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              label={l('signature_name')}
              optional
              autoComplete="off"
              error={errors.admission_letter?.signature_name?.message}
              {...register('admission_letter.signature_name')}
            />
            <TextField
              label={l('signature_title')}
              optional
              autoComplete="off"
              error={errors.admission_letter?.signature_title?.message}
              {...register('admission_letter.signature_title')}
            />
          </div>
          <TextField
            label={l('signature_image')}
            optional
            type="url"
            hint={l('signature_image_hint')}
            error={errors.admission_letter?.signature_image?.message}
            {...register('admission_letter.signature_image')}
          />
        </SettingsSection>

        <BankAccountsEditor
          form={form}
          canEdit={canEdit}
          defaultCurrency={admissions.application_fees[0]?.currency ?? admissions.application_fee_currency}
        />

        <SettingsSection id="admissions-stages" title={l('stages_title')}>
          <p className="text-sm text-muted">{l('stages_hint')}</p>
          {stages.fields.length === 0 ? (
            <p className="rounded-lg border border-dashed border-border p-4 text-center text-muted">
              {l('stages_empty')}
            </p>
          ) : (
            <ol aria-label={l('stages_title')} className="flex flex-col gap-3">
              {stages.fields.map((field, index) => {
                const name = stageNames[index]?.name || l('stage_unnamed');
                return (
                  <li
                    key={field.id}
                    className="flex min-w-0 flex-col gap-2 rounded-xl border border-border p-3 sm:flex-row sm:items-end"
                  >
                    <div className="min-w-0 flex-1">
                      <TextField
                        label={t('partner_settings.admissions.stage_name', { position: index + 1 })}
                        error={
                          errors.custom_stages?.[index]?.name?.message ?? errors.custom_stages?.[index]?.id?.message
                        }
                        {...register(`custom_stages.${index}.name`)}
                      />
                    </div>
                    <div className="flex flex-wrap gap-2">
                      <button
                        type="button"
                        className="btn-secondary"
                        disabled={index === 0}
                        aria-label={t('partner_settings.admissions.stage_up', { name })}
                        onClick={() => stages.move(index, index - 1)}
                      >
                        <span aria-hidden="true">↑</span>
                      </button>
                      <button
                        type="button"
                        className="btn-secondary"
                        disabled={index === stages.fields.length - 1}
                        aria-label={t('partner_settings.admissions.stage_down', { name })}
                        onClick={() => stages.move(index, index + 1)}
                      >
                        <span aria-hidden="true">↓</span>
                      </button>
                      <button
                        type="button"
                        className="btn-secondary text-danger"
                        aria-label={t('partner_settings.admissions.stage_remove', { name })}
                        onClick={() => stages.remove(index)}
                      >
                        {l('remove')}
                      </button>
                    </div>
                  </li>
                );
              })}
            </ol>
          )}
          {errors.custom_stages?.message && (
            <p className="text-sm font-medium text-danger">{message(errors.custom_stages.message)}</p>
          )}
          {canEdit && (
            <button
              type="button"
              className="btn-secondary self-start"
              disabled={stages.fields.length >= CUSTOM_STAGES_MAX}
              onClick={() => stages.append({ id: newStageId(), name: '' })}
            >
              {l('stage_add')}
            </button>
          )}
        </SettingsSection>

        <SettingsSection id="admissions-rubric" title={l('rubric_title')}>
          <RubricEditor form={form} canEdit={canEdit} savedIds={admissions.rubric.map((criterion) => criterion.id)} />
        </SettingsSection>

        <SettingsSection id="admissions-blind" title={l('blind_title')}>
          <CheckboxField
            label={l('blind_review')}
            role="switch"
            aria-describedby="blind-review-hint"
            {...register('blind_review')}
          >
            <p id="blind-review-hint" className="ml-9 text-sm text-muted">
              {l('blind_review_hint')}
            </p>
          </CheckboxField>
        </SettingsSection>
      </fieldset>
      <SaveBar canEdit={canEdit} pending={update.isPending} saved={update.isSuccess && !isDirty} error={update.error} />
    </form>
  );
}
