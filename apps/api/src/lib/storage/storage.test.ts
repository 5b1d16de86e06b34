import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { ListObjectsV2Command, ListMultipartUploadsCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEnv } from '../env.ts';
import { startS3Server, type S3Server } from '../../test/s3-server.ts';
import { openFileStores, StoredFileNotFoundError, type FileStores } from './index.ts';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A stream of `size` random bytes in 64 KB pieces, its length unknown to the reader; and their hash. */
function randomStream(size: number): { stream: Readable; hash: string } {
  const hash = createHash('sha256');
  const pieces: Buffer[] = [];
  for (let sent = 0; sent < size; sent += 64 * 1024) {
    const piece = randomBytes(Math.min(64 * 1024, size - sent));
    hash.update(piece);
    pieces.push(piece);
  }
  return { stream: Readable.from(pieces), hash: hash.digest('hex') };
}

let s3: S3Server;
const work = mkdtempSync(join(tmpdir(), 'kz-storage-test-'));

beforeAll(async () => {
  s3 = await startS3Server();
  console.log(`local S3 server (radosgw) started in ${s3.startedInMs} ms`);
}, 120_000);

afterAll(async () => {
  await s3?.stop();
  rmSync(work, { recursive: true, force: true });
});

const drivers = {
  disk: () => parseEnv({ NODE_ENV: 'test', DATA_DIR: ':memory:' }),
  s3: () => parseEnv({ NODE_ENV: 'test', DATA_DIR: ':memory:', ...s3.env }),
};

describe.each(Object.keys(drivers) as (keyof typeof drivers)[])('the %s storage driver', (driver) => {
  let stores: FileStores;
  beforeAll(() => {
    stores = openFileStores(drivers[driver]());
  });
  afterAll(async () => {
    await stores?.close();
  });

  it('keeps a stream and gives the same bytes back', async () => {
    const bytes = randomBytes(1000);
    await stores.storage.put('ab/put-small', Readable.from([bytes]));
    expect(await stores.storage.exists('ab/put-small')).toBe(true);
    expect(sha256(await buffer(await stores.storage.read('ab/put-small')))).toBe(sha256(bytes));
  });

  it('keeps a stream of unknown length larger than several parts, bytes unchanged', async () => {
    const { stream, hash } = randomStream(20 * 1024 * 1024 + 12_345);
    await stores.storage.put('cd/put-large', stream);
    const stored = await buffer(await stores.storage.read('cd/put-large'));
    expect(stored.length).toBe(20 * 1024 * 1024 + 12_345);
    expect(sha256(stored)).toBe(hash);
  });

  it('moves a local file in: the bytes are stored and the local file is gone', async () => {
    const bytes = randomBytes(300_000);
    const path = join(work, `${driver}-file`);
    writeFileSync(path, bytes);
    await stores.storage.putFile('ef/from-file', path);
    expect(existsSync(path)).toBe(false);
    expect(sha256(await buffer(await stores.storage.read('ef/from-file')))).toBe(sha256(bytes));
  });

  it('answers a missing key with StoredFileNotFoundError, exists false, and deleting it is no error', async () => {
    await expect(stores.storage.read('00/missing')).rejects.toBeInstanceOf(StoredFileNotFoundError);
    expect(await stores.storage.exists('00/missing')).toBe(false);
    await expect(stores.storage.delete('00/missing')).resolves.toBeUndefined();
  });

  it('deletes a key', async () => {
    await stores.storage.put('gh/to-delete', Readable.from([Buffer.from('bytes')]));
    await stores.storage.delete('gh/to-delete');
    expect(await stores.storage.exists('gh/to-delete')).toBe(false);
    await expect(stores.storage.read('gh/to-delete')).rejects.toBeInstanceOf(StoredFileNotFoundError);
  });

  it('answers a readiness ping', async () => {
    expect(await stores.storage.ping()).toBe(true);
  });

  it('refuses keys that could climb out or were not generated', async () => {
    await expect(stores.storage.put('../escape', Readable.from([Buffer.from('x')]))).rejects.toThrow(
      /invalid storage key/,
    );
    await expect(stores.storage.read('AB/Upper')).rejects.toThrow(/invalid storage key/);
  });
});

