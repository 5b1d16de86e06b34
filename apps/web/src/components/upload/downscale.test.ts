import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { UPLOAD_MAX_PICTURE_BYTES } from '@kaminuza/shared';

const compress = vi.hoisted(() => vi.fn());
vi.mock('browser-image-compression', () => ({ default: compress }));

const { canDownscale, downscalePhoto, onDataSavingConnection, useDownscaleChoice, DOWNSCALE_RULES } =
  await import('./downscale.ts');

const MB = 1024 * 1024;
const photo = (size: number, type: string, name = 'photo.jpg') => new File([new Uint8Array(size)], name, { type });

afterEach(() => {
  compress.mockReset();
  vi.restoreAllMocks();
  localStorage.clear();
});

describe('canDownscale', () => {
  it('takes photos larger than their purpose needs, never a PDF or a small photo', () => {
    expect(canDownscale(photo(4 * MB, 'image/jpeg'), 'passport')).toBe(true);
    expect(canDownscale(photo(4 * MB, 'image/heic'), 'transcript')).toBe(true);
    expect(canDownscale(photo(4 * MB, 'image/webp'), 'payment_slip')).toBe(true);
    expect(canDownscale(photo(4 * MB, 'application/pdf', 'scan.pdf'), 'transcript')).toBe(false);
    expect(canDownscale(photo(1 * MB, 'image/jpeg'), 'passport')).toBe(false);
    // A profile picture needs less than a document page.
    expect(canDownscale(photo(1 * MB, 'image/png'), 'profile_picture')).toBe(true);
  });
});

describe('downscalePhoto', () => {
  it('keeps the type the server accepts, within the rule, without a worker', async () => {
    compress.mockImplementation(async () => photo(900 * 1024, 'image/png', 'x.png'));
    const result = await downscalePhoto(photo(6 * MB, 'image/png', 'slip.png'), 'payment_slip');
    expect(compress).toHaveBeenCalledWith(expect.any(File), {
      maxSizeMB: 1.5,
      maxWidthOrHeight: DOWNSCALE_RULES.document.maxSide,
      fileType: 'image/png',
      initialQuality: 0.85,
      useWebWorker: false,
    });
    expect(result).toMatchObject({ name: 'slip.png', type: 'image/png', size: 900 * 1024 });
  });

  it('writes a HEIC photo as JPEG, renamed', async () => {
    compress.mockImplementation(async () => photo(300 * 1024, 'image/jpeg'));
    const result = await downscalePhoto(photo(3 * MB, 'image/heic', 'IMG_0001.HEIC'), 'passport');
    expect(compress.mock.calls[0]![1]).toMatchObject({ fileType: 'image/jpeg' });
    expect(result).toMatchObject({ name: 'IMG_0001.jpg', type: 'image/jpeg' });
  });

  it('sends a profile picture within its own rule', async () => {
    compress.mockImplementation(async () => photo(400 * 1024, 'image/jpeg'));
    await downscalePhoto(photo(UPLOAD_MAX_PICTURE_BYTES, 'image/jpeg'), 'profile_picture');
    expect(compress.mock.calls[0]![1]).toMatchObject({ maxSizeMB: 0.5, maxWidthOrHeight: 1024 });
  });

  it('gives the original back for a PDF, a photo the browser cannot decode, or a copy no smaller', async () => {
    const pdf = photo(4 * MB, 'application/pdf', 'scan.pdf');
    expect(await downscalePhoto(pdf, 'transcript')).toBe(pdf);
    expect(compress).not.toHaveBeenCalled();

    const heic = photo(4 * MB, 'image/heic', 'a.heic');
    compress.mockRejectedValueOnce(new Error('The file given is not an image'));
    expect(await downscalePhoto(heic, 'transcript')).toBe(heic);

    const jpeg = photo(2 * MB, 'image/jpeg');
    compress.mockResolvedValueOnce(photo(3 * MB, 'image/jpeg'));
    expect(await downscalePhoto(jpeg, 'transcript')).toBe(jpeg);
  });
});

describe('the choice', () => {
  const connection = (value: object | undefined) =>
    vi.spyOn(navigator as Navigator & { connection?: object }, 'connection', 'get').mockReturnValue(value);

  it('defaults to yes on a data-saving or 2G connection, no elsewhere', () => {
    Object.defineProperty(navigator, 'connection', { configurable: true, get: () => undefined });
    connection({ saveData: true, effectiveType: '4g' });
    expect(onDataSavingConnection()).toBe(true);
    connection({ saveData: false, effectiveType: '2g' });
    expect(onDataSavingConnection()).toBe(true);
    connection({ saveData: false, effectiveType: '4g' });
    expect(onDataSavingConnection()).toBe(false);
    connection(undefined);
    expect(onDataSavingConnection()).toBe(false);
  });

  it('is kept once made, and shared by every upload control', () => {
    Object.defineProperty(navigator, 'connection', { configurable: true, get: () => ({ saveData: true }) });
    const first = renderHook(() => useDownscaleChoice());
    const second = renderHook(() => useDownscaleChoice());
    expect(first.result.current[0]).toBe(true);
    act(() => first.result.current[1](false));
    expect(second.result.current[0]).toBe(false);
    expect(localStorage.getItem('kaminuza.upload.downscale')).toBe('no');
  });
});
