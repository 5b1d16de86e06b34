import { useFieldArray, useWatch, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { BANK_ACCOUNTS_MAX, type PartnerAdmissionsSettingsUpdateSchema } from '@kaminuza/shared';
import { TextAreaField, TextField, useMessage } from '../../../components/form/field.tsx';
import { SettingsSection } from './form-parts.tsx';

type AdmissionsForm = UseFormReturn<
  z.input<typeof PartnerAdmissionsSettingsUpdateSchema>,
  unknown,
  z.output<typeof PartnerAdmissionsSettingsUpdateSchema>
>;

const emptyAccount = (currency: string) => ({
  currency,
  bank_name: '',
  account_name: '',
  account_number: '',
  branch: '',
  swift: '',
  instructions: '',
});

/**
 * The institution's bank accounts applicants deposit the fee to, one per currency: a fee accepts bank
 * slips in a currency only once its account is here (the api refuses the channel otherwise).
 */
export function BankAccountsEditor({
  form,
  canEdit,
  defaultCurrency,
}: {
  form: AdmissionsForm;
  canEdit: boolean;
  /** The currency a new account starts with (the institution's first fee currency). */
  defaultCurrency: string;
}) {
  const { t } = useTranslation();
  const message = useMessage();
  const {
    control,
    register,
    formState: { errors },
  } = form;
  const accounts = useFieldArray({ control, name: 'bank_accounts' });
  const rows = useWatch({ control, name: 'bank_accounts' }) ?? [];
  const l = (key: string, values: Record<string, unknown> = {}) => t(`partner_settings.bank_accounts.${key}`, values);
  const listError = errors.bank_accounts?.message ?? errors.bank_accounts?.root?.message;

  return (
    <SettingsSection id="admissions-bank-accounts" title={l('title')}>
      <p className="text-sm text-muted">{l('hint')}</p>
      {accounts.fields.length === 0 ? (
        <p className="rounded-lg border border-dashed border-border p-4 text-center text-muted">{l('empty')}</p>
      ) : (
        <ol aria-label={l('title')} className="flex flex-col gap-3">
          {accounts.fields.map((field, index) => {
            const row = rows[index];
            const name = row?.currency ? l('account_of', { currency: row.currency }) : l('account_new');
            const rowErrors = errors.bank_accounts?.[index];
            return (
              <li key={field.id} className="flex min-w-0 flex-col gap-3 rounded-xl border border-border p-3">
                <fieldset className="grid min-w-0 gap-3 sm:grid-cols-2">
                  <legend className="mb-2 font-semibold">{name}</legend>
                  <TextField
                    label={l('currency')}
                    hint={l('currency_hint')}
                    autoComplete="off"
                    maxLength={3}
                    className="uppercase"
                    error={rowErrors?.currency?.message}
                    {...register(`bank_accounts.${index}.currency`, {
                      setValueAs: (value: unknown) => (typeof value === 'string' ? value.trim().toUpperCase() : value),
                    })}
                  />
                  <TextField
                    label={l('bank_name')}
                    autoComplete="off"
                    maxLength={120}
                    error={rowErrors?.bank_name?.message}
                    {...register(`bank_accounts.${index}.bank_name`)}
                  />
                  <TextField
                    label={l('account_name')}
                    autoComplete="off"
                    maxLength={120}
                    error={rowErrors?.account_name?.message}
                    {...register(`bank_accounts.${index}.account_name`)}
                  />
                  <TextField
                    label={l('account_number')}
                    autoComplete="off"
                    maxLength={64}
                    error={rowErrors?.account_number?.message}
                    {...register(`bank_accounts.${index}.account_number`)}
                  />
                  <TextField
                    label={l('branch')}
                    optional
                    autoComplete="off"
                    maxLength={120}
                    error={rowErrors?.branch?.message}
                    {...register(`bank_accounts.${index}.branch`)}
                  />
                  <TextField
                    label={l('swift')}
                    optional
                    autoComplete="off"
                    maxLength={11}
                    className="uppercase"
                    error={rowErrors?.swift?.message}
                    {...register(`bank_accounts.${index}.swift`)}
                  />
                  <div className="sm:col-span-2">
                    <TextAreaField
                      label={l('instructions')}
                      hint={l('instructions_hint')}
                      optional
                      rows={3}
                      maxLength={1000}
                      error={rowErrors?.instructions?.message}
                      {...register(`bank_accounts.${index}.instructions`)}
                    />
                  </div>
                </fieldset>
                {canEdit && (
                  <button
                    type="button"
                    className="btn-secondary self-start text-danger"
                    aria-label={l('remove_label', { name })}
                    onClick={() => accounts.remove(index)}
                  >
                    {l('remove')}
                  </button>
                )}
              </li>
            );
          })}
        </ol>
      )}
      {listError && <p className="text-sm font-medium text-danger">{message(listError)}</p>}
      {canEdit && (
        <button
          type="button"
          className="btn-secondary self-start"
          disabled={accounts.fields.length >= BANK_ACCOUNTS_MAX}
          onClick={() => accounts.append(emptyAccount(defaultCurrency))}
        >
          {l('add')}
        </button>
      )}
    </SettingsSection>
  );
}
