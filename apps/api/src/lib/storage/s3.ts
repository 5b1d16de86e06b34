import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3ServiceException,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { isStorageKey, StoredFileNotFoundError, type Storage } from './storage.ts';

/** Where a bucket is and how to reach it: what STORAGE_DRIVER=s3 reads from the env. */
export interface S3Settings {
  bucket: string;
  region: string;
  /** Unset for AWS itself. */
  endpoint?: string;
  forcePathStyle: boolean;
  /** Unset: the AWS SDK's default chain (environment, shared files, web identity, container or instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
}

/** Connecting gives up after 5 s; a call whose socket stays silent for 30 s fails (then the SDK's retries). */
export const S3_CONNECTION_TIMEOUT_MS = 5_000;
export const S3_SOCKET_TIMEOUT_MS = 30_000;

/** The client options of the bucket, also given to tus's S3 store so both reach it the same way. */
export function s3ClientConfig(settings: S3Settings): S3ClientConfig {
  return {
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    forcePathStyle: settings.forcePathStyle,
    ...(settings.credentials ? { credentials: settings.credentials } : {}),
    requestHandler: { connectionTimeout: S3_CONNECTION_TIMEOUT_MS, requestTimeout: S3_SOCKET_TIMEOUT_MS },
    // The SDK's own retries (3 attempts with backoff) for throttling, 5xx and lost connections.
    maxAttempts: 3,
    // Checksums only where the API requires them: several S3-compatible stores refuse the newer
    // trailing CRC32 checksums that the SDK would otherwise add to every upload.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  };
}

/** A missing key or bucket, as S3 and its compatible stores report it (404, NoSuchKey, NotFound). */
export function isS3NotFound(error: unknown): boolean {
  return (
    error instanceof S3ServiceException &&
    (error.$metadata.httpStatusCode === 404 || error.name === 'NoSuchKey' || error.name === 'NotFound')
  );
}

/** A readiness probe waits this long for the bucket, not the calls' own timeouts and retries. */
const S3_PING_TIMEOUT_MS = 2_000;

/** Streams of unknown length are sent in parts of this size, two at a time. */
const PART_SIZE = 8 * 1024 * 1024;

/**
 * Stored files as objects of one bucket, under the same generated keys as on disk. Every call has the
 * client's timeouts; the bucket itself is created by the deployment.
 */
export function s3Storage(client: S3Client, bucket: string): Storage {
  const checked = (key: string): string => {
    if (!isStorageKey(key)) throw new Error(`invalid storage key: ${key}`);
    return key;
  };

  return {
    async ping() {
      try {
        await client.send(new HeadBucketCommand({ Bucket: bucket }), {
          abortSignal: AbortSignal.timeout(S3_PING_TIMEOUT_MS),
        });
        return true;
      } catch {
        return false;
      }
    },
    async put(key, source) {
      // A stream's length is not known beforehand: lib-storage sends it in parts (one PUT when small),
      // and a failed multipart upload is aborted rather than left to cost storage.
      await new Upload({
        client,
        params: { Bucket: bucket, Key: checked(key), Body: source },
        partSize: PART_SIZE,
        queueSize: 2,
        leavePartsOnError: false,
      }).done();
    },
    async putFile(key, path) {
      const { size } = await stat(path);
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: checked(key),
          Body: createReadStream(path),
          ContentLength: size,
        }),
      );
      await rm(path, { force: true });
    },
    async read(key) {
      try {
        const { Body } = await client.send(new GetObjectCommand({ Bucket: bucket, Key: checked(key) }));
        if (!Body) throw new StoredFileNotFoundError(key);
        return Body as Readable;
      } catch (error) {
        if (isS3NotFound(error)) throw new StoredFileNotFoundError(key);
        throw error;
      }
    },
    async delete(key) {
      // S3 answers a deleted key and a missing one alike.
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: checked(key) }));
    },
    async exists(key) {
      try {
        await client.send(new HeadObjectCommand({ Bucket: bucket, Key: checked(key) }));
        return true;
      } catch (error) {
        if (isS3NotFound(error)) return false;
        throw error;
      }
    },
  };
}
