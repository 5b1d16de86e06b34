import { useCallback, useId, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import {
  DOCUMENT_MIME_TYPES,
  UPLOAD_MAX_DOCUMENT_BYTES,
  documentDownloadUrl,
  type StudentDocument,
} from '@kaminuza/shared';
import { Spinner } from '../../../components/spinner.tsx';
import { formatFileSize } from '../../../components/upload/file-size.ts';
import {
  DownscaleChoice,
  isBusy,
  UnfinishedUploads,
  UploadInFlight,
} from '../../../components/upload/upload-controls.tsx';
import { useUpload } from '../../../components/upload/use-upload.ts';
import { profileQuery } from '../api/get-profile.ts';
import { documentsQuery, useDocuments } from '../api/get-documents.ts';
import { useDeleteDocument } from '../api/delete-document.ts';
import { dateTimeFormat } from '../../../lib/intl.ts';

const ACCEPT = [...DOCUMENT_MIME_TYPES, '.pdf', '.jpg', '.jpeg', '.png', '.webp', '.heic'].join(',');

const BADGE: Record<StudentDocument['status'], string> = {
  verified: 'border-success text-success',
  pending: 'border-accent bg-accent/15 text-fg',
  rejected: 'border-danger text-danger',
  not_uploaded: 'border-border text-muted',
};

/** The Documents tab of the profile: the five document types with their status, upload and actions. */
export function DocumentsTab() {
  const { t, i18n } = useTranslation();
  const documents = useDocuments();
  return (
    <section aria-labelledby="documents-title" className="flex flex-col gap-4">
      <div>
        <h2 id="documents-title" className="text-xl font-semibold">
          {t('documents.title')}
        </h2>
        <p className="mt-1 text-muted">{t('documents.intro')}</p>
        <p className="mt-1 text-sm text-muted">
          {t('documents.allowed', { size: formatFileSize(t, UPLOAD_MAX_DOCUMENT_BYTES, i18n.language) })}
        </p>
        <div className="mt-3">
          <DownscaleChoice />
        </div>
      </div>
      {documents.isPending ? (
        <Spinner />
      ) : documents.isError ? (
        <div role="alert" className="flex flex-col items-start gap-3 rounded-lg border border-danger p-4 text-danger">
          <p>{t('documents.load_failed')}</p>
          <button type="button" className="btn-secondary" onClick={() => void documents.refetch()}>
            {t('documents.retry')}
          </button>
        </div>
      ) : (
        <ul className="flex flex-col gap-3">
          {documents.data.map((document) => (
            <DocumentRow key={document.type} document={document} />
          ))}
        </ul>
      )}
    </section>
  );
}

function DocumentRow({ document }: { document: StudentDocument }) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const remove = useDeleteDocument();
  const typeName = t(`documents.types.${document.type}`);
  const uploaded = document.status !== 'not_uploaded';

  const onUploaded = useCallback(() => {
    setNotice(t('documents.uploaded', { type: typeName }));
    // The profile's completion counts documents too.
    void queryClient.invalidateQueries({ queryKey: documentsQuery().queryKey });
    void queryClient.invalidateQueries({ queryKey: profileQuery().queryKey });
  }, [queryClient, t, typeName]);
  const upload = useUpload(document.type, onUploaded);
  const busy = isBusy(upload);

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setNotice(null);
    setConfirming(false);
    upload.start(file);
  };

  const confirmDelete = () => {
    remove.mutate(document.type, {
      onSuccess: () => {
        setConfirming(false);
        setNotice(t('documents.deleted', { type: typeName }));
      },
    });
  };

  const inputLabel = t(uploaded ? 'documents.replace_label' : 'documents.upload_label', { type: typeName });
  return (
    <li className="rounded-xl border border-border bg-surface p-4" aria-labelledby={`${id}-name`}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 id={`${id}-name`} className="font-semibold">
          {typeName}
        </h3>
        <span
          className={`rounded-full border px-2.5 py-0.5 text-sm font-medium ${BADGE[document.status]}`}
          aria-label={t('documents.status_label', { status: t(`documents.status.${document.status}`) })}
        >
          {t(`documents.status.${document.status}`)}
        </span>
      </div>

      {uploaded && document.file_name && (
        <p className="mt-2 text-sm break-all text-muted">
          <span className="font-medium text-fg">{document.file_name}</span>
          {document.size !== null && <> · {formatFileSize(t, document.size, i18n.language)}</>}
          {document.uploaded_at && (
            <>
              {' · '}
              {t('documents.uploaded_on', {
                date: dateTimeFormat(i18n.language, { dateStyle: 'medium' }).format(new Date(document.uploaded_at)),
              })}
            </>
          )}
        </p>
      )}
      {document.status === 'rejected' && document.review_note && (
        <p className="mt-2 text-sm text-danger">{t('documents.review_note', { note: document.review_note })}</p>
      )}

      <div className="mt-3 flex flex-col gap-3">
        <UnfinishedUploads upload={upload} />
        {busy ? (
          <UploadInFlight upload={upload} />
        ) : (
          <div className="flex flex-wrap gap-2">
            <label className="btn-primary cursor-pointer has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand">
              <span aria-hidden="true">{t(uploaded ? 'documents.replace' : 'documents.upload')}</span>
              <input
                type="file"
                className="sr-only"
                accept={ACCEPT}
                aria-label={inputLabel}
                disabled={busy || remove.isPending}
                onChange={choose}
              />
            </label>
            {uploaded && (
              <>
                <a
                  className="btn-secondary"
                  href={documentDownloadUrl(document.type)}
                  download={document.file_name ?? true}
                  aria-label={t('documents.download_label', { type: typeName })}
                >
                  {t('documents.download')}
                </a>
                <button
                  type="button"
                  className="btn-secondary text-danger"
                  aria-label={t('documents.delete_label', { type: typeName })}
                  aria-expanded={confirming}
                  onClick={() => setConfirming(true)}
                >
                  {t('documents.delete')}
                </button>
              </>
            )}
          </div>
        )}

        {confirming && (
          <div role="group" aria-labelledby={`${id}-confirm`} className="rounded-lg border border-danger p-3">
            <p id={`${id}-confirm`} className="text-sm font-medium">
              {t('documents.delete_confirm', { type: typeName })}
            </p>
            <div className="mt-2 flex flex-wrap gap-2">
              <button
                type="button"
                className="btn-primary bg-danger hover:bg-danger"
                disabled={remove.isPending}
                onClick={confirmDelete}
              >
                {t('documents.delete_confirm_yes')}
              </button>
              <button type="button" className="btn-secondary" onClick={() => setConfirming(false)}>
                {t('documents.delete_confirm_no')}
              </button>
            </div>
            {remove.isError && (
              <p role="alert" className="mt-2 text-sm font-medium text-danger">
                {t('documents.delete_failed')}
              </p>
            )}
          </div>
        )}

        {upload.state.status === 'failed' &&
          (upload.state.reason === 'cancelled' ? (
            <p role="status" className="text-sm text-muted">
              {t('upload.cancelled')}
            </p>
          ) : (
            <p role="alert" className="text-sm font-medium text-danger">
              {t(`upload.errors.${upload.state.reason}`)}
            </p>
          ))}
        {notice && upload.state.status !== 'failed' && !busy && (
          <p role="status" className="text-sm text-success">
            {notice}
          </p>
        )}
      </div>
    </li>
  );
}
