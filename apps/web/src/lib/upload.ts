import type { DetailedError, Upload } from 'tus-js-client';
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

export interface UploadHandle {
  /** Resolves once the server has kept the file, with the id it gave it (its x-file-id header). */
  done: Promise<string | null>;
  /** Stops the upload and discards what the server holds of it. */
  cancel(): Promise<void>;
}

function failureOf(error: Error, purpose: UploadPurpose): UploadFailure {
  const response = (error as DetailedError).originalResponse;
  const status = response?.getStatus();
  if (status === 413) return 'file_too_large';
  if (status === 415) return purpose === 'profile_picture' ? 'picture_type_not_allowed' : 'file_type_not_allowed';
  return purpose === 'profile_picture' ? 'profile_picture_failed' : 'upload_failed';
}

/** Client errors other than a lock or conflict will fail again: only server and network failures are retried. */
function shouldRetry(error: DetailedError): boolean {
  const status = error.originalResponse?.getStatus() ?? 0;
  return status === 0 || status === 409 || status === 423 || status >= 500;
}

/**
 * Uploads a file with the tus protocol to the api. Larger files are resumable: tus-js-client keeps a
 * fingerprint in local storage, so after a reload or a dropped connection the same file continues
 * from the offset the server holds. tus-js-client itself is loaded on first use, outside the first
 * screen's bundle.
 */
export function startUpload({
  file,
  purpose,
  onProgress,
}: {
  file: File;
  purpose: UploadPurpose;
  onProgress: (progress: UploadProgress) => void;
}): UploadHandle {
  let upload: Upload | null = null;
  let cancelled = false;
  let rejectDone: (error: UploadError) => void = () => undefined;

  const done = new Promise<string | null>((resolve, reject) => {
    rejectDone = reject;
    if (file.size > maxUploadBytes(purpose)) {
      reject(new UploadError('file_too_large'));
      return;
    }
    const resumable = isResumable(file.size);
    void import('tus-js-client').then(
      async ({ Upload: TusUpload }) => {
        if (cancelled) return;
        const tus: Upload = new TusUpload(file, {
          endpoint: UPLOAD_PATH,
          chunkSize: UPLOAD_RESUMABLE_THRESHOLD_BYTES,
          retryDelays: RETRY_DELAYS_MS,
          metadata: { purpose, filename: file.name },
          uploadDataDuringCreation: !resumable,
          storeFingerprintForResuming: resumable,
          removeFingerprintOnSuccess: true,
          // The purpose is part of the fingerprint: the same file sent as two document types is two uploads.
          fingerprint: async (input) => {
            const source = input as File;
            return ['kaminuza-upload', purpose, source.name, source.type, source.size, source.lastModified].join('|');
          },
          onProgress: (sent, total) => onProgress({ sent, total }),
          // tus-js-client reads the chunk size before each PATCH, so growing it here grows the next chunk.
          onChunkComplete: () => {
            tus.options.chunkSize = nextChunkSize(tus.options.chunkSize ?? UPLOAD_RESUMABLE_THRESHOLD_BYTES);
          },
          onShouldRetry: (error) => shouldRetry(error),
          onSuccess: ({ lastResponse }) => resolve(lastResponse.getHeader('x-file-id') ?? null),
          onError: (error) => reject(new UploadError(failureOf(error, purpose))),
        });
        upload = tus;
        if (resumable) {
          const previous = await tus.findPreviousUploads();
          if (previous[0]) tus.resumeFromPreviousUpload(previous[0]);
        }
        if (!cancelled) tus.start();
      },
      () => reject(new UploadError(purpose === 'profile_picture' ? 'profile_picture_failed' : 'upload_failed')),
    );
  });

  return {
    done,
    async cancel() {
      cancelled = true;
      rejectDone(new UploadError('cancelled'));
      // `true` also deletes the partial upload on the server and its fingerprint here.
      await upload?.abort(true).catch(() => undefined);
    },
  };
}
