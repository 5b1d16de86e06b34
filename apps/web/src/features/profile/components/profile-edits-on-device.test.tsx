import 'fake-indexeddb/auto';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useForm } from 'react-hook-form';
import { closeDeviceDb, deviceDb, DEVICE_DB_NAME, type DeviceDraft } from '../../../lib/device-db.ts';
import { profileEditsId, useProfileEditsOnDevice } from './profile-edits-on-device.ts';

/** A profile tab reduced to one field, with the hook as the profile page uses it. */
function Tab({ owner = 'aline@example.com' }: { owner?: string }) {
  const form = useForm<{ city: string }>({ defaultValues: { city: 'Kigali' } });
  const device = useProfileEditsOnDevice(owner, 'personal', form);
  return (
    <form>
      <input aria-label="City" {...form.register('city')} />
      {device.restored && <p role="status">restored</p>}
      <button type="button" onClick={device.discard}>
        Discard
      </button>
      <button type="button" onClick={device.saved}>
        Saved
      </button>
    </form>
  );
}

const ID = profileEditsId('aline@example.com', 'personal');
const kept = () => deviceDb().then((db) => db.get('drafts', ID));
/** Lets IndexedDB (on setImmediate) answer what the page asked; what it writes is waited for with waitFor. */
const settle = () => act(() => new Promise<void>((resolve) => setTimeout(resolve, 20)));

beforeEach(async () => {
  closeDeviceDb();
  await new Promise<void>((resolve, reject) => {
    const request = indexedDB.deleteDatabase(DEVICE_DB_NAME);
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error as Error);
  });
});
afterEach(cleanup);

describe('profile edits kept on the device', () => {
  it('keeps each edit as it is typed', async () => {
    render(<Tab />);
    await settle();
    fireEvent.change(screen.getByLabelText('City'), { target: { value: 'Huye' } });
    await waitFor(async () => expect(await kept()).toMatchObject({ id: ID, answers: { city: 'Huye' }, dirty: true }));
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('gives edits back after a reload, unsaved, with a way to drop them', async () => {
    const copy: DeviceDraft = {
      id: ID,
      answers: { city: 'Musanze' },
      version: 0,
      dirty: true,
      position: null,
      updated_at: '2026-11-22T10:00:00.000Z',
    };
    await (await deviceDb()).put('drafts', copy);
    render(<Tab />);
    await waitFor(() => expect((screen.getByLabelText('City') as HTMLInputElement).value).toBe('Musanze'));
    expect(screen.getByRole('status').textContent).toBe('restored');

    fireEvent.click(screen.getByRole('button', { name: 'Discard' }));
    expect((screen.getByLabelText('City') as HTMLInputElement).value).toBe('Kigali');
    await waitFor(async () => expect(await kept()).toBeUndefined());
  });

  it('gives them to no other account signing in on the same device', async () => {
    await (
      await deviceDb()
    ).put('drafts', {
      id: ID,
      answers: { city: 'Musanze' },
      version: 0,
      dirty: true,
      position: null,
      updated_at: '2026-11-22T10:00:00.000Z',
    });
    render(<Tab owner="someone.else@example.com" />);
    await settle();
    expect((screen.getByLabelText('City') as HTMLInputElement).value).toBe('Kigali');
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('forgets the copy once the profile is saved', async () => {
    render(<Tab />);
    await settle();
    fireEvent.change(screen.getByLabelText('City'), { target: { value: 'Rubavu' } });
    await waitFor(async () => expect(await kept()).toBeDefined());
    fireEvent.click(screen.getByRole('button', { name: 'Saved' }));
    await waitFor(async () => expect(await kept()).toBeUndefined());
  });
});
