import 'fake-indexeddb/auto';
import { Blob as NodeBlob } from 'node:buffer';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UPLOAD_MAX_CHUNK_BYTES, UPLOAD_RESUMABLE_THRESHOLD_BYTES } from '@kaminuza/shared';
import { closeDeviceDb, DEVICE_DB_NAME } from './device-db.ts';
import { FakeTusServer } from './fake-tus-server.ts';
import { isResumable, nextChunkSize, startUpload, unfinishedUploads, UploadError, type UploadPhase } from './upload.ts';

const KB = 1024;

/** A file of `size` bytes, each byte telling its position, so a gap or a repeat shows in the server's copy. */
function fileOf(size: number): { blob: Blob; bytes: Uint8Array } {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 7 + (i >> 8)) % 251;
  // Node's Blob survives IndexedDB's structured clone, as the browser's does.
  return { blob: new NodeBlob([bytes], { type: 'application/pdf' }) as unknown as Blob, bytes };
}

const until = (check: () => boolean) => vi.waitFor(() => expect(check()).toBe(true), { timeout: 3_000 });

let online = true;
beforeEach(() => {
  online = true;
  vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);
});

afterEach(async () => {
  vi.restoreAllMocks();
  closeDeviceDb();
  await new Promise((resolve) => {
    const request = indexedDB.deleteDatabase(DEVICE_DB_NAME);
    request.onsuccess = request.onerror = request.onblocked = resolve;
  });
});

function goOffline(server: FakeTusServer) {
  online = false;
  server.down = true;
  dispatchEvent(new Event('offline'));
}

function goOnline(server: FakeTusServer) {
  online = true;
  server.down = false;
  dispatchEvent(new Event('online'));
}

describe('chunk sizes', () => {
  it('start at 256 KB and double after each chunk up to 32 MB', () => {
    const sizes = [UPLOAD_RESUMABLE_THRESHOLD_BYTES];
    while (sizes.length < 10) sizes.push(nextChunkSize(sizes.at(-1)!));
    expect(sizes.map((size) => size / 1024)).toEqual([256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 32768, 32768]);
    expect(nextChunkSize(UPLOAD_MAX_CHUNK_BYTES)).toBe(UPLOAD_MAX_CHUNK_BYTES);
  });

  it('make files above 256 KB resumable, smaller ones one request', () => {
    expect(isResumable(UPLOAD_RESUMABLE_THRESHOLD_BYTES)).toBe(false);
    expect(isResumable(UPLOAD_RESUMABLE_THRESHOLD_BYTES + 1)).toBe(true);
  });
});

