import { useCallback, useId, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { DocumentType } from '@kaminuza/shared';
import { useUpload } from '../../../components/upload/use-upload.ts';
import {
  DownscaleChoice,
  isBusy,
  UnfinishedUploads,
  UploadInFlight,
} from '../../../components/upload/upload-controls.tsx';
import { FormAlert } from '../../../components/form/field.tsx';

/** "Upload a new <type>" beside a file question: the upload becomes the student's document of that type. */
export function DocumentUpload({ type, onUploaded }: { type: DocumentType; onUploaded: (type: DocumentType) => void }) {
  const { t } = useTranslation();
  const id = useId();
  const done = useCallback(() => onUploaded(type), [onUploaded, type]);
  const upload = useUpload(type, done);
  const typeName = t(`documents.types.${type}`);

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (file) upload.start(file);
  };

  if (isBusy(upload)) return <UploadInFlight upload={upload} />;
  return (
    <div className="flex flex-col gap-2">
      <UnfinishedUploads upload={upload} />
      <label
        htmlFor={id}
        className="btn-secondary cursor-pointer self-start has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand"
      >
        {t('applications.form.upload_new', { type: typeName })}
        <input id={id} type="file" className="sr-only" onChange={choose} />
      </label>
      <DownscaleChoice />
      {upload.state.status === 'failed' && upload.state.reason !== 'cancelled' && (
        <FormAlert>{t(`upload.errors.${upload.state.reason}`)}</FormAlert>
      )}
      {upload.state.status === 'done' && (
        <p role="status" className="text-sm text-success">
          {t('documents.uploaded', { type: typeName })}
        </p>
      )}
    </div>
  );
}
