import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFERRAL_REASON_MAX, DeferralRequestInputSchema, type StudentDecision } from '@kaminuza/shared';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { FormAlert, SelectField, TextAreaField, useMessage } from '../../../components/form/field.tsx';
import { errorMessageKey, fieldErrors } from '../../../lib/error-messages.ts';
import { numberFormat } from '../../../lib/intl.ts';
import { useDeferralCycles, useRequestDeferral, useWithdrawDeferral } from '../api/deferral.ts';
import { useApplicationFormats } from './formats.ts';

/** Whether the applicant may ask to defer this offer now: accepted by them, standing, no request open or answered. */
export function mayAskToDefer(decision: StudentDecision): boolean {
  return (
    decision.state === 'accepted' &&
    decision.response === 'accepted' &&
    decision.conditions_status !== 'not_met' &&
    !decision.lapsed_at &&
    (decision.deferral === null || decision.deferral.status === 'withdrawn')
  );
}

/**
 * Deferral of an accepted offer (ADR 053), on the decision: ask the university to hold the place for a later
 * intake (which, and why), see the request waiting and withdraw it, then read the answer and its note.
 * Nothing shows where no later intake offers the program and nothing was asked.
 */
export function DeferralSection({ decision }: { decision: StudentDecision }) {
  const { t } = useTranslation();
  const format = useApplicationFormats();
  const message = useMessage();
  const headingId = useId();
  const { deferral } = decision;
  const canAsk = mayAskToDefer(decision);
  const cycles = useDeferralCycles(decision.application_id, canAsk);
  const request = useRequestDeferral(decision.application_id);
  const withdraw = useWithdrawDeferral(decision.application_id);
  const [asking, setAsking] = useState(false);
  const [withdrawing, setWithdrawing] = useState(false);
  const [cycleId, setCycleId] = useState('');
  const [reason, setReason] = useState('');
  const [invalid, setInvalid] = useState<Record<string, string>>({});
  const [announced, setAnnounced] = useState<string | null>(null);
  const status = useRef<HTMLParagraphElement>(null);
  // The button that opened a dialog is gone once it succeeds: focus goes to what happened instead.
  useEffect(() => {
    if (announced) status.current?.focus();
  }, [announced]);

  const options = cycles.data?.items ?? [];
  const offerable = canAsk && options.length > 0;
  if (!deferral && !canAsk) return null;
  if (!deferral && cycles.isSuccess && options.length === 0) return null;

  const names = { university: decision.university_name, program: decision.program_name };
  const serverErrors = fieldErrors(request.error);
  const errors = { ...serverErrors, ...invalid };
  const closeAsk = () => {
    setAsking(false);
    setInvalid({});
    request.reset();
  };
  const send = () => {
    const checked = DeferralRequestInputSchema.safeParse({ cycle_id: cycleId, reason });
    if (!checked.success) {
      const found: Record<string, string> = {};
      for (const issue of checked.error.issues) found[String(issue.path[0])] ??= issue.message;
      setInvalid(found);
      return;
    }
    setInvalid({});
    request.mutate(checked.data, {
      onSuccess: () => {
        setAsking(false);
        setReason('');
        setCycleId('');
        setAnnounced(t('decisions.deferral.sent'));
      },
    });
  };
  const requestFailure =
    request.isError && Object.keys(serverErrors).length === 0 ? t(errorMessageKey(request.error)) : undefined;

  let body: React.ReactNode = null;
  if (deferral?.status === 'pending') {
    body = (
      <>
        <p>
          {t('decisions.deferral.pending', {
            date: format.date(deferral.requested_at),
            cycle: deferral.to_cycle.name,
            university: decision.university_name,
          })}
        </p>
        <div className="flex flex-col gap-1">
          <h3 className="text-sm text-muted">{t('decisions.deferral.your_reason')}</h3>
          <p className="whitespace-pre-line break-words">{deferral.reason}</p>
        </div>
        <div>
          <button type="button" className="btn-secondary" onClick={() => setWithdrawing(true)}>
            {t('decisions.deferral.withdraw')}
          </button>
        </div>
      </>
    );
  } else if (deferral && deferral.status !== 'withdrawn') {
    body = (
      <>
        <p className="font-medium">
          {t(`decisions.deferral.${deferral.status}`, {
            date: format.date(deferral.closed_at ?? deferral.requested_at),
            cycle: deferral.to_cycle.name,
            university: decision.university_name,
          })}
        </p>
        {deferral.note && (
          <div className="flex flex-col gap-1">
            <h3 className="text-sm text-muted">
              {t('decisions.deferral.note_from', { university: decision.university_name })}
            </h3>
            <p className="whitespace-pre-line break-words">{deferral.note}</p>
          </div>
        )}
      </>
    );
  } else {
    body = (
      <>
        {deferral?.status === 'withdrawn' && deferral.closed_at && (
          <p className="text-sm text-muted">
            {t('decisions.deferral.withdrawn', { date: format.date(deferral.closed_at) })}
          </p>
        )}
        {cycles.isError ? (
          <div className="flex flex-col gap-2">
            <FormAlert>{t('decisions.deferral.cycles_failed')}</FormAlert>
            <div>
              <button type="button" className="btn-secondary" onClick={() => void cycles.refetch()}>
                {t('decisions.deferral.retry')}
              </button>
            </div>
          </div>
        ) : (
          offerable && (
            <>
              <p>{t('decisions.deferral.intro', names)}</p>
              <div>
                <button type="button" className="btn-secondary" onClick={() => setAsking(true)}>
                  {t('decisions.deferral.ask')}
                </button>
              </div>
            </>
          )
        )}
      </>
    );
  }

  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-3 rounded-xl border border-border bg-surface p-4 print:hidden"
    >
      <h2 id={headingId} className="font-semibold">
        {t('decisions.deferral.title')}
      </h2>
      {/* Announces what the dialog did, where focus returns once its button is gone. */}
      <p
        ref={status}
        role="status"
        tabIndex={-1}
        className={announced ? 'font-semibold focus:outline-none' : 'sr-only'}
      >
        {announced ?? ''}
      </p>
      {body}
      {asking && (
        <ConfirmDialog
          tone="primary"
          title={t('decisions.deferral.dialog_title')}
          description={t('decisions.deferral.dialog_text', names)}
          fields={
            <>
              <SelectField
                label={t('decisions.deferral.cycle')}
                placeholder={t('decisions.deferral.cycle_placeholder')}
                options={options.map((cycle) => ({ value: cycle.id, label: cycle.name }))}
                value={cycleId}
                onChange={(event) => setCycleId(event.target.value)}
                error={message(errors.cycle_id)}
                required
              />
              <TextAreaField
                label={t('decisions.deferral.reason')}
                hint={t('decisions.deferral.reason_hint', {
                  max: numberFormat(format.lang).format(DEFERRAL_REASON_MAX),
                })}
                value={reason}
                onChange={(event) => setReason(event.target.value)}
                maxLength={DEFERRAL_REASON_MAX}
                rows={4}
                error={message(errors.reason)}
                required
              />
            </>
          }
          confirmLabel={t('decisions.deferral.send')}
          cancelLabel={t('decisions.deferral.cancel')}
          pending={request.isPending}
          error={requestFailure}
          onConfirm={send}
          onClose={closeAsk}
        />
      )}
      {withdrawing && (
        <ConfirmDialog
          title={t('decisions.deferral.withdraw_title')}
          description={t('decisions.deferral.withdraw_text')}
          confirmLabel={t('decisions.deferral.withdraw_confirm')}
          cancelLabel={t('decisions.deferral.cancel')}
          pending={withdraw.isPending}
          error={withdraw.isError ? t(errorMessageKey(withdraw.error)) : undefined}
          onConfirm={() =>
            withdraw.mutate(undefined, {
              onSuccess: () => {
                setWithdrawing(false);
                setAnnounced(t('decisions.deferral.withdrawn_done'));
              },
            })
          }
          onClose={() => {
            setWithdrawing(false);
            withdraw.reset();
          }}
        />
      )}
    </section>
  );
}
