import type { DetailedError, Upload, UploadOptions } from 'tus-js-client';
import {
  UPLOAD_MAX_CHUNK_BYTES,
  UPLOAD_MAX_DOCUMENT_BYTES,
  UPLOAD_MAX_PICTURE_BYTES,
  UPLOAD_MESSAGES,
  UPLOAD_PATH,
  UPLOAD_RESUMABLE_THRESHOLD_BYTES,
  type UploadMessageKey,
  type UploadPurpose,
} from '@kaminuza/shared';
import { deviceDb, type DeviceUpload } from './device-db.ts';

/** Waits before each new attempt after a failed request (a dropped connection, a server restart). */
export const RETRY_DELAYS_MS = [0, 1_000, 3_000, 5_000, 10_000, 20_000];

export function maxUploadBytes(purpose: UploadPurpose): number {
  return purpose === 'profile_picture' ? UPLOAD_MAX_PICTURE_BYTES : UPLOAD_MAX_DOCUMENT_BYTES;
}

/** Spec section 9: chunks start at 256 KB and double after each accepted chunk, up to 32 MB. */
export function nextChunkSize(current: number): number {
  return Math.min(current * 2, UPLOAD_MAX_CHUNK_BYTES);
}

/** Files up to 256 KB go in the creation request itself; only larger ones are resumable. */
export function isResumable(size: number): boolean {
  return size > UPLOAD_RESUMABLE_THRESHOLD_BYTES;
}

export type UploadFailure = UploadMessageKey | 'cancelled';

/** An upload that did not finish; `reason` names the message of the `upload.errors` group to show. */
export class UploadError extends Error {
  readonly reason: UploadFailure;
  constructor(reason: UploadFailure) {
    super(reason === 'cancelled' ? 'cancelled' : UPLOAD_MESSAGES[reason]);
    this.name = 'UploadError';
    this.reason = reason;
  }
}

export interface UploadProgress {
  sent: number;
  total: number;
}

/**
 * Where an upload stands while it has not finished: sending; paused by the user; waiting for the
 * browser to be online again (it carries on by itself then); or stopped after its retries ran out
 * while the browser thought it was online (the user retries).
 */
export type UploadPhase = 'uploading' | 'paused' | 'offline' | 'interrupted';

export interface UploadHandle {
  /** The upload's id on this device (its record in the device database). */
  id: string;
  /** Resolves once the server has kept the file, with the id it gave it (its x-file-id header). */
  done: Promise<string | null>;
  /** Stops sending and keeps what the server holds, to carry on with `resume`. */
  pause(): void;
  /** Carries on after a pause or an interruption, from the offset the server holds. */
  resume(): void;
  /** Stops the upload and discards what the server and the device hold of it. */
  cancel(): Promise<void>;
}

/** The owner of the device records of one screen's uploads (see DeviceUpload.owner). */
export type UploadOwner = string;

/** How tus reads, sends and waits: the browser's and RETRY_DELAYS_MS by default (tests give their own). */
export type UploadTransport = Pick<UploadOptions, 'httpStack' | 'fileReader' | 'retryDelays'>;

function failureOf(error: Error, purpose: UploadPurpose): UploadFailure {
  const response = (error as DetailedError).originalResponse;
  const status = response?.getStatus();
  if (status === 413) return 'file_too_large';
  if (status === 415) return purpose === 'profile_picture' ? 'picture_type_not_allowed' : 'file_type_not_allowed';
  return purpose === 'profile_picture' ? 'profile_picture_failed' : 'upload_failed';
}

/** A failure the same request would meet again: the file is refused, so nothing is kept to retry. */
function isFinalFailure(error: Error): boolean {
  const status = (error as DetailedError).originalResponse?.getStatus() ?? 0;
  return status >= 400 && status < 500 && status !== 409 && status !== 423;
}

const isOffline = () => typeof navigator !== 'undefined' && navigator.onLine === false;

/** Client errors other than a lock or conflict will fail again: only server and network failures are retried. */
function shouldRetry(error: DetailedError): boolean {
  // Offline, the next attempts would fail at once and use up the retries: the upload waits for `online`.
  if (isOffline()) return false;
  const status = error.originalResponse?.getStatus() ?? 0;
  return status === 0 || status === 409 || status === 423 || status >= 500;
}

/*
 * The device's records of unfinished uploads. Every write is best effort: where IndexedDB is missing or
 * full, the upload still runs, it only cannot outlive the page.
 */
async function saveRecord(record: DeviceUpload): Promise<void> {
  await deviceDb()
    .then((db) => db.put('uploads', record))
    .catch(() => undefined);
}

async function updateRecord(id: string, change: Partial<DeviceUpload>): Promise<void> {
  await deviceDb()
    .then(async (db) => {
      const tx = db.transaction('uploads', 'readwrite');
      const current = await tx.store.get(id);
      if (current) await tx.store.put({ ...current, ...change });
      await tx.done;
    })
    .catch(() => undefined);
}

/** Forgets an unfinished upload on this device (its file and its URL). */
export async function forgetUpload(id: string): Promise<void> {
  await deviceDb()
    .then((db) => db.delete('uploads', id))
    .catch(() => undefined);
}

/** The uploads a screen started and did not finish, oldest first, to offer them again. */
export async function unfinishedUploads(owner: UploadOwner): Promise<DeviceUpload[]> {
  try {
    const db = await deviceDb();
    const found = await db.getAllFromIndex('uploads', 'by_owner', owner);
    return found.sort((a, b) => a.created_at.localeCompare(b.created_at));
  } catch {
    return [];
  }
}

