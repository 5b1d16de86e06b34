import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  WAIVER_CODE_MAX_USES,
  WAIVER_MESSAGES,
  type FeeWaiverStatus,
  type StaffFeeWaiver,
  type WaiverCode,
} from '@kaminuza/shared';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { FormAlert, SelectField, TextAreaField, TextField } from '../../../components/form/field.tsx';
import { EmptyState, LoadError } from '../../../components/list-states.tsx';
import { SkeletonTable } from '../../../components/skeleton-table.tsx';
import { errorMessageKey } from '../../../lib/error-messages.ts';
import { dateTimeFormat } from '../../../lib/intl.ts';
import { useSession } from '../../../lib/session.tsx';
import {
  useCreateWaiverCode,
  useDecideWaiver,
  useFeeWaivers,
  useInstitutionCycles,
  useRevokeWaiverCode,
  useWaiverCodes,
  waiverDocumentUrl,
} from '../api/waivers.ts';

const STATE_TONE: Record<WaiverCode['state'], string> = {
  usable: 'border-green-700 text-green-800 dark:text-green-300',
  used_up: 'border-border text-muted',
  expired: 'border-border text-muted',
  revoked: 'border-danger text-danger',
};

const STATUS_TONE: Record<FeeWaiverStatus, string> = {
  requested: 'border-brand text-brand',
  approved: 'border-green-700 text-green-800 dark:text-green-300',
  declined: 'border-danger text-danger',
};

function Badge({ tone, children }: { tone: string; children: React.ReactNode }) {
  return (
    <span className={`inline-block rounded-full border px-2 py-0.5 text-xs font-semibold whitespace-nowrap ${tone}`}>
      {children}
    </span>
  );
}

function useDates() {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? 'en';
  return useMemo(() => {
    const day = dateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' });
    const moment = dateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
    return {
      day: (value: string) => day.format(new Date(`${value}T00:00:00Z`)),
      moment: (iso: string) => moment.format(new Date(iso)),
    };
  }, [language]);
}

/** Fee waivers of the institution: the codes it gives out, and the applicants' requests to answer. */
export function FeeWaiversPage() {
  const { t } = useTranslation();
  const { session } = useSession();
  const partnerId = session.status === 'signed-in' ? (session.user.partner_id ?? '') : '';
  const [tab, setTab] = useState<'requests' | 'codes'>('requests');

  return (
    <div className="mx-auto flex w-full max-w-5xl min-w-0 flex-col gap-6">
      <div className="flex flex-col gap-2">
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{t('waivers.staff.title')}</h1>
        <p className="text-muted">{t('waivers.staff.intro')}</p>
      </div>
      <div role="tablist" aria-label={t('waivers.staff.tabs_label')} className="flex flex-wrap gap-2">
        {(['requests', 'codes'] as const).map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            id={`waivers-tab-${name}`}
            aria-selected={tab === name}
            aria-controls={`waivers-panel-${name}`}
            className={tab === name ? 'btn-primary' : 'btn-secondary'}
            onClick={() => setTab(name)}
          >
            {t(`waivers.staff.tabs.${name}`)}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`waivers-panel-${tab}`} aria-labelledby={`waivers-tab-${tab}`}>
        {tab === 'requests' ? <Requests partnerId={partnerId} /> : <Codes partnerId={partnerId} />}
      </div>
    </div>
  );
}

/* ---------------------------------------------------------------- codes */

