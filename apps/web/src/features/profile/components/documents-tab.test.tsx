import 'fake-indexeddb/auto';
import { Blob as NodeBlob } from 'node:buffer';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import en from '@kaminuza/shared/locales/en.json';
import { DOCUMENT_TYPES, type StudentDocument } from '@kaminuza/shared';
import { DocumentsTab } from './documents-tab.tsx';
import { closeDeviceDb, deviceDb, DEVICE_DB_NAME } from '../../../lib/device-db.ts';
import { unfinishedUploads } from '../../../lib/upload.ts';

const i18n = i18next.createInstance();
await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, initAsync: false });

const empty = (type: StudentDocument['type']): StudentDocument => ({
  type,
  status: 'not_uploaded',
  file_name: null,
  mime_type: null,
  size: null,
  uploaded_at: null,
  review_note: null,
});

function serve(status: number, body: unknown) {
  const fetch = vi.fn(
    async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
  );
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

function renderTab() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <DocumentsTab />
      </QueryClientProvider>
    </I18nextProvider>,
  );
}

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  closeDeviceDb();
  await new Promise((resolve) => {
    const request = indexedDB.deleteDatabase(DEVICE_DB_NAME);
    request.onsuccess = request.onerror = request.onblocked = resolve;
  });
});

describe('DocumentsTab', () => {
  it('lists the five types with their status, the limit, and the actions each allows', async () => {
    const documents = DOCUMENT_TYPES.map(empty);
    documents[0] = {
      ...empty('transcript'),
      status: 'rejected',
      file_name: 'transcript.pdf',
      mime_type: 'application/pdf',
      size: 2 * 1024 * 1024,
      uploaded_at: '2026-01-02T10:00:00.000Z',
      review_note: 'Missing page 2',
    };
    serve(200, { data: documents });
    renderTab();
    const items = await screen.findAllByRole('listitem');
    expect(items).toHaveLength(5);
    screen.getByText('PDF, JPEG, PNG, WebP or HEIC, up to 10 MB per file.');

    const transcript = within(items[0]!);
    transcript.getByLabelText('Status: Rejected');
    transcript.getByText('Reviewer note: Missing page 2');
    transcript.getByText(/2 MB/);
    expect(transcript.getByRole('link', { name: 'Download Transcript' }).getAttribute('href')).toBe(
      '/api/v1/students/me/documents/transcript/download',
    );
    transcript.getByLabelText('Replace Transcript');

    fireEvent.click(transcript.getByRole('button', { name: 'Delete Transcript' }));
    transcript.getByText('Delete your Transcript? This cannot be undone.');
    fireEvent.click(transcript.getByRole('button', { name: 'Keep it' }));
    expect(transcript.queryByText('Delete your Transcript? This cannot be undone.')).toBeNull();

    const passport = within(items[4]!);
    passport.getByLabelText('Status: Not uploaded');
    passport.getByLabelText('Upload Passport');
    expect(passport.queryByRole('link')).toBeNull();
  });

  it('shows an error with a retry when the documents cannot be loaded', async () => {
    const fetch = serve(500, { error: { status: 'INTERNAL', message: 'Something went wrong. Please try again.' } });
    renderTab();
    expect((await screen.findByRole('alert')).textContent).toContain('Could not load your documents.');
    serve(200, { data: DOCUMENT_TYPES.map(empty) });
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findAllByRole('listitem')).toHaveLength(5);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('offers again an upload a reload left unfinished, with how far it got, and discards it on request', async () => {
    const db = await deviceDb();
    await db.put('uploads', {
      id: 'kept-1',
      owner: 'upload:passport',
      meta: {},
      name: 'passport.pdf',
      type: 'application/pdf',
      size: 1000,
      file: new NodeBlob([new Uint8Array(1000)], { type: 'application/pdf' }) as unknown as Blob,
      upload_url: '/api/v1/uploads/0123456789abcdef0123456789abcdef',
      offset: 600,
      paused: true,
      created_at: '2026-01-02T10:00:00.000Z',
    });
    const fetch = serve(200, { data: DOCUMENT_TYPES.map(empty) });
    renderTab();
    const row = async (name: string) => within((await screen.findByRole('heading', { name, level: 3 })).closest('li')!);
    const passport = await row('Passport');
    await passport.findByText('Finish uploading passport.pdf — 60%');
    passport.getByRole('button', { name: 'Finish uploading passport.pdf' });
    // Only the row of that type offers it.
    expect((await row('Transcript')).queryByText(/Finish uploading/)).toBeNull();

    fireEvent.click(passport.getByRole('button', { name: 'Discard the unfinished upload of passport.pdf' }));
    await waitFor(() => expect(passport.queryByText(/Finish uploading/)).toBeNull());
    await waitFor(() =>
      expect(fetch).toHaveBeenCalledWith(
        '/api/v1/uploads/0123456789abcdef0123456789abcdef',
        expect.objectContaining({ method: 'DELETE' }),
      ),
    );
    expect(await unfinishedUploads('upload:passport')).toEqual([]);
  });

  it('asks once whether to send photos smaller', async () => {
    serve(200, { data: DOCUMENT_TYPES.map(empty) });
    renderTab();
    await screen.findAllByRole('listitem');
    expect(screen.getAllByRole('checkbox', { name: 'Send photos smaller' })).toHaveLength(1);
  });
});
