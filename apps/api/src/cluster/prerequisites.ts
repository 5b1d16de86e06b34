import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { postgresBinaries } from '../test/postgres-cluster.ts';

/*
 * What the many-instances test needs installed (Debian packages `nginx` and `postgresql`). Kept apart
 * from cluster.ts so the test runner can ask without loading the api.
 */

/** nginx: NGINX_BIN, else Debian's /usr/sbin/nginx, else the first on PATH; null when not installed. */
export function nginxBinary(): string | null {
  const candidates = process.env.NGINX_BIN
    ? [process.env.NGINX_BIN]
    : ['/usr/sbin/nginx', ...(process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, 'nginx'))];
  return (
    candidates.find((path) => {
      try {
        accessSync(path, constants.X_OK);
        return true;
      } catch {
        return false;
      }
    }) ?? null
  );
}

/** The programs the cluster runs, and the Debian packages missing for it (empty when it can run). */
export function clusterPrerequisites() {
  const postgres = postgresBinaries();
  const nginx = nginxBinary();
  const missing = [...(postgres ? [] : ['postgresql']), ...(nginx ? [] : ['nginx'])];
  return { postgres, nginx, missing };
}
