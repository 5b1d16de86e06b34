import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  WAIVER_MESSAGES,
  WAIVER_REASON_MAX,
  WAIVER_REASON_MIN,
  normalizeWaiverCode,
  type ApplicationDocument,
  type FeeWaiver,
} from '@kaminuza/shared';
import { FormAlert, SelectField, TextAreaField, TextField } from '../../../components/form/field.tsx';
import { errorMessageKey, fieldErrors } from '../../../lib/error-messages.ts';
import { dateTimeFormat } from '../../../lib/intl.ts';
import { useOwnWaiver, useRedeemWaiverCode, useRequestWaiver } from '../api/waivers.ts';

/** The message of a refused field, when the API named the field (so it shows under it). */
const fieldMessage = (error: unknown, path: string): string | undefined => fieldErrors(error)[path];

/**
 * The fee waiver of an application, beside its payment: enter a waiver code the institution gave out, or ask
 * the institution to waive the fee (a reason and, optionally, one of one's documents). Shows where a
 * request stands (waiting, approved, or declined with the institution's reason, then asked again).
 */
export function FeeWaiverPanel({
  applicationId,
  documents,
  paid = false,
  onContinue,
}: {
  applicationId: string;
  /** The applicant's profile documents, one of which may support a request. */
  documents: readonly ApplicationDocument[];
  /** A paid fee takes no waiver: the panel says nothing then. */
  paid?: boolean;
  /** Where a waived applicant goes on to (the review step). */
  onContinue?: () => void;
}) {
  const { t } = useTranslation();
  const headingId = useId();
  const waiver = useOwnWaiver(applicationId, !paid);

  if (paid) return null;
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4 rounded-xl border border-border bg-surface p-4">
      <h3 id={headingId} className="text-base font-semibold">
        {t('waivers.panel.title')}
      </h3>
      {waiver.isPending ? (
        <p role="status" className="text-sm text-muted">
          {t('waivers.panel.loading')}
        </p>
      ) : waiver.isError ? (
        <div role="alert" className="flex flex-wrap items-center gap-3 text-sm text-danger">
          <span>{t('waivers.panel.load_failed')}</span>
          <button type="button" className="btn-secondary" onClick={() => void waiver.refetch()}>
            {t('waivers.panel.retry')}
          </button>
        </div>
      ) : (
        <WaiverState
          applicationId={applicationId}
          documents={documents}
          waiver={waiver.data}
          {...(onContinue ? { onContinue } : {})}
        />
      )}
    </section>
  );
}

function WaiverState({
  applicationId,
  documents,
  waiver,
  onContinue,
}: {
  applicationId: string;
  documents: readonly ApplicationDocument[];
  waiver: FeeWaiver | null;
  onContinue?: () => void;
}) {
  const { t, i18n } = useTranslation();
  const date = (iso: string) =>
    dateTimeFormat(i18n.resolvedLanguage ?? 'en', { dateStyle: 'medium' }).format(new Date(iso));

  if (waiver?.status === 'approved') {
    return (
      <>
        <p role="status" className="font-semibold text-success">
          <span aria-hidden="true">✓ </span>
          {t(waiver.kind === 'code' ? 'waivers.panel.approved_code' : 'waivers.panel.approved_request')}
        </p>
        {onContinue && (
          <button type="button" className="btn-primary self-start" onClick={onContinue}>
            {t('waivers.panel.continue')}
          </button>
        )}
      </>
    );
  }
  if (waiver?.status === 'requested') {
    return (
      <p role="status" className="text-sm">
        {t('waivers.panel.requested', { date: date(waiver.created_at) })}
      </p>
    );
  }
  return (
    <>
      {waiver?.status === 'declined' && (
        <div role="status" className="rounded-lg border border-danger p-3 text-sm">
          <p className="font-semibold text-danger">{t('waivers.panel.declined')}</p>
          {waiver.decline_reason && <p className="mt-1 break-words">{waiver.decline_reason}</p>}
          <p className="mt-1 text-muted">{t('waivers.panel.declined_again')}</p>
        </div>
      )}
      <CodeForm applicationId={applicationId} />
      <RequestForm applicationId={applicationId} documents={documents} />
    </>
  );
}

