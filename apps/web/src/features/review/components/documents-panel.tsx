import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DocumentReviewSchema, type ReviewApplication, type ReviewDocument } from '@kaminuza/shared';
import { Dialog } from '../../../components/dialog.tsx';
import { FormAlert, TextAreaField } from '../../../components/form/field.tsx';
import { EmptyState } from '../../../components/list-states.tsx';
import { errorMessageKey } from '../../../lib/error-messages.ts';
import { reviewDocumentUrl } from '../api/get-review-application.ts';
import { useReviewDocument } from '../api/review-document.ts';
import { Badge, type Tone } from './review-parts.tsx';

const STATUS_TONE: Record<ReviewDocument['status'], Tone> = {
  verified: 'good',
  pending: 'warn',
  rejected: 'bad',
  not_uploaded: 'muted',
};

/** Asks why a document is rejected: the applicant reads the reason, so it is required. */
function RejectDialog({
  document,
  pending,
  error,
  onReject,
  onClose,
}: {
  document: ReviewDocument;
  pending: boolean;
  error: unknown;
  onReject: (reason: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const type = t(`documents.types.${document.type}`);
  return (
    <Dialog
      title={t('review.documents.reject_title', { type })}
      description={t('review.documents.reject_text')}
      onClose={onClose}
    >
      {() => (
        <form
          noValidate
          className="flex flex-col gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            const checked = DocumentReviewSchema.safeParse({ status: 'rejected', reason });
            if (!checked.success) {
              setProblem(checked.error.issues[0]?.message);
              return;
            }
            onReject(checked.data.reason ?? '');
          }}
        >
          <TextAreaField
            label={t('review.documents.reason')}
            rows={4}
            maxLength={500}
            autoFocus
            value={reason}
            error={problem}
            onChange={(event) => {
              setReason(event.target.value);
              setProblem(undefined);
            }}
          />
          {error !== null && error !== undefined && <FormAlert>{t(errorMessageKey(error))}</FormAlert>}
          <div className="flex flex-wrap justify-end gap-2">
            <button type="button" className="btn-secondary" onClick={onClose}>
              {t('review.cancel')}
            </button>
            <button
              type="submit"
              className="btn border border-danger bg-surface text-danger hover:bg-surface-muted"
              disabled={pending}
            >
              {t('review.documents.reject')}
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}

/** The documents submitted with the application: download, verify, or reject with a reason. */
export function DocumentsPanel({ partnerId, application }: { partnerId: string; application: ReviewApplication }) {
  const { t } = useTranslation();
  const review = useReviewDocument(partnerId, application.id);
  const [rejecting, setRejecting] = useState<ReviewDocument | null>(null);
  const [done, setDone] = useState<string | null>(null);

  if (application.documents.length === 0) {
    return <EmptyState title={t('review.documents.empty_title')} text={t('review.documents.empty_text')} />;
  }
  const verify = (document: ReviewDocument) =>
    review.mutate(
      { documentId: document.document_id, review: { status: 'verified' } },
      { onSuccess: () => setDone(t('review.documents.verified', { type: t(`documents.types.${document.type}`) })) },
    );

  return (
    <div className="flex flex-col gap-4">
      <div aria-live="polite">{done && <FormAlert tone="success">{done}</FormAlert>}</div>
      {review.isError && !rejecting && <FormAlert>{t(errorMessageKey(review.error))}</FormAlert>}
      <ul aria-label={t('review.documents.list_label')} className="flex flex-col gap-3">
        {application.documents.map((document) => {
          const type = t(`documents.types.${document.type}`);
          return (
            <li
              key={document.document_id}
              className="flex min-w-0 flex-col gap-3 rounded-xl border border-border bg-surface p-4 sm:flex-row sm:items-start sm:justify-between"
            >
              <div className="flex min-w-0 flex-col gap-1">
                <h3 className="font-semibold">{type}</h3>
                <p className="text-sm [overflow-wrap:anywhere] text-muted">{document.file_name}</p>
                <span>
                  <Badge tone={STATUS_TONE[document.status]}>{t(`documents.status.${document.status}`)}</Badge>
                </span>
                {document.review_note && (
                  <p className="text-sm break-words">
                    {t('review.documents.reason_shown', { reason: document.review_note })}
                  </p>
                )}
                {!document.available && document.status !== 'not_uploaded' && (
                  <p className="text-sm text-muted">{t('review.documents.replaced')}</p>
                )}
              </div>
              {document.available && (
                <div className="flex flex-wrap gap-2">
                  <a
                    className="btn-secondary"
                    href={reviewDocumentUrl(partnerId, application.id, document.document_id)}
                    download={document.file_name}
                    aria-label={t('review.documents.download_named', { type })}
                  >
                    {t('review.documents.download')}
                  </a>
                  <button
                    type="button"
                    className="btn-secondary"
                    disabled={review.isPending || document.status === 'verified'}
                    aria-label={t('review.documents.verify_named', { type })}
                    onClick={() => verify(document)}
                  >
                    {t('review.documents.verify')}
                  </button>
                  <button
                    type="button"
                    className="btn-secondary text-danger"
                    disabled={review.isPending}
                    aria-label={t('review.documents.reject_named', { type })}
                    onClick={() => {
                      review.reset();
                      setRejecting(document);
                    }}
                  >
                    {t('review.documents.reject')}
                  </button>
                </div>
              )}
            </li>
          );
        })}
      </ul>
      {rejecting && (
        <RejectDialog
          document={rejecting}
          pending={review.isPending}
          error={review.error}
          onClose={() => setRejecting(null)}
          onReject={(reason) =>
            review.mutate(
              { documentId: rejecting.document_id, review: { status: 'rejected', reason } },
              {
                onSuccess: () => {
                  setDone(t('review.documents.rejected', { type: t(`documents.types.${rejecting.type}`) }));
                  setRejecting(null);
                },
              },
            )
          }
        />
      )}
    </div>
  );
}
