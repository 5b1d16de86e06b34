import { useParams, Link } from 'react-router';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { paths } from '../../../lib/paths.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { unsubscribe } from '../api/notifications.ts';

const isUnknown = (error: unknown) =>
  error instanceof ApiError && (error.status === 'NOT_FOUND' || error.status === 'INVALID_ARGUMENT');

/**
 * The page a marketing email's unsubscribe link opens, without signing in. Opening it changes nothing
 * (mail scanners follow links); the button does.
 */
export function UnsubscribePage() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const action = useMutation({ mutationFn: () => unsubscribe(token) });

  return (
    <section className="mx-auto flex w-full max-w-xl min-w-0 flex-col gap-6 px-4 py-8 sm:py-12">
      <h1 className="text-3xl font-bold tracking-tight">{t('notifications.unsubscribe.title')}</h1>
      {action.isSuccess ? (
        <p role="status" className="rounded-xl border-2 border-success bg-surface p-4 font-medium">
          {t('notifications.unsubscribe.done')}
        </p>
      ) : (
        <>
          <p>{t('notifications.unsubscribe.intro')}</p>
          <div>
            <button type="button" className="btn-primary" disabled={action.isPending} onClick={() => action.mutate()}>
              {t('notifications.unsubscribe.confirm')}
            </button>
          </div>
          {action.isError && (
            <p role="alert" className="text-danger">
              {isUnknown(action.error)
                ? t('notifications.unsubscribe.not_found')
                : t('notifications.unsubscribe.failed')}
            </p>
          )}
        </>
      )}
      <p className="text-sm text-muted">
        {t('notifications.unsubscribe.settings_hint')}{' '}
        <Link className="link" to={paths.login}>
          {t('auth.login.title')}
        </Link>
      </p>
    </section>
  );
}
