import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import sharp from 'sharp';

/**
 * Images the api serves answer differently when the browser asks to save data (the `Save-Data: on`
 * client hint, sent in the browser's data-saver mode): shared caches must keep both answers apart, and
 * the type depends on what the browser accepts.
 */
export const SAVE_DATA_VARY = 'Save-Data, Accept';

/** The longest side of the rendition sent to a browser saving data: a sharp avatar at up to 3× density. */
export const SAVE_DATA_PICTURE_PX = 256;

/**
 * A picture this many pixels or larger is not decoded for a rendition (a small file can declare an
 * enormous image): the original is sent. 50 MP covers the cameras of today's phones.
 */
const MAX_INPUT_PIXELS = 50_000_000;

/** The hint's only defined value is `on`; anything else, or none, means an ordinary answer. */
export function wantsLessData(headers: IncomingHttpHeaders): boolean {
  const hint = headers['save-data'];
  return typeof hint === 'string' && hint.trim().toLowerCase() === 'on';
}

export interface Picture {
  bytes: Buffer;
  mimeType: string;
}

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/**
 * The picture at most SAVE_DATA_PICTURE_PX on its longest side, as WebP when the browser takes it (every
 * browser that sends Save-Data does) and otherwise in its own format. The original is sent instead when
 * it is already that small, when the rendition would not be smaller, or when the picture cannot be decoded within the pixel limit: the
 * person still sees their picture, only without the saving.
 */
export async function smallerPicture(stream: Readable, mimeType: string, accept: string | undefined): Promise<Picture> {
  const original = await collect(stream);
  const webp = accept?.includes('image/webp') ?? false;
  try {
    const image = sharp(original, { limitInputPixels: MAX_INPUT_PIXELS });
    const { width, height } = await image.metadata();
    if (Math.max(width, height) <= SAVE_DATA_PICTURE_PX) return { bytes: original, mimeType };
    const resized = image
      // Phones store photos sideways with an orientation tag, which the re-encoding drops: turn them first.
      .rotate()
      .resize(SAVE_DATA_PICTURE_PX, SAVE_DATA_PICTURE_PX, { fit: 'inside', withoutEnlargement: true });
    const [bytes, type] = webp
      ? [await resized.webp({ quality: 70 }).toBuffer(), 'image/webp']
      : mimeType === 'image/png'
        ? [await resized.png({ compressionLevel: 9, palette: true }).toBuffer(), 'image/png']
        : mimeType === 'image/webp'
          ? [await resized.webp({ quality: 70 }).toBuffer(), 'image/webp']
          : [await resized.jpeg({ quality: 70, mozjpeg: true }).toBuffer(), 'image/jpeg'];
    if (bytes.length < original.length) return { bytes, mimeType: type };
  } catch {
    // Not decodable within the limit: the original, as without the hint.
  }
  return { bytes: original, mimeType };
}
