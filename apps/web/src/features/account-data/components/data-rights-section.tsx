import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ACCOUNT_DELETION_GRACE_DAYS } from '@kaminuza/shared';
import { Dialog } from '../../../components/dialog.tsx';
import { FormAlert, TextField } from '../../../components/form/field.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useSession } from '../../../lib/session.tsx';
import { useCancelDeletion } from '../api/cancel-deletion.ts';
import { useDeletion } from '../api/get-deletion.ts';
import { EXPORT_URL } from '../api/keys.ts';
import { useScheduleDeletion } from '../api/schedule-deletion.ts';
import { dateTimeFormat } from '../../../lib/intl.ts';

function useFormatDate() {
  const { i18n } = useTranslation();
  return (iso: string) =>
    dateTimeFormat(i18n.language, { dateStyle: 'long', timeStyle: 'short' }).format(new Date(iso));
}

/** The reason a deletion was refused, in the reader's language. */
function failureKey(error: unknown): string {
  if (error instanceof ApiError && error.reason === 'wrong_password') return 'account_data.wrong_password';
  return 'account_data.failed';
}

function DeleteDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const schedule = useScheduleDeletion();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    schedule.mutate({ password }, { onSuccess: onClose });
  };
  const wrongPassword = schedule.isError && failureKey(schedule.error) === 'account_data.wrong_password';
  return (
    <Dialog
      title={t('account_data.delete_title')}
      description={t('account_data.delete_text', { days: ACCOUNT_DELETION_GRACE_DAYS })}
      onClose={onClose}
    >
      {() => (
        <form className="flex flex-col gap-4" onSubmit={submit} noValidate>
          <TextField
            label={t('account_data.password')}
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            error={wrongPassword ? t('account_data.wrong_password') : undefined}
          />
          {schedule.isError && !wrongPassword && <FormAlert>{t(failureKey(schedule.error))}</FormAlert>}
          <div className="flex flex-wrap justify-end gap-2">
            <button type="button" className="btn-secondary" onClick={onClose}>
              {t('account_data.keep')}
            </button>
            <button
              type="submit"
              className="btn border border-danger bg-surface text-danger hover:bg-surface-muted"
              disabled={schedule.isPending || password === ''}
            >
              {schedule.isPending ? t('account_data.deleting') : t('account_data.confirm')}
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}

/** Deleting the account (applicants): the button and its dialog, or the scheduled date and a way back. */
function Deletion() {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  const deletion = useDeletion();
  const cancel = useCancelDeletion();
  const [open, setOpen] = useState(false);
  const [cancelled, setCancelled] = useState(false);

  if (deletion.isPending) return <Spinner />;
  if (deletion.isError) {
    return (
      <div className="flex flex-col items-start gap-3">
        <FormAlert>{t('account_data.load_failed')}</FormAlert>
        <button type="button" className="btn-secondary" onClick={() => void deletion.refetch()}>
          {t('account_data.retry')}
        </button>
      </div>
    );
  }
  const scheduledFor = deletion.data.scheduled_for;
  if (scheduledFor) {
    return (
      <div role="status" className="flex flex-col items-start gap-3 rounded-xl border border-danger p-4">
        <p className="font-medium">{t('account_data.scheduled', { date: formatDate(scheduledFor) })}</p>
        {cancel.isError && <FormAlert>{t('account_data.failed')}</FormAlert>}
        <button
          type="button"
          className="btn-primary"
          disabled={cancel.isPending}
          onClick={() => cancel.mutate(undefined, { onSuccess: () => setCancelled(true) })}
        >
          {cancel.isPending ? t('account_data.cancelling') : t('account_data.cancel_deletion')}
        </button>
      </div>
    );
  }
  return (
    <div className="flex flex-col items-start gap-3">
      {cancelled && <FormAlert tone="success">{t('account_data.cancelled')}</FormAlert>}
      <button
        type="button"
        className="btn border border-danger bg-surface text-danger hover:bg-surface-muted"
        onClick={() => {
          setCancelled(false);
          setOpen(true);
        }}
      >
        {t('account_data.delete')}
      </button>
      {open && <DeleteDialog onClose={() => setOpen(false)} />}
    </div>
  );
}

/**
 * "Your data" on the settings page (Rwanda Law 058/2021, Nigeria NDPA, Kenya DPA, POPIA): download
 * everything held about the account as one archive; applicants may also delete their account after a
 * grace period. Staff and admin accounts are closed by their institution or by Kaminuza.
 */
export function DataRightsSection() {
  const { t } = useTranslation();
  const { session } = useSession();
  const headingId = useId();
  const hintId = useId();
  const isStudent = session.status === 'signed-in' && session.user.type === 'student';
  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-4 rounded-2xl border border-border bg-surface p-5"
    >
      <div className="flex flex-col gap-1">
        <h2 id={headingId} className="text-xl font-bold">
          {t('account_data.title')}
        </h2>
        <p className="text-muted">{t('account_data.intro')}</p>
      </div>
      <div className="flex flex-col items-start gap-2">
        <a href={EXPORT_URL} download className="btn-secondary" aria-describedby={hintId}>
          {t('account_data.download')}
        </a>
        <p id={hintId} className="text-sm text-muted">
          {t('account_data.download_hint')}
        </p>
      </div>
      {isStudent ? <Deletion /> : <p className="text-sm text-muted">{t('account_data.staff_note')}</p>}
    </section>
  );
}
