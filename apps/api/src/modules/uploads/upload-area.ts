import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CopyObjectCommand, DeleteObjectsCommand, GetObjectCommand } from '@aws-sdk/client-s3';
import { FileStore } from '@tus/file-store';
import { S3Store } from '@tus/s3-store';
import type { DataStore, KvStore } from '@tus/utils';
import type { Storage, UploadsArea } from '../../lib/storage/index.ts';

/**
 * The uploads in progress, wherever they are kept: tus's store for them, and what finishing one needs
 * (its first bytes, its hash, its move into storage) read from that same place, never from a local path
 * the other instances could not see.
 */
export interface UploadArea {
  datastore: DataStore;
  /** Up to `length` bytes from the start of a finished upload. */
  firstBytes(id: string, length: number): Promise<Uint8Array>;
  sha256(id: string): Promise<string>;
  /** Puts a finished upload's bytes under `key` of the stored files (a rename on disk, a copy in the bucket). */
  moveInto(storage: Storage, id: string, key: string): Promise<void>;
  /** Drops what is left of an upload once its bytes were moved: its tus record. */
  forget(id: string): Promise<void>;
  /** Removes a finished upload that is not kept (refused type, failed move): its bytes and its record. */
  discard(id: string): Promise<void>;
  /**
   * Removes the uploads left unfinished past their expiry (an applicant who never came back): their
   * bytes, records and, in the bucket, their multipart uploads. Answers how many objects or files went.
   */
  deleteExpired(): Promise<number>;
  /** Lets go of what the store holds open (the S3 store's own client and its sockets). */
  close(): void;
}

/**
 * How long an unfinished upload can be resumed (tus's Upload-Expires): days, for applicants whose
 * connection is gone for a while; the clean-up job removes it after.
 */
export const UPLOAD_EXPIRY_MS = 3 * 24 * 60 * 60_000;
// The expiry is given only to the stores the clean-up makes: on the store serving requests, tus 2.x would
// read a finished upload back after onUploadFinish removed its record, to word an Upload-Expires header.

/** The S3 store's metadata cache, left empty: another instance may have changed or finished the upload. */
class NoCache<T> implements KvStore<T> {
  async get(): Promise<T | undefined> {
    return undefined;
  }
  async set(): Promise<void> {}
  async delete(): Promise<void> {}
  async list(): Promise<string[]> {
    return [];
  }
}

/**
 * tus's S3 store, whose remove() (a cancelled upload) also deletes the upload's incomplete part: the
 * store itself leaves that object behind.
 */
class S3UploadStore extends S3Store {
  override async remove(id: string): Promise<void> {
    await super.remove(id);
    await this.deleteIncompletePart(id);
  }

  destroy(): void {
    this.client.destroy();
  }
}

/** S3's smallest part; tus's S3 store keeps smaller chunks as a `.part` object until a part is full. */
const S3_PART_BYTES = 5 * 1024 * 1024;

async function sha256Of(stream: Readable): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(stream, hash);
  return hash.digest('hex');
}

export function openUploadArea(area: UploadsArea, { expiryMs = UPLOAD_EXPIRY_MS } = {}): UploadArea {
  if (area.kind === 'disk') {
    const datastore = new FileStore({ directory: area.dir });
    const pathOf = (id: string) => join(area.dir, id);
    return {
      datastore,
      async firstBytes(id, length) {
        const handle = await open(pathOf(id), 'r');
        try {
          const buffer = new Uint8Array(length);
          const { bytesRead } = await handle.read(buffer, 0, length, 0);
          return buffer.subarray(0, bytesRead);
        } finally {
          await handle.close();
        }
      },
      sha256: (id) => sha256Of(createReadStream(pathOf(id))),
      moveInto: (storage, id, key) => storage.putFile(key, pathOf(id)),
      forget: (id) => datastore.configstore.delete(id),
      discard: (id) => datastore.remove(id),
      deleteExpired: () =>
        new FileStore({ directory: area.dir, expirationPeriodInMilliseconds: expiryMs }).deleteExpired(),
      close: () => undefined,
    };
  }

  const { client, bucket } = area;
  const storeOptions = (expiry?: number): ConstructorParameters<typeof S3Store>[0] => ({
    s3ClientConfig: { ...area.clientConfig, bucket },
    partSize: S3_PART_BYTES,
    cache: new NoCache(),
    ...(expiry ? { expirationPeriodInMilliseconds: expiry } : {}),
  });
  const datastore = new S3UploadStore(storeOptions());
  const body = async (id: string, range?: string): Promise<Readable> => {
    const { Body } = await client.send(new GetObjectCommand({ Bucket: bucket, Key: id, Range: range }));
    if (!Body) throw new Error(`upload ${id} has no bytes`);
    return Body as Readable;
  };
  return {
    datastore,
    async firstBytes(id, length) {
      const chunks: Buffer[] = [];
      for await (const chunk of await body(id, `bytes=0-${length - 1}`)) chunks.push(chunk as Buffer);
      return new Uint8Array(Buffer.concat(chunks).subarray(0, length));
    },
    sha256: async (id) => sha256Of(await body(id)),
    // The finished upload is already an object of the bucket: copied by the server under the stored
    // file's key, never through the api.
    async moveInto(_storage, id, key) {
      await client.send(
        new CopyObjectCommand({ Bucket: bucket, Key: key, CopySource: `${bucket}/${encodeURIComponent(id)}` }),
      );
    },
    forget: (id) => removeObjects(id),
    // The store's own remove() first aborts the multipart upload, which a finished one no longer has.
    discard: (id) => removeObjects(id),
    async deleteExpired() {
      const expiring = new S3UploadStore(storeOptions(expiryMs));
      try {
        return await expiring.deleteExpired();
      } finally {
        expiring.destroy();
      }
    },
    close: () => datastore.destroy(),
  };

  async function removeObjects(id: string): Promise<void> {
    await client.send(
      new DeleteObjectsCommand({
        Bucket: bucket,
        Delete: { Objects: [{ Key: id }, { Key: `${id}.info` }, { Key: `${id}.part` }], Quiet: true },
      }),
    );
  }
}
