import type { HttpRequest, HttpResponse, HttpStack } from 'tus-js-client';
import type { UploadTransport } from './upload.ts';

/*
 * A tus 1.0 server in memory behind tus-js-client's HttpStack, for the upload tests: creation (with
 * upload), HEAD, PATCH at the right offset, termination. `down` makes every request fail as a dropped
 * connection does (no response at all).
 */

interface Held {
  length: number;
  chunks: Uint8Array[];
  offset: number;
  metadata: string;
}

const response = (status: number, headers: Record<string, string> = {}): HttpResponse => ({
  getStatus: () => status,
  getHeader: (name) => headers[name.toLowerCase()],
  getBody: () => '',
  getUnderlyingObject: () => null,
});

async function bytesOf(body: unknown): Promise<Uint8Array> {
  if (body == null) return new Uint8Array();
  return new Uint8Array(await (body as Blob).arrayBuffer());
}

export class FakeTusServer {
  readonly uploads = new Map<string, Held>();
  /** Every request, as "METHOD path". */
  readonly log: string[] = [];
  /** The bytes of each PATCH body, in order. */
  readonly patches: number[] = [];
  down = false;
  /** A status to answer every PATCH with instead of taking it (a server in trouble). */
  patchStatus: number | null = null;
  /** Called after each PATCH the server took, with the new offset. */
  afterPatch: (offset: number) => void = () => undefined;
  private next = 1;

  /** The file a finished upload holds, whole. */
  bytes(id: string): Uint8Array {
    const held = this.uploads.get(id)!;
    const whole = new Uint8Array(held.offset);
    let at = 0;
    for (const chunk of held.chunks) {
      whole.set(chunk, at);
      at += chunk.length;
    }
    return whole;
  }

  transport(): UploadTransport {
    return {
      httpStack: this.stack(),
      retryDelays: [0, 10, 10],
      fileReader: {
        openFile: async (input: Blob) => ({
          size: input.size,
          slice: async (start: number, end: number) => ({ value: input.slice(start, end), done: end >= input.size }),
          close: () => undefined,
        }),
      },
    };
  }

  private stack(): HttpStack {
    return { getName: () => 'fake', createRequest: (method, url) => this.request(method, url) };
  }

  private request(method: string, url: string): HttpRequest {
    const headers: Record<string, string> = {};
    let aborted = false;
    return {
      getMethod: () => method,
      getURL: () => url,
      setHeader: (name, value) => void (headers[name.toLowerCase()] = value),
      getHeader: (name) => headers[name.toLowerCase()],
      setProgressHandler: () => undefined,
      getUnderlyingObject: () => null,
      abort: async () => void (aborted = true),
      send: async (body: unknown) => {
        const data = await bytesOf(body);
        if (this.down || aborted) throw new Error('network error');
        this.log.push(`${method} ${new URL(url, 'http://api.test').pathname}`);
        return this.answer(method, url, headers, data);
      },
    };
  }

  private answer(method: string, url: string, headers: Record<string, string>, data: Uint8Array): HttpResponse {
    if (method === 'POST') {
      const id = `u${this.next++}`;
      const held = {
        length: Number(headers['upload-length']),
        chunks: [] as Uint8Array[],
        offset: 0,
        metadata: headers['upload-metadata'] ?? '',
      };
      this.uploads.set(id, held);
      const location = `${url}/${id}`;
      if (data.length === 0) return response(201, { location });
      return this.take(id, held, data, { location });
    }
    const id = url.split('/').at(-1)!;
    const held = this.uploads.get(id);
    if (!held) return response(404);
    if (method === 'HEAD') {
      return response(200, { 'upload-offset': String(held.offset), 'upload-length': String(held.length) });
    }
    if (method === 'DELETE') {
      this.uploads.delete(id);
      return response(204);
    }
    if (this.patchStatus !== null) return response(this.patchStatus);
    if (Number(headers['upload-offset']) !== held.offset) return response(409);
    return this.take(id, held, data, {});
  }

  private take(id: string, held: Held, data: Uint8Array, headers: Record<string, string>): HttpResponse {
    held.chunks.push(data);
    held.offset += data.length;
    this.patches.push(data.length);
    this.afterPatch(held.offset);
    const finished: Record<string, string> = held.offset === held.length ? { 'x-file-id': `file-${id}` } : {};
    return response(headers.location ? 201 : 204, {
      ...headers,
      ...finished,
      'upload-offset': String(held.offset),
    });
  }
}
