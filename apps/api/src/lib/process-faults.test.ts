import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const moduleUrl = new URL('./process-faults.ts', import.meta.url).href;

/*
 * In a process of its own: what an unhandled error does is the process's business, and the test runner
 * has handlers of its own in this one.
 */
describe('keepServingThroughFaults', () => {
  it('logs a throwing timer, an unheard emitter error and an unawaited rejection, and the process goes on', async () => {
    const script = `
      import { EventEmitter } from 'node:events';
      import { keepServingThroughFaults } from ${JSON.stringify(moduleUrl)};
      keepServingThroughFaults({
        error: (object, message) => console.log(JSON.stringify({ message, err: object.err.message, origin: object.origin })),
      });
      setTimeout(() => { throw new Error('a timer fault'); }, 0);
      setTimeout(() => new EventEmitter().emit('error', new Error('an emitter nobody listens to')), 10);
      Promise.reject(new Error('a promise nobody awaited'));
      setTimeout(() => console.log(JSON.stringify({ message: 'still serving' })), 200);
    `;
    const { stdout } = await run(process.execPath, ['--input-type=module', '--eval', script]);
    const lines = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, string>);
    expect(lines).toEqual(
      expect.arrayContaining([
        { message: 'unhandled promise rejection: kept serving', err: 'a promise nobody awaited' },
        { message: 'uncaught exception: kept serving', err: 'a timer fault', origin: 'uncaughtException' },
        {
          message: 'uncaught exception: kept serving',
          err: 'an emitter nobody listens to',
          origin: 'uncaughtException',
        },
      ]),
    );
    expect(lines.at(-1)).toEqual({ message: 'still serving' });
  });

  it('gives the default back when stopped: the next fault ends the process', async () => {
    const script = `
      import { keepServingThroughFaults } from ${JSON.stringify(moduleUrl)};
      const stop = keepServingThroughFaults({ error: () => undefined });
      stop();
      Promise.reject(new Error('a promise nobody awaited'));
      setTimeout(() => console.log('still serving'), 200);
    `;
    const failure = await run(process.execPath, ['--input-type=module', '--eval', script]).then(
      () => null,
      (error: { code?: number; stdout?: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stdout).not.toContain('still serving');
  });
});
