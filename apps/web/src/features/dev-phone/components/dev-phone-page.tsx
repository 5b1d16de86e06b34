import { useId, useSyncExternalStore, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { DEV_PHONE_SCRIPTS, fromMinor, currencyDigits, type DevPhonePrompt } from '@kaminuza/shared';
import { Spinner } from '../../../components/spinner.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { dateTimeFormat, numberFormat } from '../../../lib/intl.ts';
import { useDecidePrompt, useDevPhonePrompts } from '../api/dev-phone.ts';

/** How many answered prompts stay listed under the pending ones. */
const RECENT = 10;
const NETWORKS: Record<string, string> = {
  mtn_momo: 'MTN MoMo',
  mpesa: 'M-Pesa',
  mpesa_tz: 'M-Pesa Tanzania',
  airtel_money: 'Airtel Money',
};

function subscribeOnline(onChange: () => void) {
  globalThis.addEventListener('online', onChange);
  globalThis.addEventListener('offline', onChange);
  return () => {
    globalThis.removeEventListener('online', onChange);
    globalThis.removeEventListener('offline', onChange);
  };
}

function useOnline() {
  return useSyncExternalStore(
    subscribeOnline,
    () => globalThis.navigator?.onLine !== false,
    () => true,
  );
}

function useFormats() {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  const date = dateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'medium' });
  return {
    date: (iso: string) => date.format(new Date(iso)),
    amount: (prompt: DevPhonePrompt) => {
      const digits = currencyDigits(prompt.currency);
      return numberFormat(language, {
        style: 'currency',
        currency: prompt.currency,
        minimumFractionDigits: digits,
        maximumFractionDigits: digits,
      }).format(fromMinor(prompt.amount, prompt.currency));
    },
  };
}

function PromptCard({ prompt }: { prompt: DevPhonePrompt }) {
  const { t } = useTranslation();
  const format = useFormats();
  const decide = useDecidePrompt();
  const network = NETWORKS[prompt.provider] ?? prompt.provider;
  const pending = prompt.status === 'pending';
  const headingId = useId();
  return (
    <li aria-labelledby={headingId} className="flex flex-col gap-3 rounded-xl border border-border bg-surface p-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={headingId} className="text-lg font-semibold">
          {t('dev_phone.prompt_title', { network, amount: format.amount(prompt) })}
        </h3>
        <span className={pending ? 'text-sm font-medium' : 'text-sm text-muted'}>
          {t(`dev_phone.status.${prompt.status}`)}
        </span>
      </div>
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
        <dt className="font-medium text-muted">{t('dev_phone.network')}</dt>
        <dd>{network}</dd>
        <dt className="font-medium text-muted">{t('dev_phone.number')}</dt>
        <dd className="font-mono break-all">{prompt.msisdn}</dd>
        <dt className="font-medium text-muted">{t('dev_phone.received')}</dt>
        <dd>
          <time dateTime={prompt.created_at}>{format.date(prompt.created_at)}</time>
        </dd>
      </dl>
      {pending ? (
        <div className="flex flex-wrap gap-3">
          <button
            type="button"
            className="btn-primary"
            disabled={decide.isPending}
            onClick={() => decide.mutate({ prompt, decision: 'approve' })}
          >
            {t('dev_phone.approve')}
          </button>
          <button
            type="button"
            className="btn-secondary"
            disabled={decide.isPending}
            onClick={() => decide.mutate({ prompt, decision: 'decline' })}
          >
            {t('dev_phone.decline')}
          </button>
        </div>
      ) : null}
      {decide.isError ? (
        <p role="alert" className="text-sm text-danger">
          {t(
            decide.error instanceof ApiError && decide.error.httpStatus === 409
              ? 'dev_phone.already_answered'
              : 'dev_phone.decide_error',
          )}
        </p>
      ) : null}
    </li>
  );
}