describe('startUpload', () => {
  it('refuses a file over the limit before sending anything, and keeps nothing on the device', async () => {
    const file = new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'me.png', { type: 'image/png' });
    const handle = startUpload({ file, purpose: 'profile_picture', owner: 'me', onProgress: () => undefined });
    await expect(handle.done).rejects.toEqual(new UploadError('file_too_large'));
    expect(await unfinishedUploads('me')).toEqual([]);
  });

  it('waits while offline and carries on from the server offset when the connection returns', async () => {
    const server = new FakeTusServer();
    const { blob, bytes } = fileOf(1_800 * KB);
    const phases: UploadPhase[] = [];
    let lastProgress = 0;
    server.afterPatch = (offset) => {
      // The connection goes right after the first chunk reached the server.
      if (offset === 256 * KB) goOffline(server);
    };
    const handle = startUpload({
      file: blob,
      name: 'passport.pdf',
      purpose: 'passport',
      owner: 'upload:passport',
      onProgress: ({ sent }) => (lastProgress = sent),
      onPhase: (phase) => phases.push(phase),
      transport: server.transport(),
    });
    await until(() => phases.at(-1) === 'offline');
    // Offline, nothing is tried (the retries are not used up) and the device keeps the file and its URL.
    const requestsWhileOffline = server.log.length;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.log.length).toBe(requestsWhileOffline);
    const [kept] = await unfinishedUploads('upload:passport');
    expect(kept).toMatchObject({ name: 'passport.pdf', size: bytes.length, upload_url: '/api/v1/uploads/u1' });
    expect(lastProgress).toBeGreaterThanOrEqual(256 * KB);

    goOnline(server);
    expect(await handle.done).toBe('file-u1');
    expect(phases).toEqual(['uploading', 'offline', 'uploading']);
    // One upload, asked for its offset on return, each byte sent once and in order.
    expect(server.log.filter((line) => line.startsWith('POST'))).toHaveLength(1);
    expect(server.log).toContain('HEAD /api/v1/uploads/u1');
    expect(server.patches.reduce((sum, size) => sum + size, 0)).toBe(bytes.length);
    expect(server.bytes('u1')).toEqual(bytes);
    expect(await unfinishedUploads('upload:passport')).toEqual([]);
  });

  it('after a reload, carries on from the offset the server holds with the file the device kept', async () => {
    const server = new FakeTusServer();
    const { blob, bytes } = fileOf(900 * KB);
    // The first page: one chunk goes, then the tab is closed (its requests stop).
    let first: ReturnType<typeof startUpload> | null = null;
    server.afterPatch = (offset) => {
      if (offset === 256 * KB) first?.pause();
    };
    first = startUpload({
      file: blob,
      name: 'transcript.pdf',
      purpose: 'transcript',
      owner: 'upload:transcript',
      meta: { question: 'q1' },
      onProgress: () => undefined,
      transport: server.transport(),
    });
    await until(() => server.patches.length === 1);
    await vi.waitFor(async () => expect((await unfinishedUploads('upload:transcript'))[0]?.offset).toBe(256 * KB));

    // The next page: it finds the upload on the device and offers it.
    closeDeviceDb();
    const [kept] = await unfinishedUploads('upload:transcript');
    expect(kept).toMatchObject({
      name: 'transcript.pdf',
      type: 'application/pdf',
      size: bytes.length,
      offset: 256 * KB,
      upload_url: '/api/v1/uploads/u1',
      meta: { question: 'q1' },
      paused: true,
    });
    const sent: number[] = [];
    const second = startUpload({
      file: kept!.file,
      name: kept!.name,
      purpose: 'transcript',
      owner: 'upload:transcript',
      resumeFrom: { ...kept!, paused: false },
      onProgress: ({ sent: value }) => sent.push(value),
      transport: server.transport(),
    });
    expect(await second.done).toBe('file-u1');
    expect(server.log.filter((line) => line.startsWith('POST'))).toHaveLength(1);
    expect(server.log.slice(-3)[0]).toBe('HEAD /api/v1/uploads/u1');
    // Not from zero: the second page sent only what the server lacked.
    expect(server.patches.reduce((sum, size) => sum + size, 0)).toBe(bytes.length);
    expect(Math.min(...sent)).toBeGreaterThanOrEqual(256 * KB);
    expect(server.bytes('u1')).toEqual(bytes);
    expect(await unfinishedUploads('upload:transcript')).toEqual([]);
  });

  it('pauses and resumes on request, from where the server stopped', async () => {
    const server = new FakeTusServer();
    const { blob, bytes } = fileOf(700 * KB);
    const phases: UploadPhase[] = [];
    let handle: ReturnType<typeof startUpload> | null = null;
    server.afterPatch = (offset) => {
      if (offset === 256 * KB) handle?.pause();
    };
    handle = startUpload({
      file: blob,
      name: 'letter.pdf',
      purpose: 'recommendation_letter',
      owner: 'upload:recommendation_letter',
      onProgress: () => undefined,
      onPhase: (phase) => phases.push(phase),
      transport: server.transport(),
    });
    await until(() => phases.at(-1) === 'paused');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.patches).toEqual([256 * KB]);
    // Coming online does not undo the user's pause.
    dispatchEvent(new Event('online'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(phases.at(-1)).toBe('paused');

    handle.resume();
    expect(await handle.done).toBe('file-u1');
    expect(server.bytes('u1')).toEqual(bytes);
  });

  it('stops when the retries run out while online, and Retry carries on', async () => {
    const server = new FakeTusServer();
    const { blob, bytes } = fileOf(600 * KB);
    const phases: UploadPhase[] = [];
    server.afterPatch = (offset) => {
      if (offset === 256 * KB) server.patchStatus = 503;
    };
    const handle = startUpload({
      file: blob,
      name: 'scores.pdf',
      purpose: 'test_scores',
      owner: 'upload:test_scores',
      onProgress: () => undefined,
      onPhase: (phase) => phases.push(phase),
      transport: server.transport(),
    });
    await until(() => phases.at(-1) === 'interrupted');
    expect(await unfinishedUploads('upload:test_scores')).toHaveLength(1);

    server.patchStatus = null;
    handle.resume();
    expect(await handle.done).toBe('file-u1');
    expect(phases).toEqual(['uploading', 'interrupted', 'uploading']);
    expect(server.bytes('u1')).toEqual(bytes);
  });

  it('forgets a file the server refuses, with the refusal as the reason', async () => {
    const server = new FakeTusServer();
    server.patchStatus = 415;
    const { blob } = fileOf(300 * KB);
    const handle = startUpload({
      file: blob,
      name: 'slip.pdf',
      purpose: 'payment_slip',
      owner: 'payment_slip:a1',
      onProgress: () => undefined,
      transport: server.transport(),
    });
    await expect(handle.done).rejects.toEqual(new UploadError('file_type_not_allowed'));
    await vi.waitFor(async () => expect(await unfinishedUploads('payment_slip:a1')).toEqual([]));
  });

  it('cancelled, deletes what the server holds and what the device kept', async () => {
    const server = new FakeTusServer();
    const { blob } = fileOf(900 * KB);
    let handle: ReturnType<typeof startUpload> | null = null;
    server.afterPatch = (offset) => {
      if (offset === 256 * KB) void handle?.cancel();
    };
    handle = startUpload({
      file: blob,
      name: 'passport.pdf',
      purpose: 'passport',
      owner: 'upload:passport',
      onProgress: () => undefined,
      transport: server.transport(),
    });
    await expect(handle.done).rejects.toEqual(new UploadError('cancelled'));
    await until(() => server.log.includes('DELETE /api/v1/uploads/u1'));
    expect(server.uploads.size).toBe(0);
    await vi.waitFor(async () => expect(await unfinishedUploads('upload:passport')).toEqual([]));
  });
});
