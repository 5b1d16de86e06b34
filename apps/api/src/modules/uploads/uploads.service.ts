import {
  DOCUMENT_MIME_TYPES,
  PICTURE_MIME_TYPES,
  UPLOAD_MAX_DOCUMENT_BYTES,
  UPLOAD_MAX_PICTURE_BYTES,
  UPLOAD_MESSAGES,
  UploadPurposeSchema,
  type FileMimeType,
  type UploadPurpose,
} from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import type { Storage } from '../../lib/storage/index.ts';
import { unsafeTextPaths } from '../../lib/safe-input.ts';
import { storeFile } from '../documents/index.ts';
import { sniffMimeType, SNIFF_BYTES } from './sniff.ts';
import type { UploadArea } from './upload-area.ts';

export function maxBytesFor(purpose: UploadPurpose): number {
  return purpose === 'profile_picture' ? UPLOAD_MAX_PICTURE_BYTES : UPLOAD_MAX_DOCUMENT_BYTES;
}

export function allowedTypesFor(purpose: UploadPurpose): readonly FileMimeType[] {
  return purpose === 'profile_picture' ? PICTURE_MIME_TYPES : DOCUMENT_MIME_TYPES;
}

/** The tus `Upload-Metadata` header: comma-separated `key base64value` pairs. */
export function parseUploadMetadata(header: string | undefined): Record<string, string> {
  const metadata: Record<string, string> = {};
  if (!header) return metadata;
  for (const pair of header.split(',')) {
    const [key, value] = pair.trim().split(' ');
    if (key) metadata[key] = value ? Buffer.from(value, 'base64').toString('utf8') : '';
  }
  return metadata;
}

export type CreationCheck =
  { ok: true; purpose: UploadPurpose; filename: string } | { ok: false; http: 400 | 413; message: string };

/**
 * Refuses an upload before any byte is taken: unknown purpose, no name, or a size over the limit. The
 * name is taken as sent (the header bounds its length) and made safe once the bytes tell the file's type.
 */
export function checkCreation(metadataHeader: string | undefined, uploadLength: string | undefined): CreationCheck {
  const metadata = parseUploadMetadata(metadataHeader);
  // The metadata is decoded here, out of reach of the request checks: a NUL in a name would be kept with
  // the upload and refused by the database only once its bytes had arrived.
  if (unsafeTextPaths(metadata).length > 0) return { ok: false, http: 400, message: UPLOAD_MESSAGES.upload_failed };
  const purpose = UploadPurposeSchema.safeParse(metadata.purpose);
  const filename = metadata.filename ?? '';
  if (!purpose.success || filename.length === 0) {
    return { ok: false, http: 400, message: UPLOAD_MESSAGES.upload_failed };
  }
  // Deferred lengths are not offered: the limit must be checked before the first byte.
  const length = uploadLength === undefined ? Number.NaN : Number(uploadLength);
  if (!Number.isSafeInteger(length) || length <= 0) {
    return { ok: false, http: 400, message: UPLOAD_MESSAGES.upload_failed };
  }
  if (length > maxBytesFor(purpose.data)) return { ok: false, http: 413, message: UPLOAD_MESSAGES.file_too_large };
  return { ok: true, purpose: purpose.data, filename };
}

export type FinishResult = { ok: true; fileId: string } | { ok: false; message: string };

/**
 * A finished upload: its type is read from its bytes; a kind that is not allowed for its purpose is
 * refused (the caller deletes the bytes), anything else is kept as the student's file.
 */
export async function finishUpload(
  db: Db,
  storage: Storage,
  upload: { area: UploadArea; id: string; ownerId: string; purpose: UploadPurpose; filename: string; size: number },
): Promise<FinishResult> {
  const { area, id } = upload;
  const mimeType = sniffMimeType(await area.firstBytes(id, SNIFF_BYTES));
  if (!mimeType || !allowedTypesFor(upload.purpose).includes(mimeType)) {
    return {
      ok: false,
      message:
        upload.purpose === 'profile_picture'
          ? UPLOAD_MESSAGES.picture_type_not_allowed
          : UPLOAD_MESSAGES.file_type_not_allowed,
    };
  }
  const { fileId } = await storeFile(db, storage, {
    ownerId: upload.ownerId,
    purpose: upload.purpose,
    // Cleaned by storeFile, which knows the type read from the bytes (lib/file-name.ts).
    originalName: upload.filename,
    mimeType,
    size: upload.size,
    sha256: await area.sha256(id),
    moveInto: (key) => area.moveInto(storage, id, key),
  });
  return { ok: true, fileId };
}