function Codes({ partnerId }: { partnerId: string }) {
  const { t } = useTranslation();
  const codes = useWaiverCodes(partnerId);
  const revoke = useRevokeWaiverCode(partnerId);
  const [revoking, setRevoking] = useState<WaiverCode | null>(null);
  const [copied, setCopied] = useState<string | null>(null);
  const dates = useDates();

  const copy = async (code: WaiverCode) => {
    try {
      await navigator.clipboard.writeText(code.code);
      setCopied(code.id);
    } catch {
      setCopied(null);
    }
  };

  return (
    <div className="flex flex-col gap-6">
      <NewCodeForm partnerId={partnerId} />
      {codes.isPending && <SkeletonTable rows={3} columns={4} />}
      {codes.isError && (
        <LoadError error={codes.error} retryLabel={t('waivers.staff.retry')} onRetry={() => void codes.refetch()} />
      )}
      {codes.data?.length === 0 && (
        <EmptyState title={t('waivers.staff.codes_empty_title')} text={t('waivers.staff.codes_empty_text')} />
      )}
      {codes.data && codes.data.length > 0 && (
        <ul aria-label={t('waivers.staff.codes_label')} className="flex flex-col gap-3">
          {codes.data.map((code) => (
            <li key={code.id} className="flex flex-col gap-3 rounded-xl border border-border bg-surface p-4">
              <div className="flex flex-wrap items-center gap-2">
                <span className="font-mono text-lg font-semibold tracking-wider">{code.code}</span>
                <Badge tone={STATE_TONE[code.state]}>{t(`waivers.staff.states.${code.state}`)}</Badge>
              </div>
              {code.label && <p className="[overflow-wrap:anywhere]">{code.label}</p>}
              <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-3">
                <div>
                  <dt className="text-muted">{t('waivers.staff.usage')}</dt>
                  <dd>{t('waivers.staff.usage_value', { used: code.used_count, max: code.max_uses })}</dd>
                </div>
                <div>
                  <dt className="text-muted">{t('waivers.staff.cycle')}</dt>
                  <dd className="[overflow-wrap:anywhere]">{code.cycle_name}</dd>
                </div>
                <div>
                  <dt className="text-muted">{t('waivers.staff.expires_on')}</dt>
                  <dd>{dates.day(code.expires_on)}</dd>
                </div>
              </dl>
              <div className="flex flex-wrap gap-2">
                <button
                  type="button"
                  className="btn-secondary"
                  aria-label={t('waivers.staff.copy_label', { code: code.code })}
                  onClick={() => void copy(code)}
                >
                  {copied === code.id ? t('waivers.staff.copied') : t('waivers.staff.copy')}
                </button>
                {code.state !== 'revoked' && (
                  <button
                    type="button"
                    className="btn border border-danger bg-surface text-danger hover:bg-surface-muted"
                    aria-label={t('waivers.staff.revoke_label', { code: code.code })}
                    onClick={() => setRevoking(code)}
                  >
                    {t('waivers.staff.revoke')}
                  </button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      <p aria-live="polite" className="sr-only">
        {copied ? t('waivers.staff.copied') : ''}
      </p>
      {revoking && (
        <ConfirmDialog
          title={t('waivers.staff.revoke_title', { code: revoking.code })}
          description={t('waivers.staff.revoke_text')}
          confirmLabel={t('waivers.staff.revoke')}
          cancelLabel={t('waivers.staff.cancel')}
          pending={revoke.isPending}
          {...(revoke.isError ? { error: t(errorMessageKey(revoke.error)) } : {})}
          onConfirm={() => revoke.mutate(revoking.id, { onSuccess: () => setRevoking(null) })}
          onClose={() => {
            revoke.reset();
            setRevoking(null);
          }}
        />
      )}
    </div>
  );
}

function NewCodeForm({ partnerId }: { partnerId: string }) {
  const { t } = useTranslation();
  const cycles = useInstitutionCycles(partnerId);
  const create = useCreateWaiverCode(partnerId);
  const [cycleId, setCycleId] = useState('');
  const [maxUses, setMaxUses] = useState('10');
  const [expiresOn, setExpiresOn] = useState('');
  const [label, setLabel] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});

  const send = (event: FormEvent) => {
    event.preventDefault();
    const uses = Number(maxUses);
    const found: Record<string, string> = {};
    const chosenCycle = cycleId || cycles.data?.find((cycle) => cycle.current)?.id || '';
    if (!chosenCycle) found.cycle_id = WAIVER_MESSAGES.cycle_unknown;
    if (!Number.isInteger(uses) || uses < 1 || uses > WAIVER_CODE_MAX_USES)
      found.max_uses = WAIVER_MESSAGES.max_uses_invalid;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(expiresOn)) found.expires_on = WAIVER_MESSAGES.expires_invalid;
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    create.mutate(
      { cycle_id: chosenCycle, max_uses: uses, expires_on: expiresOn, label: label.trim() || null },
      { onSuccess: () => setLabel('') },
    );
  };

  return (
    <form
      noValidate
      onSubmit={send}
      aria-label={t('waivers.staff.new_code')}
      className="flex flex-col gap-4 rounded-xl border border-border bg-surface p-4"
    >
      <h2 className="text-lg font-semibold">{t('waivers.staff.new_code')}</h2>
      {cycles.isError && (
        <LoadError error={cycles.error} retryLabel={t('waivers.staff.retry')} onRetry={() => void cycles.refetch()} />
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          label={t('waivers.staff.cycle')}
          placeholder={t('waivers.staff.cycle_placeholder')}
          options={(cycles.data ?? []).map((cycle) => ({ value: cycle.id, label: cycle.name }))}
          value={cycleId || cycles.data?.find((cycle) => cycle.current)?.id || ''}
          error={errors.cycle_id}
          onChange={(event) => setCycleId(event.target.value)}
        />
        <TextField
          label={t('waivers.staff.max_uses')}
          type="number"
          inputMode="numeric"
          min={1}
          max={WAIVER_CODE_MAX_USES}
          value={maxUses}
          error={errors.max_uses}
          onChange={(event) => setMaxUses(event.target.value)}
        />
        <TextField
          label={t('waivers.staff.expires_on')}
          type="date"
          value={expiresOn}
          error={errors.expires_on}
          onChange={(event) => setExpiresOn(event.target.value)}
        />
        <TextField
          label={t('waivers.staff.label')}
          hint={t('waivers.staff.label_hint')}
          optional
          maxLength={100}
          value={label}
          onChange={(event) => setLabel(event.target.value)}
        />
      </div>
      {create.isError && <FormAlert>{t(errorMessageKey(create.error))}</FormAlert>}
      {create.isSuccess && (
        <FormAlert tone="success">{t('waivers.staff.created', { code: create.data.code })}</FormAlert>
      )}
      <button type="submit" className="btn-primary self-start" disabled={create.isPending}>
        {create.isPending ? t('waivers.staff.creating') : t('waivers.staff.create')}
      </button>
    </form>
  );
}

/* ---------------------------------------------------------------- requests */

function Requests({ partnerId }: { partnerId: string }) {
  const { t } = useTranslation();
  const [status, setStatus] = useState<FeeWaiverStatus | 'all'>('requested');
  const waivers = useFeeWaivers(partnerId, status);

  return (
    <div className="flex flex-col gap-4">
      <div className="max-w-xs">
        <SelectField
          label={t('waivers.staff.filter')}
          placeholder={t('waivers.staff.statuses.all')}
          options={(['requested', 'approved', 'declined'] as const).map((value) => ({
            value,
            label: t(`waivers.staff.statuses.${value}`),
          }))}
          value={status === 'all' ? '' : status}
          onChange={(event) => setStatus((event.target.value || 'all') as FeeWaiverStatus | 'all')}
        />
      </div>
      {waivers.isPending && <SkeletonTable rows={3} columns={3} />}
      {waivers.isError && (
        <LoadError error={waivers.error} retryLabel={t('waivers.staff.retry')} onRetry={() => void waivers.refetch()} />
      )}
      {waivers.data?.length === 0 && (
        <EmptyState title={t('waivers.staff.requests_empty_title')} text={t('waivers.staff.requests_empty_text')} />
      )}
      {waivers.data && waivers.data.length > 0 && (
        <ul aria-label={t('waivers.staff.requests_label')} className="flex flex-col gap-3">
          {waivers.data.map((waiver) => (
            <WaiverItem key={waiver.id} partnerId={partnerId} waiver={waiver} />
          ))}
        </ul>
      )}
    </div>
  );
}

function WaiverItem({ partnerId, waiver }: { partnerId: string; waiver: StaffFeeWaiver }) {
  const { t } = useTranslation();
  const decide = useDecideWaiver(partnerId);
  const dates = useDates();
  const [declining, setDeclining] = useState(false);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | undefined>();

  const decline = (event: FormEvent) => {
    event.preventDefault();
    if (!reason.trim()) {
      setReasonError(WAIVER_MESSAGES.decline_reason_required);
      return;
    }
    setReasonError(undefined);
    decide.mutate({ waiverId: waiver.id, decline: reason.trim() }, { onSuccess: () => setDeclining(false) });
  };

  return (
    <li className="flex flex-col gap-3 rounded-xl border border-border bg-surface p-4">
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="font-semibold [overflow-wrap:anywhere]">{waiver.applicant_name || waiver.applicant_email}</h3>
        <Badge tone={STATUS_TONE[waiver.status]}>{t(`waivers.staff.statuses.${waiver.status}`)}</Badge>
      </div>
      <p className="text-sm text-muted [overflow-wrap:anywhere]">
        {waiver.program_name} · {waiver.applicant_email} · {dates.moment(waiver.created_at)}
      </p>
      {waiver.kind === 'code' ? (
        <p className="text-sm">{t('waivers.staff.by_code', { code: waiver.code ?? '' })}</p>
      ) : (
        <blockquote className="border-l-4 border-border pl-3 whitespace-pre-line [overflow-wrap:anywhere]">
          {waiver.reason}
        </blockquote>
      )}
      {waiver.document && (
        <a className="link self-start" href={waiverDocumentUrl(partnerId, waiver.id)} download>
          {t('waivers.staff.document', {
            type: t(`documents.types.${waiver.document.type}`),
            name: waiver.document.file_name,
          })}
        </a>
      )}
      {waiver.status === 'declined' && waiver.decline_reason && (
        <p className="text-sm">
          <span className="font-semibold">{t('waivers.staff.declined_because')}</span> {waiver.decline_reason}
        </p>
      )}
      {decide.isError && <FormAlert>{t(errorMessageKey(decide.error))}</FormAlert>}
      {waiver.status === 'requested' && !declining && (
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            className="btn-primary"
            disabled={decide.isPending}
            aria-label={t('waivers.staff.approve_label', { name: waiver.applicant_name })}
            onClick={() => decide.mutate({ waiverId: waiver.id })}
          >
            {t('waivers.staff.approve')}
          </button>
          <button
            type="button"
            className="btn-secondary"
            aria-label={t('waivers.staff.decline_label', { name: waiver.applicant_name })}
            onClick={() => setDeclining(true)}
          >
            {t('waivers.staff.decline')}
          </button>
        </div>
      )}
      {waiver.status === 'requested' && declining && (
        <form noValidate onSubmit={decline} className="flex flex-col gap-3">
          <TextAreaField
            label={t('waivers.staff.decline_reason')}
            hint={t('waivers.staff.decline_hint')}
            rows={3}
            maxLength={2000}
            value={reason}
            error={reasonError}
            onChange={(event) => setReason(event.target.value)}
          />
          <div className="flex flex-wrap gap-2">
            <button type="submit" className="btn-primary" disabled={decide.isPending}>
              {t('waivers.staff.decline_send')}
            </button>
            <button type="button" className="btn-secondary" onClick={() => setDeclining(false)}>
              {t('waivers.staff.cancel')}
            </button>
          </div>
        </form>
      )}
    </li>
  );
}
