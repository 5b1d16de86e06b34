import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '../../../components/form/field.tsx';
import { errorMessageKey, fieldErrors } from '../../../lib/error-messages.ts';

/** A titled card of a settings form. */
export function SettingsSection({ title, children, id }: { title: string; children: ReactNode; id: string }) {
  return (
    <section
      aria-labelledby={id}
      className="flex min-w-0 flex-col gap-4 rounded-2xl border border-border bg-surface p-4 sm:p-6"
    >
      <h2 id={id} className="text-xl font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** The save button of a settings form, with the save's outcome announced. Hidden when read-only. */
export function SaveBar({
  canEdit,
  pending,
  saved,
  error,
  children,
}: {
  canEdit: boolean;
  pending: boolean;
  saved: boolean;
  error: unknown;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  if (!canEdit) return null;
  return (
    <div className="flex flex-col gap-3">
      {error !== null && Object.keys(fieldErrors(error)).length === 0 && (
        <FormAlert>{t(errorMessageKey(error))}</FormAlert>
      )}
      {saved && <FormAlert tone="success">{t('partner_settings.saved')}</FormAlert>}
      <div className="flex flex-wrap gap-3">
        <button type="submit" className="btn-primary" disabled={pending}>
          {pending ? t('partner_settings.saving') : t('partner_settings.save')}
        </button>
        {children}
      </div>
    </div>
  );
}
