import { mkdirSync, mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileDataDir, type Env } from '../env.ts';
import { diskStorage } from './disk.ts';
import type { Storage } from './storage.ts';

export { StoredFileNotFoundError, type Storage } from './storage.ts';

/** The stored files and the folder where tus keeps uploads in progress (so they survive a restart). */
export interface FileStores {
  storage: Storage;
  uploadsDir: string;
  /** Removes the throwaway folder of DATA_DIR=:memory:; keeps real data. */
  close(): Promise<void>;
}

/**
 * Opens the storage driver the env selects. Both folders sit under DATA_DIR (a fresh temporary folder
 * when DATA_DIR is `:memory:`), never under the built web app.
 */
export function openFileStores(env: Env): FileStores {
  const dataDir = fileDataDir(env);
  const root = dataDir ?? mkdtempSync(join(tmpdir(), 'kaminuza-files-'));
  const close = async () => {
    if (!dataDir) await rm(root, { recursive: true, force: true });
  };
  const uploadsDir = join(root, 'uploads');
  mkdirSync(uploadsDir, { recursive: true });
  switch (env.STORAGE_DRIVER) {
    case 'disk': {
      const filesDir = join(root, 'files');
      mkdirSync(filesDir, { recursive: true });
      return { storage: diskStorage(filesDir), uploadsDir, close };
    }
  }
}
