import { createReadStream, createWriteStream } from 'node:fs';
import { constants } from 'node:fs';
import { access, copyFile, mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { isStorageKey, StoredFileNotFoundError, type Storage } from './storage.ts';

/**
 * Files on the local disk under `root`, which must lie outside any folder the web server serves.
 * Keys become relative paths; anything that could climb out of the root is refused.
 */
export function diskStorage(root: string): Storage {
  const base = resolve(root);
  const pathOf = (key: string): string => {
    const path = resolve(base, key);
    if (!isStorageKey(key) || !path.startsWith(base + sep)) {
      throw new Error(`invalid storage key: ${key}`);
    }
    return path;
  };

  return {
    async ping() {
      return access(base, constants.W_OK).then(
        () => true,
        () => false,
      );
    },
    async put(key, source) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      // Written beside its final name and renamed, so a reader never sees half a file.
      const partial = `${path}.partial`;
      try {
        await pipeline(source, createWriteStream(partial, { flags: 'wx' }));
        await rename(partial, path);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
    },
    async putFile(key, from) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      try {
        await rename(from, path);
      } catch (error) {
        // Another file system (EXDEV): copy, then drop the source.
        if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
        await copyFile(from, path);
        await rm(from, { force: true });
      }
    },
    async read(key) {
      const path = pathOf(key);
      try {
        await stat(path);
      } catch {
        throw new StoredFileNotFoundError(key);
      }
      return createReadStream(path);
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
    async exists(key) {
      try {
        return (await stat(pathOf(key))).isFile();
      } catch {
        return false;
      }
    },
  };
}
