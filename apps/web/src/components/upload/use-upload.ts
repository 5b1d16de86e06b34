import { useCallback, useEffect, useRef, useState } from 'react';
import type { UploadPurpose } from '@kaminuza/shared';
import type { DeviceUpload } from '../../lib/device-db.ts';
import {
  forgetUpload,
  startUpload,
  unfinishedUploads,
  UploadError,
  type UploadFailure,
  type UploadHandle,
  type UploadOwner,
  type UploadPhase,
  type UploadProgress,
} from '../../lib/upload.ts';
import { canDownscale, downscalePhoto, useDownscaleChoice } from './downscale.ts';

/** A kept upload is of this file when its name, type, size and (where the device kept it) date agree. */
function isSameFile(record: DeviceUpload, file: File): boolean {
  const keptDate = record.file instanceof File ? record.file.lastModified : file.lastModified;
  return (
    record.name === file.name &&
    record.type === file.type &&
    record.size === file.size &&
    keptDate === file.lastModified
  );
}

export type UploadState =
  | { status: 'idle' }
  | { status: 'preparing'; name: string }
  | { status: 'uploading'; name: string; progress: UploadProgress; phase: UploadPhase }
  | { status: 'done'; fileId: string | null }
  | { status: 'failed'; reason: UploadFailure };

/** The device records of a purpose's uploads: any screen uploading for that purpose offers them again. */
export const uploadOwnerOf = (purpose: UploadPurpose) => `upload:${purpose}`;

/**
 * One upload at a time for a control: its progress and phase, pause, resume and cancel, the photo
 * downscaling choice, and the uploads of this control left unfinished on the device (a reload, a closed
 * tab) to carry on or discard.
 */
export function useUpload(
  purpose: UploadPurpose,
  onDone: (fileId: string | null) => void,
  { owner = uploadOwnerOf(purpose) }: { owner?: UploadOwner } = {},
) {
  const [state, setState] = useState<UploadState>({ status: 'idle' });
  const [unfinished, setUnfinished] = useState<DeviceUpload[]>([]);
  const [downscale] = useDownscaleChoice();
  const handle = useRef<UploadHandle | null>(null);

  useEffect(() => {
    let live = true;
    void unfinishedUploads(owner).then((found) => {
      if (live) setUnfinished(found.filter((record) => record.id !== handle.current?.id));
    });
    return () => {
      live = false;
    };
  }, [owner]);

  // An upload still running when the control goes away stops sending; its record stays, offered next time.
  useEffect(
    () => () => {
      handle.current?.pause();
      handle.current = null;
    },
    [],
  );

  const run = useCallback(
    (file: Blob, name: string, resumeFrom?: DeviceUpload) => {
      const current = startUpload({
        file,
        name,
        purpose,
        owner,
        resumeFrom,
        onProgress: (progress) => {
          if (handle.current !== current) return;
          setState((previous) => (previous.status === 'uploading' ? { ...previous, progress } : previous));
        },
        onPhase: (phase) => {
          if (handle.current !== current) return;
          setState((previous) => (previous.status === 'uploading' ? { ...previous, phase } : previous));
        },
      });
      handle.current = current;
      setState({
        status: 'uploading',
        name,
        progress: { sent: resumeFrom?.offset ?? 0, total: file.size },
        phase: 'uploading',
      });
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
    [purpose, owner, onDone],
  );

  const start = useCallback(
    (file: File) => {
      const shrink = downscale && canDownscale(file, purpose);
      if (shrink) setState({ status: 'preparing', name: file.name });
      void (async () => {
        // The same file chosen again carries on with the upload the device kept for it (a downscaled copy
        // differs from the photo chosen, so a photo being made smaller starts anew).
        const kept = shrink ? undefined : (await unfinishedUploads(owner)).find((record) => isSameFile(record, file));
        if (kept) {
          setUnfinished((list) => list.filter((item) => item.id !== kept.id));
          run(file, kept.name, { ...kept, file, paused: false });
          return;
        }
        const prepared = shrink ? await downscalePhoto(file, purpose) : file;
        run(prepared, prepared.name);
      })();
    },
    [downscale, owner, purpose, run],
  );

  /** Carries on with an upload this device kept, from what the server holds of it. */
  const carryOn = useCallback(
    (record: DeviceUpload) => {
      setUnfinished((list) => list.filter((item) => item.id !== record.id));
      run(record.file, record.name, { ...record, paused: false });
    },
    [run],
  );

  /** Drops an upload this device kept, without sending the rest. */
  const discard = useCallback(async (record: DeviceUpload) => {
    setUnfinished((list) => list.filter((item) => item.id !== record.id));
    await forgetUpload(record.id);
    // tus termination; should it fail, the server's part expires with the other uploads left unfinished.
    if (record.upload_url) {
      await fetch(record.upload_url, { method: 'DELETE', headers: { 'Tus-Resumable': '1.0.0' } }).catch(
        () => undefined,
      );
    }
  }, []);

  const pause = useCallback(() => handle.current?.pause(), []);
  const resume = useCallback(() => handle.current?.resume(), []);
  const cancel = useCallback(() => {
    void handle.current?.cancel();
  }, []);

  return { state, start, pause, resume, cancel, unfinished, carryOn, discard };
}

export type UseUpload = ReturnType<typeof useUpload>;
