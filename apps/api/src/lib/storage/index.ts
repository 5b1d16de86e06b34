import { mkdirSync, mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import type { Locker } from '@tus/utils';
import { fileDataDir, type Env } from '../env.ts';
import { diskStorage } from './disk.ts';
import { s3ClientConfig, s3Storage, type S3Settings } from './s3.ts';
import type { Storage } from './storage.ts';
import { PostgresLocker } from './upload-locker.ts';

export { StoredFileNotFoundError, type Storage } from './storage.ts';
export { isS3NotFound, s3ClientConfig, s3Storage, type S3Settings } from './s3.ts';
export { PostgresLocker } from './upload-locker.ts';

/**
 * Where tus keeps uploads in progress: a local folder (the disk driver) or the bucket of stored files
 * (the S3 driver), where an upload begun through one api instance can go on through another.
 */
export type UploadsArea =
  { kind: 'disk'; dir: string } | { kind: 's3'; client: S3Client; bucket: string; clientConfig: S3ClientConfig };

/** The stored files and the uploads in progress (kept so they survive a restart). */
export interface FileStores {
  storage: Storage;
  uploads: UploadsArea;
  /**
   * The lock of uploads in progress shared by every api instance (PostgreSQL advisory locks), when the
   * database is a server; null with embedded PGlite, one process, where tus's in-memory lock suffices.
   */
  uploadLocker: Locker | null;
  /** Ends the lock's connection and removes the throwaway folder of DATA_DIR=:memory:; keeps real data. */
  close(): Promise<void>;
}

/** The bucket settings of STORAGE_DRIVER=s3 (the env refuses s3 without a bucket and a region). */
export function s3Settings(env: Env): S3Settings {
  if (!env.S3_BUCKET || !env.S3_REGION) throw new Error('STORAGE_DRIVER=s3 needs S3_BUCKET and S3_REGION');
  return {
    bucket: env.S3_BUCKET,
    region: env.S3_REGION,
    endpoint: env.S3_ENDPOINT,
    forcePathStyle: env.S3_FORCE_PATH_STYLE,
    credentials:
      env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
        ? {
            accessKeyId: env.AWS_ACCESS_KEY_ID,
            secretAccessKey: env.AWS_SECRET_ACCESS_KEY,
            ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}),
          }
        : undefined,
  };
}

/**
 * Opens the storage driver the env selects. With `disk`, both folders sit under DATA_DIR (a fresh
 * temporary folder when DATA_DIR is `:memory:`), never under the built web app; with `s3`, stored files
 * and uploads in progress are objects of S3_BUCKET and nothing is kept on the local disk.
 */
export function openFileStores(env: Env): FileStores {
  const locker = env.DATABASE_URL ? new PostgresLocker(env.DATABASE_URL) : null;
  switch (env.STORAGE_DRIVER) {
    case 'disk': {
      const dataDir = fileDataDir(env);
      const root = dataDir ?? mkdtempSync(join(tmpdir(), 'kaminuza-files-'));
      const uploadsDir = join(root, 'uploads');
      const filesDir = join(root, 'files');
      mkdirSync(uploadsDir, { recursive: true });
      mkdirSync(filesDir, { recursive: true });
      return {
        storage: diskStorage(filesDir),
        uploads: { kind: 'disk', dir: uploadsDir },
        uploadLocker: locker,
        async close() {
          await locker?.close();
          if (!dataDir) await rm(root, { recursive: true, force: true });
        },
      };
    }
    case 's3': {
      const settings = s3Settings(env);
      const clientConfig = s3ClientConfig(settings);
      const client = new S3Client(clientConfig);
      return {
        storage: s3Storage(client, settings.bucket),
        uploads: { kind: 's3', client, bucket: settings.bucket, clientConfig },
        uploadLocker: locker,
        async close() {
          await locker?.close();
          client.destroy();
        },
      };
    }
  }
}
