import type { App } from '../../app.ts';

const TUS = { 'tus-resumable': '1.0.0' };

export function uploadMetadata(values: Record<string, string>): string {
  return Object.entries(values)
    .map(([key, value]) => `${key} ${Buffer.from(value, 'utf8').toString('base64')}`)
    .join(',');
}

/** tus creation; returns the response and the upload path of its Location. */
export async function createUpload(
  app: App,
  headers: Record<string, string>,
  options: { purpose: string; filename: string; length: number; body?: Buffer },
) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/uploads',
    headers: {
      ...headers,
      ...TUS,
      'upload-length': String(options.length),
      'upload-metadata': uploadMetadata({ purpose: options.purpose, filename: options.filename }),
      ...(options.body ? { 'content-type': 'application/offset+octet-stream' } : {}),
    },
    ...(options.body ? { payload: options.body } : {}),
  });
  return { response, location: response.headers.location as string | undefined };
}

export function patchUpload(
  app: App,
  headers: Record<string, string>,
  location: string,
  offset: number,
  bytes: Buffer,
) {
  return app.inject({
    method: 'PATCH',
    url: location,
    headers: {
      ...headers,
      ...TUS,
      'upload-offset': String(offset),
      'content-type': 'application/offset+octet-stream',
    },
    payload: bytes,
  });
}

export function headUpload(app: App, headers: Record<string, string>, location: string) {
  return app.inject({ method: 'HEAD', url: location, headers: { ...headers, ...TUS } });
}

/** Creates an upload and sends all of its bytes in one PATCH. */
export async function uploadFile(
  app: App,
  headers: Record<string, string>,
  purpose: string,
  filename: string,
  bytes: Buffer,
) {
  const { response, location } = await createUpload(app, headers, { purpose, filename, length: bytes.length });
  if (response.statusCode !== 201 || !location)
    throw new Error(`creation failed: ${response.statusCode} ${response.body}`);
  return patchUpload(app, headers, location, 0, bytes);
}
