import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook, waitFor } from '@testing-library/react';
import type * as UploadModule from '../../lib/upload.ts';

const compress = vi.hoisted(() => vi.fn());
vi.mock('browser-image-compression', () => ({ default: compress }));
const started = vi.hoisted(() => [] as { file: Blob; name: string; pause: ReturnType<typeof vi.fn> }[]);
vi.mock('../../lib/upload.ts', async (original) => ({
  ...(await original<typeof UploadModule>()),
  unfinishedUploads: async () => [],
  startUpload: ({ file, name }: { file: Blob; name: string }) => {
    const pause = vi.fn();
    started.push({ file, name, pause });
    return { id: 'x', done: new Promise(() => undefined), pause, resume: vi.fn(), cancel: vi.fn() };
  },
}));

const { useUpload } = await import('./use-upload.ts');

const MB = 1024 * 1024;
const photo = () => new File([new Uint8Array(4 * MB)], 'IMG_0001.jpg', { type: 'image/jpeg' });

afterEach(() => {
  started.length = 0;
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
});
