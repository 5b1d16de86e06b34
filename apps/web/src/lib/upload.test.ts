import { describe, expect, it } from 'vitest';
import { UPLOAD_MAX_CHUNK_BYTES, UPLOAD_RESUMABLE_THRESHOLD_BYTES } from '@kaminuza/shared';
import { isResumable, nextChunkSize, startUpload, UploadError } from './upload.ts';

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
  it('refuses a file over the limit before sending anything', async () => {
    const file = new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'me.png', { type: 'image/png' });
    const handle = startUpload({ file, purpose: 'profile_picture', onProgress: () => undefined });
    await expect(handle.done).rejects.toEqual(new UploadError('file_too_large'));
  });
});
