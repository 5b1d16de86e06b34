import { useSyncExternalStore } from 'react';
import { UPLOAD_MAX_DOCUMENT_BYTES, UPLOAD_MAX_PICTURE_BYTES, type UploadPurpose } from '@kaminuza/shared';

/**
 * What a photo needs to stay legible for its purpose: a document page at about 300 dpi on A4 (2480 px on
 * its long side) in 1.5 MB, a profile picture shown at most a few hundred pixels wide in 512 KB. A phone
 * photo is often 4000 px and several MB: sending it whole costs an applicant on metered data for nothing.
 */
export const DOWNSCALE_RULES = {
  document: { maxSide: 2480, maxBytes: 1.5 * 1024 * 1024 },
  profile_picture: { maxSide: 1024, maxBytes: 512 * 1024 },
} as const;

const ruleOf = (purpose: UploadPurpose) =>
  purpose === 'profile_picture' ? DOWNSCALE_RULES.profile_picture : DOWNSCALE_RULES.document;

/** Photos the browser may decode. PDFs and anything else are never touched. */
const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'image/heif'];
/** Types a canvas can write: a photo of any other type (HEIC) is written as JPEG, which every purpose accepts. */
const ENCODABLE_TYPES = ['image/jpeg', 'image/png', 'image/webp'];

/** True for a photo larger than its purpose needs. */
export function canDownscale(file: Blob, purpose: UploadPurpose): boolean {
  return PHOTO_TYPES.includes(file.type) && file.size > ruleOf(purpose).maxBytes;
}

const EXTENSIONS: Record<string, string> = { 'image/jpeg': '.jpg', 'image/png': '.png', 'image/webp': '.webp' };

/**
 * A smaller copy of a photo for its purpose: its long side and its bytes within the rule, its type kept
 * where a canvas can write it. The original comes back when the browser cannot decode it (HEIC outside
 * Safari) or when the copy would not be smaller; either way the result stays within the api's limit
 * whenever the original did.
 */
export async function downscalePhoto(file: File, purpose: UploadPurpose): Promise<File> {
  if (!canDownscale(file, purpose)) return file;
  const rule = ruleOf(purpose);
  const type = ENCODABLE_TYPES.includes(file.type) ? file.type : 'image/jpeg';
  try {
    const { default: imageCompression } = await import('browser-image-compression');
    const smaller = await imageCompression(file, {
      maxSizeMB: rule.maxBytes / (1024 * 1024),
      maxWidthOrHeight: rule.maxSide,
      fileType: type,
      initialQuality: 0.85,
      // Its worker loads the library from a CDN, which the content security policy and an offline device refuse.
      useWebWorker: false,
    });
    const limit = purpose === 'profile_picture' ? UPLOAD_MAX_PICTURE_BYTES : UPLOAD_MAX_DOCUMENT_BYTES;
    if (smaller.size >= file.size || smaller.size > limit) return file;
    const name = type === file.type ? file.name : file.name.replace(/\.[^.]*$/, '') + EXTENSIONS[type];
    return new File([smaller], name, { type, lastModified: file.lastModified });
  } catch {
    return file;
  }
}

interface NetworkInformation {
  saveData?: boolean;
  effectiveType?: string;
}

/** The browser asks to save data (Save-Data, a data saver) or reports a 2G connection. */
export function onDataSavingConnection(): boolean {
  const connection = (navigator as Navigator & { connection?: NetworkInformation }).connection;
  return connection?.saveData === true || ['slow-2g', '2g'].includes(connection?.effectiveType ?? '');
}

const STORAGE_KEY = 'kaminuza.upload.downscale';
const listeners = new Set<() => void>();
let pageChoice: boolean | null = null;

function readChoice(): boolean {
  if (pageChoice !== null) return pageChoice;
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    if (stored === 'yes' || stored === 'no') return stored === 'yes';
  } catch {
    // Storage blocked: the connection decides.
  }
  return onDataSavingConnection();
}

/**
 * Whether photos are sent smaller: the user's choice once made (kept on the device, shared by every
 * upload screen), until then yes on a data-saving connection and no elsewhere.
 */
export function useDownscaleChoice(): [boolean, (value: boolean) => void] {
  const value = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    readChoice,
    () => false,
  );
  const set = (next: boolean) => {
    pageChoice = next;
    try {
      localStorage.setItem(STORAGE_KEY, next ? 'yes' : 'no');
    } catch {
      // Kept for this page only.
    }
    listeners.forEach((listener) => listener());
  };
  return [value, set];
}
