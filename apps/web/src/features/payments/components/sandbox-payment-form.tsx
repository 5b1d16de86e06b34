import { useForm, useWatch, type FieldErrors, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { MOBILE_MONEY_NETWORKS, SandboxPaymentSchema, type PaymentMethod } from '@kaminuza/shared';
import { FormAlert, SelectField, TextField } from '../../../components/form/field.tsx';
import { errorMessageKey, fieldErrors } from '../../../lib/error-messages.ts';
import type { SandboxPaymentInput } from '../api/complete-sandbox-payment.ts';

/** Every field of both methods; only the chosen method's are sent. */
interface PayValues {
  method: PaymentMethod;
  card_number: string;
  expiry: string;
  cvc: string;
  network: (typeof MOBILE_MONEY_NETWORKS)[number];
  phone: string;
}

/** Checks the chosen method's fields with the api's own schema, so both refuse the same input. */
const resolver: Resolver<PayValues, unknown, SandboxPaymentInput> = async (values) => {
  const parsed = SandboxPaymentSchema.safeParse(
    values.method === 'card'
      ? { method: 'card', card_number: values.card_number, expiry: values.expiry, cvc: values.cvc }
      : { method: 'mobile_money', network: values.network, phone: values.phone },
  );
  if (parsed.success) return { values: parsed.data, errors: {} };
  const errors: FieldErrors<PayValues> = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? 'method') as keyof PayValues;
    errors[field] ??= { type: issue.code, message: issue.message };
  }
  return { values: {}, errors };
};

interface SandboxPaymentFormProps {
  methods: readonly PaymentMethod[];
  /** The Pay button's text, naming the amount. */
  payLabel: string;
  paying: boolean;
  error: unknown;
  onPay: (input: SandboxPaymentInput) => void;
}

/** The sandbox's hosted checkout form: card or mobile money, as real African checkouts offer. */
export function SandboxPaymentForm({ methods, payLabel, paying, error, onPay }: SandboxPaymentFormProps) {
  const { t } = useTranslation();
  const {
    register,
    handleSubmit,
    control,
    formState: { errors },
  } = useForm<PayValues, unknown, SandboxPaymentInput>({
    resolver,
    defaultValues: { method: methods[0] ?? 'card', card_number: '', expiry: '', cvc: '', network: 'mtn', phone: '' },
  });
  const method = useWatch({ control, name: 'method' });
  const server = fieldErrors(error);
  const fieldError = (name: keyof PayValues) => errors[name]?.message ?? server[name];
  const formError = error && Object.keys(server).length === 0 ? t(errorMessageKey(error)) : null;

  return (
    <form noValidate onSubmit={handleSubmit(onPay)} className="flex flex-col gap-5">
      {formError && <FormAlert>{formError}</FormAlert>}
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 font-medium">{t('payments.method_legend')}</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {methods.map((option) => (
            <label
              key={option}
              className="flex min-h-12 items-center gap-3 rounded-lg border border-border px-3 has-checked:border-brand has-checked:bg-surface-muted"
            >
              <input type="radio" value={option} className="size-5 accent-brand" {...register('method')} />
              <span className="font-medium">{t(`payments.methods.${option}`)}</span>
            </label>
          ))}
        </div>
      </fieldset>

      {method === 'card' ? (
        <div className="flex flex-col gap-4">
          <TextField
            label={t('payments.card_number')}
            autoComplete="cc-number"
            inputMode="numeric"
            error={fieldError('card_number')}
            {...register('card_number')}
          />
          <div className="grid grid-cols-2 gap-4">
            <TextField
              label={t('payments.expiry')}
              placeholder={t('payments.expiry_placeholder')}
              autoComplete="cc-exp"
              inputMode="numeric"
              error={fieldError('expiry')}
              {...register('expiry')}
            />
            <TextField
              label={t('payments.cvc')}
              autoComplete="cc-csc"
              inputMode="numeric"
              error={fieldError('cvc')}
              {...register('cvc')}
            />
          </div>
        </div>
      ) : (
        <div className="flex flex-col gap-4">
          <SelectField
            label={t('payments.network')}
            placeholder={t('payments.network_placeholder')}
            options={MOBILE_MONEY_NETWORKS.map((network) => ({
              value: network,
              label: t(`payments.networks.${network}`),
            }))}
            error={fieldError('network')}
            {...register('network')}
          />
          <TextField
            label={t('payments.phone')}
            hint={t('payments.phone_hint')}
            type="tel"
            autoComplete="tel"
            error={fieldError('phone')}
            {...register('phone')}
          />
        </div>
      )}

      <button type="submit" className="btn-primary" disabled={paying} aria-busy={paying}>
        {paying ? t('payments.paying') : payLabel}
      </button>
    </form>
  );
}
