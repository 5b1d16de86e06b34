import { useCallback, useEffect, useRef, useState } from 'react';
import type { UploadPurpose } from '@kaminuza/shared';
import {
  startUpload,
  UploadError,
  type UploadFailure,
  type UploadHandle,
  type UploadProgress,
} from '../../lib/upload.ts';

export type UploadState =
  | { status: 'idle' }
  | { status: 'uploading'; name: string; progress: UploadProgress }
  | { status: 'done'; fileId: string | null }
  | { status: 'failed'; reason: UploadFailure };

/** One upload at a time for a control: its progress, its outcome, and a way to cancel it. */
export function useUpload(purpose: UploadPurpose, onDone: (fileId: string | null) => void) {
  const [state, setState] = useState<UploadState>({ status: 'idle' });
  const handle = useRef<UploadHandle | null>(null);

  // An upload still running when the control goes away keeps its fingerprint and resumes next time.
  useEffect(() => () => void (handle.current = null), []);

  const start = useCallback(
    (file: File) => {
      const current = startUpload({
        file,
        purpose,
        onProgress: (progress) => {
          if (handle.current === current) setState({ status: 'uploading', name: file.name, progress });
        },
      });
      handle.current = current;
      setState({ status: 'uploading', name: file.name, progress: { sent: 0, total: file.size } });
      current.done.then(
        (fileId) => {
          if (handle.current !== current) return;
          handle.current = null;
          setState({ status: 'done', fileId });
          onDone(fileId);
        },
        (error: unknown) => {
          if (handle.current !== current) return;
          handle.current = null;
          const reason = error instanceof UploadError ? error.reason : 'upload_failed';
          setState({ status: 'failed', reason });
        },
      );
    },
    [purpose, onDone],
  );

  const cancel = useCallback(() => {
    void handle.current?.cancel();
  }, []);

  return { state, start, cancel };
}