/**
 * Uploads a file with the tus protocol to the api. The file and the tus upload's URL are kept in the
 * device database until the upload ends, so after a dropped connection, a reload or a closed tab it
 * carries on (`resumeFrom`) from the offset the server holds (a tus HEAD), not from zero. Going offline
 * pauses it and coming back online resumes it. tus-js-client itself is loaded on first use, outside the
 * first screen's bundle.
 */
export function startUpload({
  file,
  name = file instanceof File ? file.name : 'file',
  purpose,
  owner,
  meta = {},
  resumeFrom,
  onProgress,
  onPhase = () => undefined,
  transport = {},
}: {
  file: Blob;
  name?: string;
  purpose: UploadPurpose;
  owner: UploadOwner;
  meta?: Record<string, unknown>;
  /** A record of this device to carry on with, instead of a new upload. */
  resumeFrom?: DeviceUpload;
  onProgress: (progress: UploadProgress) => void;
  onPhase?: (phase: UploadPhase) => void;
  transport?: UploadTransport;
}): UploadHandle {
  const id = resumeFrom?.id ?? crypto.randomUUID();
  let upload: Upload | null = null;
  let stopped = false;
  let phase: UploadPhase = resumeFrom?.paused ? 'paused' : 'uploading';
  let resolveDone: (fileId: string | null) => void = () => undefined;
  let rejectDone: (error: UploadError) => void = () => undefined;

  const setPhase = (next: UploadPhase) => {
    phase = next;
    onPhase(next);
  };
  const finish = (outcome: () => void) => {
    stopped = true;
    removeEventListener('online', online);
    removeEventListener('offline', offline);
    void forgetUpload(id);
    outcome();
  };
  // The browser's own signals: a request in flight when the connection goes would otherwise hang on.
  function offline() {
    if (stopped || phase !== 'uploading') return;
    setPhase('offline');
    void upload?.abort(false);
  }
  function online() {
    if (stopped || (phase !== 'offline' && phase !== 'interrupted')) return;
    setPhase('uploading');
    upload?.start();
  }

  const done = new Promise<string | null>((resolve, reject) => {
    resolveDone = resolve;
    rejectDone = reject;
    if (file.size > maxUploadBytes(purpose)) {
      finish(() => reject(new UploadError('file_too_large')));
      return;
    }
    const resumable = isResumable(file.size);
    const record: DeviceUpload = resumeFrom ?? {
      id,
      owner,
      meta,
      name,
      type: file.type,
      size: file.size,
      file,
      upload_url: null,
      offset: 0,
      paused: false,
      created_at: new Date().toISOString(),
    };
    addEventListener('online', online);
    addEventListener('offline', offline);
    void Promise.all([import('tus-js-client'), saveRecord(record)]).then(
      ([{ Upload: TusUpload }]) => {
        if (stopped) return;
        const tus: Upload = new TusUpload(file, {
          endpoint: UPLOAD_PATH,
          uploadUrl: record.upload_url,
          chunkSize: UPLOAD_RESUMABLE_THRESHOLD_BYTES,
          retryDelays: RETRY_DELAYS_MS,
          metadata: { purpose, filename: record.name },
          uploadDataDuringCreation: !resumable,
          // The device database keeps the URL instead of tus's own local storage.
          storeFingerprintForResuming: false,
          ...transport,
          onUploadUrlAvailable: () => void updateRecord(id, { upload_url: tus.url }),
          onProgress: (sent, total) => onProgress({ sent, total }),
          // tus-js-client reads the chunk size before each PATCH, so growing it here grows the next chunk.
          onChunkComplete: (_chunk, accepted) => {
            tus.options.chunkSize = nextChunkSize(tus.options.chunkSize ?? UPLOAD_RESUMABLE_THRESHOLD_BYTES);
            void updateRecord(id, { offset: accepted });
          },
          onShouldRetry: (error) => shouldRetry(error),
          onSuccess: ({ lastResponse }) => finish(() => resolveDone(lastResponse.getHeader('x-file-id') ?? null)),
          onError: (error) => {
            if (isFinalFailure(error)) {
              finish(() => rejectDone(new UploadError(failureOf(error, purpose))));
            } else {
              setPhase(isOffline() ? 'offline' : 'interrupted');
            }
          },
        });
        upload = tus;
        onPhase(phase);
        if (phase === 'paused') return;
        if (isOffline()) setPhase('offline');
        else tus.start();
      },
      () =>
        finish(() =>
          reject(new UploadError(purpose === 'profile_picture' ? 'profile_picture_failed' : 'upload_failed')),
        ),
    );
  });

  return {
    id,
    done,
    pause() {
      if (stopped || phase === 'paused') return;
      setPhase('paused');
      void upload?.abort(false);
      void updateRecord(id, { paused: true });
    },
    resume() {
      if (stopped || phase === 'uploading') return;
      void updateRecord(id, { paused: false });
      if (isOffline()) {
        setPhase('offline');
        return;
      }
      setPhase('uploading');
      upload?.start();
    },
    async cancel() {
      if (stopped) return;
      finish(() => rejectDone(new UploadError('cancelled')));
      // `true` also deletes the partial upload on the server.
      await upload?.abort(true).catch(() => undefined);
    },
  };
}
