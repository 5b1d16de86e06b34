import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const apiRoot = fileURLToPath(new URL('../..', import.meta.url));

/**
 * A TCP port nobody listens on right now, below the kernel's range of ports it hands out by itself
 * (32768 and up on Linux): a process that asked for any port (`listen(0)`, as the simulators and the test
 * apps do) could otherwise be given this one between the check and the caller's server starting, as test
 * files running side by side did.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, '0.0.0.0', () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error('no free port');
}

export interface ServerProcessOptions {
  /** Appends the server's stdout and stderr to this file instead of the caller's (one log per instance). */
  log?: string;
  /** How long to wait for /ready (default 120 s). */
  readyWithinMs?: number;
  /**
   * Runs `dist/server.mjs`, the build production runs (`npm run build -w @kaminuza/api` first), instead of
   * the source (default), which needs no build.
   */
  bundle?: boolean;
  /** Node's own options, before the script (e.g. a heap size). */
  nodeOptions?: string[];
}

/**
 * Starts the api server (apps/api/src/server.ts, or its build) in a process of its own on `port`, as
 * production runs it, and resolves once it answers /ready. `env` adds to or overrides the caller's environment.
 */
export async function startServerProcess(
  port: number,
  env: Record<string, string> = {},
  options: ServerProcessOptions = {},
): Promise<ChildProcess> {
  const output = options.log === undefined ? 'inherit' : openSync(options.log, 'a');
  let child: ChildProcess;
  try {
    const script = options.bundle ? ['dist/server.mjs'] : ['--disable-warning=ExperimentalWarning', 'src/server.ts'];
    child = spawn(process.execPath, [...(options.nodeOptions ?? []), ...script], {
      cwd: apiRoot,
      env: { ...process.env, PORT: String(port), DATA_DIR: ':memory:', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', output, output],
    });
  } finally {
    // The child holds its own copy of the descriptor.
    if (typeof output === 'number') closeSync(output);
  }
  return untilReady(child, port, options.readyWithinMs ?? 120_000);
}

/**
 * Resolves with `child` once the server it runs answers /ready on `port`; kills it and throws if it exits
 * first or is not ready within `withinMs`.
 */
export async function untilReady(
  child: ChildProcess,
  port: number,
  withinMs: number,
  pollMs = 250,
): Promise<ChildProcess> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`http://localhost:${port}/ready`)).ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not become ready within ${withinMs / 1000} s`);
}

/** Stops the server as an orchestrator would (SIGTERM: in-flight requests finish) and waits for it. */
export async function stopServerProcess(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}