describe('the s3 driver against the bucket itself', () => {
  it('leaves no multipart upload behind when a stream fails half-way', async () => {
    const stores = openFileStores(drivers.s3());
    const client = new S3Client({
      endpoint: s3.endpoint,
      region: s3.region,
      forcePathStyle: true,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    });
    try {
      const failing = Readable.from(
        (async function* () {
          yield randomBytes(9 * 1024 * 1024);
          throw new Error('the source broke');
        })(),
      );
      await expect(stores.storage.put('ij/broken', failing)).rejects.toThrow();
      expect(await stores.storage.exists('ij/broken')).toBe(false);
      const uploads = await client.send(new ListMultipartUploadsCommand({ Bucket: s3.bucket }));
      expect((uploads.Uploads ?? []).filter((upload) => upload.Key === 'ij/broken')).toEqual([]);
      // Stored files are objects under their generated keys, nothing else.
      const listed = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: 'ab/' }));
      expect(listed.Contents?.map((object) => object.Key)).toEqual(['ab/put-small']);
    } finally {
      client.destroy();
      await stores.close();
    }
  });

  it('fails a call to an unreachable endpoint within its timeouts instead of hanging', async () => {
    const stores = openFileStores(
      parseEnv({ NODE_ENV: 'test', DATA_DIR: ':memory:', ...s3.env, S3_ENDPOINT: 'http://127.0.0.1:9' }),
    );
    const started = Date.now();
    try {
      await expect(stores.storage.exists('ab/anything')).rejects.toThrow();
      expect(Date.now() - started).toBeLessThan(20_000);
      // The readiness ping answers false within its own short wait.
      const pinged = Date.now();
      expect(await stores.storage.ping()).toBe(false);
      expect(Date.now() - pinged).toBeLessThan(5_000);
    } finally {
      await stores.close();
    }
  });

  it('pings false for a bucket that does not exist', async () => {
    const stores = openFileStores(
      parseEnv({ NODE_ENV: 'test', DATA_DIR: ':memory:', ...s3.env, S3_BUCKET: 'no-such-bucket-kz' }),
    );
    try {
      expect(await stores.storage.ping()).toBe(false);
    } finally {
      await stores.close();
    }
  });
});

describe('STORAGE_DRIVER=s3 in the env', () => {
  it('needs a bucket and a region, each named in its own message', () => {
    expect(() => parseEnv({ STORAGE_DRIVER: 's3' })).toThrow(/S3_BUCKET[\s\S]*S3_REGION|S3_REGION[\s\S]*S3_BUCKET/);
    expect(() => parseEnv({ STORAGE_DRIVER: 's3', S3_REGION: 'auto' })).toThrow(/S3_BUCKET/);
    expect(() => parseEnv({ STORAGE_DRIVER: 's3', S3_BUCKET: 'files' })).toThrow(/S3_REGION/);
  });

  it('takes the path-style flag, an endpoint URL, and both keys or neither', () => {
    const env = parseEnv({
      STORAGE_DRIVER: 's3',
      S3_BUCKET: 'kaminuza-files',
      S3_REGION: 'auto',
      S3_ENDPOINT: 'https://example.r2.cloudflarestorage.com',
      S3_FORCE_PATH_STYLE: 'on',
    });
    expect(env).toMatchObject({ STORAGE_DRIVER: 's3', S3_FORCE_PATH_STYLE: true });
    expect(env.AWS_ACCESS_KEY_ID).toBeUndefined();
    expect(parseEnv({}).S3_FORCE_PATH_STYLE).toBe(false);
    expect(() => parseEnv({ S3_ENDPOINT: 'not a url' })).toThrow(/S3_ENDPOINT/);
    expect(() => parseEnv({ S3_BUCKET: 'Bad_Bucket' })).toThrow(/S3_BUCKET/);
    expect(() => parseEnv({ AWS_ACCESS_KEY_ID: 'AKIA' })).toThrow(/AWS_SECRET_ACCESS_KEY/);
  });
});
