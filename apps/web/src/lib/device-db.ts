import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

/*
 * What the device keeps for a bad network (issue 23), in one IndexedDB database: draft answers not yet on
 * the server, and uploads not yet finished (the file itself and its tus upload URL), so a reload or a
 * closed tab while offline loses neither. One schema here, versioned: a store is added by raising
 * DEVICE_DB_VERSION and creating it in `upgrade`.
 */

export const DEVICE_DB_NAME = 'kaminuza';
export const DEVICE_DB_VERSION = 1;

/** A draft as the device keeps it (see features/applications use-draft-autosave). */
export interface DeviceDraft {
  /** The application's id. */
  id: string;
  /** Answers by question id (the api's AnswerValue shapes). */
  answers: Record<string, unknown>;
  /** The server version these answers build on. */
  version: number;
  /** True while the device holds changes the server has not saved. */
  dirty: boolean;
  /** Where the applicant was: resumed there after a reload. */
  position: { current_step: number; current_section_index: number } | null;
  /** When the device last wrote it (ISO). */
  updated_at: string;
}

/** An upload not yet finished: its file and where tus resumes it. */
export interface DeviceUpload {
  /** Our id of the upload (a UUID chosen when it started). */
  id: string;
  /** Who it is for: the screen that started it, to offer resuming there (e.g. "documents", "application:<id>"). */
  owner: string;
  /** What the screen needs to finish it (document type, question id …), as it wrote it. */
  meta: Record<string, unknown>;
  name: string;
  type: string;
  size: number;
  file: Blob;
  /** The tus upload's URL once the server created it; null before. */
  upload_url: string | null;
  /** Bytes the server confirmed. */
  offset: number;
  paused: boolean;
  created_at: string;
}

interface DeviceSchema extends DBSchema {
  drafts: { key: string; value: DeviceDraft };
  uploads: { key: string; value: DeviceUpload; indexes: { by_owner: string } };
}

export type DeviceDb = IDBPDatabase<DeviceSchema>;

let opening: Promise<DeviceDb> | null = null;

/**
 * The device's database, opened once per page. Rejects where IndexedDB is missing or blocked (a private
 * window of some browsers): callers then keep working online-only.
 */
export function deviceDb(): Promise<DeviceDb> {
  if (typeof indexedDB === 'undefined') return Promise.reject(new Error('IndexedDB is not available'));
  opening ??= openDB<DeviceSchema>(DEVICE_DB_NAME, DEVICE_DB_VERSION, {
    upgrade(db) {
      if (!db.objectStoreNames.contains('drafts')) db.createObjectStore('drafts', { keyPath: 'id' });
      if (!db.objectStoreNames.contains('uploads')) {
        db.createObjectStore('uploads', { keyPath: 'id' }).createIndex('by_owner', 'owner');
      }
    },
  }).catch((error: unknown) => {
    opening = null;
    throw error;
  });
  return opening;
}

/** Forgets the open connection (tests delete the database between cases). */
export function closeDeviceDb(): void {
  void opening?.then((db) => db.close()).catch(() => undefined);
  opening = null;
}

/**
 * Forgets the drafts' copies that hold nothing unsent (those the server also has), at sign-in and sign-out
 * like the offline reads: the next person on this device is not shown them. Unsent changes stay (ADR 040).
 */
export async function forgetSavedDrafts(): Promise<void> {
  try {
    const db = await deviceDb();
    const transaction = db.transaction('drafts', 'readwrite');
    for (let cursor = await transaction.store.openCursor(); cursor; cursor = await cursor.continue()) {
      if (cursor.value.dirty === false) await cursor.delete();
    }
    await transaction.done;
  } catch {
    // Nothing was kept where IndexedDB is missing.
  }
}
