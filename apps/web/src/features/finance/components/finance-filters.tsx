import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PAYMENT_METHODS, PAYMENT_PROVIDERS, PAYMENT_STATUSES, type Cycle, type FinanceQuery } from '@kaminuza/shared';
import { SelectField, TextField } from '../../../components/form/field.tsx';
import type { FinanceFilterKey } from './finance-query.ts';

/** The filters of the finance view; each change is written to the page's address. */
export function FinanceFilters({
  query,
  cycles,
  onChange,
  onClear,
}: {
  query: FinanceQuery;
  cycles: readonly Cycle[] | undefined;
  onChange: (key: FinanceFilterKey, value: string | undefined) => void;
  onClear: () => void;
}) {
  const { t } = useTranslation();
  // Text filters are sent when the field is left or Enter is pressed, not on every key.
  const [search, setSearch] = useState(query.q ?? '');
  const [currency, setCurrency] = useState(query.currency ?? '');
  // When the address changes them (cleared filters, back button), the fields follow.
  const [shown, setShown] = useState({ q: query.q, currency: query.currency });
  if (shown.q !== query.q || shown.currency !== query.currency) {
    setShown({ q: query.q, currency: query.currency });
    setSearch(query.q ?? '');
    setCurrency(query.currency ?? '');
  }
  const any = t('finance.filters.any');
  const options = (values: readonly string[], group: string) =>
    values.map((value) => ({ value, label: t(`finance.${group}.${value}`) }));

  return (
    <section aria-label={t('finance.filters.title')} className="rounded-2xl border border-border bg-surface p-4">
      <form
        className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4"
        onSubmit={(event) => {
          event.preventDefault();
          onChange('q', search.trim() || undefined);
          onChange('currency', currency.trim().toUpperCase() || undefined);
        }}
      >
        <div className="sm:col-span-2">
          <TextField
            label={t('finance.filters.search')}
            hint={t('finance.filters.search_hint')}
            type="search"
            maxLength={100}
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            onBlur={() => onChange('q', search.trim() || undefined)}
          />
        </div>
        <SelectField
          label={t('finance.filters.cycle')}
          placeholder={any}
          value={query.cycle_id ?? ''}
          options={(cycles ?? []).map((cycle) => ({ value: cycle.id, label: cycle.name }))}
          onChange={(event) => onChange('cycle_id', event.target.value || undefined)}
        />
        <SelectField
          label={t('finance.filters.status')}
          placeholder={any}
          value={query.status ?? ''}
          options={options(PAYMENT_STATUSES, 'statuses')}
          onChange={(event) => onChange('status', event.target.value || undefined)}
        />
        <SelectField
          label={t('finance.filters.provider')}
          placeholder={any}
          value={query.provider ?? ''}
          options={options(PAYMENT_PROVIDERS, 'providers')}
          onChange={(event) => onChange('provider', event.target.value || undefined)}
        />
        <SelectField
          label={t('finance.filters.method')}
          placeholder={any}
          value={query.method ?? ''}
          options={options(PAYMENT_METHODS, 'methods')}
          onChange={(event) => onChange('method', event.target.value || undefined)}
        />
        <TextField
          label={t('finance.filters.currency')}
          hint={t('finance.filters.currency_hint')}
          maxLength={3}
          autoCapitalize="characters"
          value={currency}
          onChange={(event) => setCurrency(event.target.value)}
          onBlur={() => onChange('currency', currency.trim().toUpperCase() || undefined)}
        />
        <SelectField
          label={t('finance.filters.needs_refund')}
          placeholder={any}
          value={query.needs_refund === undefined ? '' : String(query.needs_refund)}
          options={[
            { value: 'true', label: t('finance.filters.yes') },
            { value: 'false', label: t('finance.filters.no') },
          ]}
          onChange={(event) => onChange('needs_refund', event.target.value || undefined)}
        />
        <div className="flex items-end sm:col-span-2 lg:col-span-4">
          <button type="button" className="btn-secondary" onClick={onClear}>
            {t('finance.filters.clear')}
          </button>
        </div>
      </form>
    </section>
  );
}
