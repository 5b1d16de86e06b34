import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import {
  adminMessageKey,
  RejectInstitutionSchema,
  type AdminInstitution,
  type RejectInstitution,
} from '@kaminuza/shared';
import { Dialog } from '../../../components/dialog.tsx';
import { FormAlert } from '../../../components/form/field.tsx';
import { fieldErrors } from '../../../lib/error-messages.ts';
import { useRejectInstitution } from '../api/reject-institution.ts';
import { adminErrorKey } from './list-parts.tsx';

/** Asks for the reason of a rejection in a modal dialog. */
export function RejectDialog({
  institution,
  onClose,
  onRejected,
}: {
  institution: AdminInstitution;
  onClose: () => void;
  onRejected: (institution: AdminInstitution) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const reject = useRejectInstitution();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<RejectInstitution>({ resolver: zodResolver(RejectInstitutionSchema), defaultValues: { reason: '' } });

  const onSubmit = handleSubmit(({ reason }) =>
    reject.mutate({ id: institution.id, reason }, { onSuccess: (rejected) => onRejected(rejected) }),
  );

  const message = errors.reason?.message ?? fieldErrors(reject.error).reason;
  const messageKey = message ? adminMessageKey(message) : null;
  const shownError = message ? (messageKey ? t(`admin.errors.${messageKey}`) : message) : undefined;

  return (
    <Dialog
      title={t('admin.reject_dialog.title', { name: institution.name })}
      description={t('admin.reject_dialog.text')}
      onClose={onClose}
    >
      {() => (
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
          <div className="flex flex-col gap-1.5">
            <label htmlFor={`${id}-reason`} className="font-medium">
              {t('admin.reject_dialog.reason')}
            </label>
            <textarea
              id={`${id}-reason`}
              rows={5}
              className="field-input"
              aria-invalid={shownError ? true : undefined}
              aria-describedby={`${id}-hint${shownError ? ` ${id}-error` : ''}`}
              {...register('reason')}
            />
            <p id={`${id}-hint`} className="text-sm text-muted">
              {t('admin.reject_dialog.hint')}
            </p>
            {shownError && (
              <p id={`${id}-error`} className="text-sm font-medium text-danger">
                {shownError}
              </p>
            )}
          </div>
          {reject.isError && !fieldErrors(reject.error).reason && (
            <FormAlert>{t(adminErrorKey(reject.error))}</FormAlert>
          )}
          <div className="flex flex-wrap justify-end gap-2">
            <button type="button" className="btn-secondary" onClick={onClose}>
              {t('admin.reject_dialog.cancel')}
            </button>
            <button type="submit" className="btn-primary" disabled={reject.isPending}>
              {reject.isPending ? t('admin.pending.saving') : t('admin.reject_dialog.confirm')}
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
