import type { AnswerValue } from '@kaminuza/shared';
import { deviceDb, type DeviceDraft } from '../../../lib/device-db.ts';

/*
 * The device's copy of a draft, in IndexedDB (lib/device-db.ts): what the applicant typed that the server
 * has not saved yet, and where they were. Older versions of the app kept it in localStorage; that copy is
 * moved here the first time the draft is read, so an update never loses answers typed before it.
 */

export type DraftPosition = NonNullable<DeviceDraft['position']>;

/** Where older versions of the app kept the copy. */
export const legacyDraftKey = (id: string) => `kaminuza.draft.${id}`;

function readLegacy(id: string, storage: Storage | undefined): DeviceDraft | null {
  try {
    const raw = storage?.getItem(legacyDraftKey(id));
    if (!raw) return null;
    const parsed = JSON.parse(raw) as { answers?: unknown; version?: unknown; dirty?: unknown };
    if (typeof parsed.version !== 'number' || typeof parsed.answers !== 'object' || parsed.answers === null) {
      return null;
    }
    return {
      id,
      answers: parsed.answers as Record<string, AnswerValue>,
      version: parsed.version,
      dirty: parsed.dirty === true,
      position: null,
      updated_at: new Date().toISOString(),
    };
  } catch {
    // A copy that cannot be read is no copy: the server's answers stand.
    return null;
  }
}

/**
 * The device's copy of draft `id`, or null. Without IndexedDB (blocked in some private windows) the legacy
 * copy is still read, and left where it is since there is nowhere to move it.
 */
export async function loadDeviceDraft(
  id: string,
  storage: Storage | undefined = globalThis.localStorage,
): Promise<DeviceDraft | null> {
  const legacy = readLegacy(id, storage);
  let db;
  try {
    db = await deviceDb();
  } catch {
    return legacy;
  }
  try {
    const kept = await db.get('drafts', id);
    if (legacy && !kept) await db.put('drafts', legacy);
    // Removed only once IndexedDB holds it: a failed move leaves the copy for the next read.
    if (legacy) storage?.removeItem(legacyDraftKey(id));
    return kept ?? legacy;
  } catch {
    return legacy;
  }
}

/** Writes the copy; false when the device could not keep it (the caller then does not claim it is saved). */
export async function putDeviceDraft(draft: DeviceDraft): Promise<boolean> {
  try {
    await (await deviceDb()).put('drafts', draft);
    return true;
  } catch {
    return false;
  }
}

/** Forgets the copy once the server holds everything (or the applicant chose the server's answers). */
export async function deleteDeviceDraft(
  id: string,
  storage: Storage | undefined = globalThis.localStorage,
): Promise<void> {
  try {
    storage?.removeItem(legacyDraftKey(id));
  } catch {
    // A blocked storage holds no copy to forget.
  }
  try {
    await (await deviceDb()).delete('drafts', id);
  } catch {
    // Nothing was kept where IndexedDB is missing.
  }
}
