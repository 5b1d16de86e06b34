import { clearCachedAt } from './cached-at.ts';
import { forgetSavedDrafts } from './device-db.ts';
import { READS_CACHE } from './offline-reads.ts';

/**
 * Empties the copies of the signed-in person's reads kept for offline use (ADR 039) and of their drafts as
 * saved (ADR 040), so nobody signing in next on this device is ever shown them.
 */
export async function clearOfflineReads(): Promise<void> {
  clearCachedAt();
  await forgetSavedDrafts();
  try {
    if (typeof caches !== 'undefined') await caches.delete(READS_CACHE);
  } catch {
    // Cache Storage unavailable (private mode of some browsers): nothing was kept.
  }
}