function Scripts() {
  const { t } = useTranslation();
  return (
    <details className="rounded-xl border border-border bg-surface p-4">
      <summary className="cursor-pointer font-semibold">{t('dev_phone.scripts_title')}</summary>
      <p className="mt-3 text-sm text-muted">{t('dev_phone.scripts_intro')}</p>
      <table className="mt-3 w-full text-left text-sm">
        <thead>
          <tr>
            <th scope="col" className="py-1 pr-4 font-semibold">
              {t('dev_phone.scripts_ends_in')}
            </th>
            <th scope="col" className="py-1 font-semibold">
              {t('dev_phone.scripts_outcome')}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-border">
          {DEV_PHONE_SCRIPTS.map(({ suffix, outcome }) => (
            <tr key={suffix}>
              <td className="py-1 pr-4 font-mono">…{suffix}</td>
              <td className="py-1">{t(`dev_phone.scripts.${outcome}`)}</td>
            </tr>
          ))}
          <tr>
            <td className="py-1 pr-4">{t('dev_phone.scripts.waits')}</td>
            <td className="py-1">{t('dev_phone.scripts.waits')}</td>
          </tr>
        </tbody>
      </table>
    </details>
  );
}

/** The test phone: the payment prompts of the local provider simulators, answered as the payer would. */
export function DevPhonePage() {
  const { t } = useTranslation();
  const online = useOnline();
  const list = useDevPhonePrompts();
  const pendingId = useId();
  const recentId = useId();

  let content: ReactNode;
  if (list.isPending) content = <Spinner />;
  else if (list.isError && !list.data) {
    content = (
      <div role="alert" className="rounded-xl border border-border bg-surface p-4">
        <p className="text-danger">{t('dev_phone.load_error')}</p>
        <button type="button" className="btn-secondary mt-3" onClick={() => void list.refetch()}>
          {t('dev_phone.retry')}
        </button>
      </div>
    );
  } else {
    const prompts = list.data ?? [];
    const pending = prompts.filter((prompt) => prompt.status === 'pending');
    const recent = prompts.filter((prompt) => prompt.status !== 'pending').slice(0, RECENT);
    content = (
      <div className="flex flex-col gap-8">
        <section aria-labelledby={pendingId}>
          <h2 id={pendingId} className="mb-3 text-lg font-semibold">
            {t('dev_phone.pending')}
          </h2>
          {pending.length === 0 ? (
            <p className="rounded-xl border border-border bg-surface p-4 text-muted">{t('dev_phone.empty')}</p>
          ) : (
            <ul className="flex flex-col gap-4">
              {pending.map((prompt) => (
                <PromptCard key={`${prompt.provider}:${prompt.id}`} prompt={prompt} />
              ))}
            </ul>
          )}
        </section>
        {recent.length > 0 ? (
          <section aria-labelledby={recentId}>
            <h2 id={recentId} className="mb-3 text-lg font-semibold">
              {t('dev_phone.recent')}
            </h2>
            <ul className="flex flex-col gap-4">
              {recent.map((prompt) => (
                <PromptCard key={`${prompt.provider}:${prompt.id}`} prompt={prompt} />
              ))}
            </ul>
          </section>
        ) : null}
      </div>
    );
  }

  return (
    <section className="container-page py-8 sm:py-12">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="min-w-0">
          <h1 className="text-3xl font-bold">{t('dev_phone.title')}</h1>
          <p className="mt-2 text-muted">{t('dev_phone.intro')}</p>
        </div>
        <Link to="/dev/mailbox" className="link">
          {t('dev_phone.mailbox_link')}
        </Link>
      </div>
      {!online ? (
        <p role="status" className="mt-6 rounded-xl border border-border bg-surface p-4">
          {t('dev_phone.offline')}
        </p>
      ) : list.isError && list.data ? (
        <p role="status" className="mt-6 rounded-xl border border-border bg-surface p-4 text-danger">
          {t('dev_phone.refresh_error')}
        </p>
      ) : null}
      <div className="mt-8 grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,22rem)]">
        <div className="min-w-0">{content}</div>
        <div className="min-w-0">
          <Scripts />
        </div>
      </div>
    </section>
  );
}