function CodeForm({ applicationId }: { applicationId: string }) {
  const { t } = useTranslation();
  const redeem = useRedeemWaiverCode(applicationId);
  const [code, setCode] = useState('');
  const [invalid, setInvalid] = useState(false);

  const send = (event: FormEvent) => {
    event.preventDefault();
    if (!normalizeWaiverCode(code)) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    redeem.mutate(code);
  };
  const error = invalid ? WAIVER_MESSAGES.code_format : fieldMessage(redeem.error, 'code');
  return (
    <form noValidate onSubmit={send} className="flex flex-col gap-2" aria-label={t('waivers.panel.code_title')}>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start">
        <div className="min-w-0 flex-1">
          <TextField
            label={t('waivers.panel.code_label')}
            hint={t('waivers.panel.code_hint')}
            value={code}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={40}
            error={error}
            onChange={(event) => setCode(event.target.value)}
          />
        </div>
        <button type="submit" className="btn-primary sm:mt-7" disabled={redeem.isPending}>
          {redeem.isPending ? t('waivers.panel.applying') : t('waivers.panel.apply')}
        </button>
      </div>
      {redeem.isError && !error && <FormAlert>{t(errorMessageKey(redeem.error))}</FormAlert>}
    </form>
  );
}

function RequestForm({
  applicationId,
  documents,
}: {
  applicationId: string;
  documents: readonly ApplicationDocument[];
}) {
  const { t } = useTranslation();
  const formId = useId();
  const request = useRequestWaiver(applicationId);
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [documentId, setDocumentId] = useState('');
  const [tooShort, setTooShort] = useState(false);

  const send = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = reason.trim();
    if (trimmed.length < WAIVER_REASON_MIN || trimmed.length > WAIVER_REASON_MAX) {
      setTooShort(true);
      return;
    }
    setTooShort(false);
    request.mutate({ reason: trimmed, document_id: documentId || null });
  };
  const reasonError = tooShort ? WAIVER_MESSAGES.reason_length : fieldMessage(request.error, 'reason');
  const documentError = fieldMessage(request.error, 'document_id');
  return (
    <div className="flex flex-col gap-3 border-t border-border pt-3">
      <button
        type="button"
        className="btn-secondary self-start"
        aria-expanded={open}
        aria-controls={formId}
        onClick={() => setOpen((value) => !value)}
      >
        {t('waivers.panel.request_toggle')}
      </button>
      {open && (
        <form
          id={formId}
          noValidate
          onSubmit={send}
          className="flex flex-col gap-3"
          aria-label={t('waivers.panel.request_title')}
        >
          <p className="text-sm text-muted">{t('waivers.panel.request_intro')}</p>
          <TextAreaField
            label={t('waivers.panel.reason_label')}
            hint={t('waivers.panel.reason_hint', {
              min: WAIVER_REASON_MIN,
              max: WAIVER_REASON_MAX,
              written: reason.trim().length,
            })}
            rows={5}
            maxLength={WAIVER_REASON_MAX}
            value={reason}
            error={reasonError}
            onChange={(event) => setReason(event.target.value)}
          />
          {documents.length > 0 ? (
            <SelectField
              label={t('waivers.panel.document_label')}
              hint={t('waivers.panel.document_hint')}
              placeholder={t('waivers.panel.document_none')}
              options={documents.map((document) => ({
                value: document.id,
                label: `${t(`documents.types.${document.type}`)} — ${document.name}`,
              }))}
              value={documentId}
              error={documentError}
              onChange={(event) => setDocumentId(event.target.value)}
            />
          ) : (
            <p className="text-sm text-muted">{t('waivers.panel.no_documents')}</p>
          )}
          {request.isError && !reasonError && !documentError && (
            <FormAlert>{t(errorMessageKey(request.error))}</FormAlert>
          )}
          <button type="submit" className="btn-primary self-start" disabled={request.isPending}>
            {request.isPending ? t('waivers.panel.sending') : t('waivers.panel.send_request')}
          </button>
        </form>
      )}
    </div>
  );
}
