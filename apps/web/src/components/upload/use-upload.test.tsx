import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook, waitFor } from '@testing-library/react';
import type * as UploadModule from '../../lib/upload.ts';

const compress = vi.hoisted(() => vi.fn());
vi.mock('browser-image-compression', () => ({ default: compress }));
const started = vi.hoisted(
  () => [] as { file: Blob; name: string; resumeFrom?: { id: string }; pause: ReturnType<typeof vi.fn> }[],
);
const kept = vi.hoisted(() => [] as unknown[]);
vi.mock('../../lib/upload.ts', async (original) => ({
  ...(await original<typeof UploadModule>()),
  unfinishedUploads: async () => kept,
  startUpload: ({ file, name, resumeFrom }: { file: Blob; name: string; resumeFrom?: { id: string } }) => {
    const pause = vi.fn();
    started.push({ file, name, resumeFrom, pause });
    return { id: 'x', done: new Promise(() => undefined), pause, resume: vi.fn(), cancel: vi.fn() };
  },
}));

const { useUpload } = await import('./use-upload.ts');

const MB = 1024 * 1024;
const photo = () => new File([new Uint8Array(4 * MB)], 'IMG_0001.jpg', { type: 'image/jpeg' });

afterEach(() => {
  started.length = 0;
  kept.length = 0;
  compress.mockReset();
  localStorage.clear();
});

describe('useUpload', () => {
  it('sends a large photo smaller when the applicant chose so', async () => {
    localStorage.setItem('kaminuza.upload.downscale', 'yes');
    compress.mockResolvedValue(new File([new Uint8Array(700 * 1024)], 'x.jpg', { type: 'image/jpeg' }));
    const { result } = renderHook(() => useUpload('passport', () => undefined));
    act(() => result.current.start(photo()));
    expect(result.current.state).toEqual({ status: 'preparing', name: 'IMG_0001.jpg' });
    await waitFor(() => expect(started).toHaveLength(1));
    expect(started[0]).toMatchObject({ name: 'IMG_0001.jpg' });
    expect(started[0]!.file.size).toBe(700 * 1024);
    expect(result.current.state).toMatchObject({ status: 'uploading', phase: 'uploading' });
  });

  it('sends the photo as it is when the applicant did not', async () => {
    localStorage.setItem('kaminuza.upload.downscale', 'no');
    const { result } = renderHook(() => useUpload('passport', () => undefined));
    const original = photo();
    act(() => result.current.start(original));
    await waitFor(() => expect(started).toHaveLength(1));
    expect(started[0]!.file).toBe(original);
    expect(compress).not.toHaveBeenCalled();
  });

  it('stops sending when its screen goes, keeping the upload to offer again', async () => {
    localStorage.setItem('kaminuza.upload.downscale', 'no');
    const { result, unmount } = renderHook(() => useUpload('passport', () => undefined));
    act(() => result.current.start(photo()));
    await waitFor(() => expect(started).toHaveLength(1));
    unmount();
    expect(started[0]!.pause).toHaveBeenCalled();
  });

  it('carries on with the upload the device kept when the same file is chosen again', async () => {
    localStorage.setItem('kaminuza.upload.downscale', 'no');
    const file = new File([new Uint8Array(300 * 1024)], 'scan.pdf', { type: 'application/pdf', lastModified: 5 });
    const record = {
      id: 'kept-1',
      name: 'scan.pdf',
      type: 'application/pdf',
      size: file.size,
      file,
      offset: 256 * 1024,
    };
    kept.push(record);
    const { result } = renderHook(() => useUpload('transcript', () => undefined));
    act(() => result.current.start(file));
    await waitFor(() => expect(started).toHaveLength(1));
    expect(started[0]!.resumeFrom).toMatchObject({ id: 'kept-1', paused: false });
    expect(result.current.state).toMatchObject({ status: 'uploading', progress: { sent: 256 * 1024 } });

    // Another file of the same name is a new upload.
    const other = new File([new Uint8Array(300 * 1024)], 'scan.pdf', { type: 'application/pdf', lastModified: 9 });
    act(() => result.current.start(other));
    await waitFor(() => expect(started).toHaveLength(2));
    expect(started[1]!.resumeFrom).toBeUndefined();
  });
});
