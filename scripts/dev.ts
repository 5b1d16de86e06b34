/**
 * Development: the API (restarting on change) on :3000 and Vite's dev server on :5173, which proxies
 * /api to it. Open http://localhost:5173. Ctrl-C stops both.
 */
import { spawn, type ChildProcess } from 'node:child_process';

const children: ChildProcess[] = [
  spawn(process.execPath, ['--disable-warning=ExperimentalWarning', '--watch', 'apps/api/src/server.ts'], {
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'development' },
  }),
  spawn(process.execPath, ['node_modules/.bin/vite', '--config', 'apps/web/vite.config.ts', 'apps/web'], {
    stdio: 'inherit',
  }),
];

function stop() {
  for (const child of children) child.kill('SIGTERM');
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', stop);
