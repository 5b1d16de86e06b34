import { useCallback, useEffect, useState } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import type { ProfileUpdate } from '@kaminuza/shared';
import { deviceDb, type DeviceDraft } from '../../../lib/device-db.ts';

// Without IndexedDB (some private windows) the tab works as before: nothing kept, nothing restored.
const load = (id: string) =>
  deviceDb()
    .then((db) => db.get('drafts', id))
    .catch(() => undefined);
const keep = (copy: DeviceDraft) =>
  deviceDb()
    .then((db) => db.put('drafts', copy))
    .catch(() => undefined);
const forget = (id: string) =>
  deviceDb()
    .then((db) => db.delete('drafts', id))
    .catch(() => undefined);

/**
 * The device copy's key in the drafts store: one per account and profile tab, beside the application drafts.
 * The account's email is in it so that another student signing in on a shared device is not given them.
 */
export const profileEditsId = (owner: string, section: ProfileUpdate['section']) => `profile:${owner}:${section}`;

/**
 * A profile tab's edits not yet saved, kept on the device as they are typed (the drafts store of the device
 * database), so a reload or a closed tab, online or not, gives them back. They are offered back as edits —
 * the form shows them, unsaved, with a way to drop them — never saved over the profile without Save.
 */
export function useProfileEditsOnDevice<T extends FieldValues, O>(
  owner: string,
  section: ProfileUpdate['section'],
  form: UseFormReturn<T, unknown, O>,
) {
  const id = profileEditsId(owner, section);
  const [restored, setRestored] = useState(false);

  useEffect(() => {
    let live = true;
    let unsubscribe: (() => void) | undefined;
    void load(id).then((copy) => {
      if (!live) return;
      if (copy?.dirty && !form.formState.isDirty) {
        form.reset(copy.answers as T, { keepDefaultValues: true });
        setRestored(true);
      }
      // Subscribed once the copy is read: a change typed meanwhile is not overwritten by the older copy.
      const subscription = form.watch((values, { type }) => {
        if (type !== 'change') return;
        void keep({
          id,
          answers: values as Record<string, unknown>,
          version: 0,
          dirty: true,
          position: null,
          updated_at: new Date().toISOString(),
        });
      });
      unsubscribe = () => subscription.unsubscribe();
    });
    return () => {
      live = false;
      unsubscribe?.();
    };
    // Once per tab: the form object is stable for the tab's life.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [id]);

  /** The edits reached the server: the device copy is no longer needed. */
  const saved = useCallback(() => {
    setRestored(false);
    void forget(id);
  }, [id]);

  /** The student drops the restored edits: back to the saved profile. */
  const discard = useCallback(() => {
    setRestored(false);
    form.reset();
    void forget(id);
  }, [form, id]);

  return { restored, saved, discard };
}
