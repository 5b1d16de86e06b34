import { afterEach, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { freePort, startServerProcess, stopServerProcess } from '../../test/server-process.ts';

/*
 * The server as production runs it, told to stop by its orchestrator (SIGTERM): for the drain delay
 * /ready says 503 so a load balancer stops sending it requests, while it still answers the ones that come.
 */
describe('a server shutting down', () => {
  let child: ChildProcess | undefined;
  afterEach(async () => {
    if (child) await stopServerProcess(child, 'SIGKILL');
  });

  it('answers /ready with 503 draining during SHUTDOWN_DRAIN_SECONDS, keeps serving, then exits cleanly', async () => {
    const port = await freePort();
    child = await startServerProcess(port, { SHUTDOWN_DRAIN_SECONDS: '2' });
    const base = `http://127.0.0.1:${port}`;
    expect((await fetch(`${base}/ready`)).status).toBe(200);

    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
    const signalled = Date.now();
    child.kill('SIGTERM');
    let ready: Response | undefined;
    for (let attempt = 0; attempt < 40; attempt += 1) {
      ready = await fetch(`${base}/ready`);
      if (ready.status === 503) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(ready!.status).toBe(503);
    expect(await ready!.json()).toMatchObject({ error: { details: { status: 'draining' } } });
    const health = await fetch(`${base}/health`);
    expect(health.status).toBe(200);
    const summary = await fetch(`${base}/api/v1/catalogue/summary`);
    expect(summary.status).toBe(200);
    // Still draining well after the signal: the port stays open for the delay.
    expect(Date.now() - signalled).toBeLessThan(1500);

    expect(await exited).toBe(0);
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(2000);
    child = undefined;
  }, 150_000);
});
