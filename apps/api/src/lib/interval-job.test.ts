import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { startIntervalJob } from './interval-job.ts';

function recordingLog() {
  const lines: { level: string; message: string }[] = [];
  const at =
    (level: string) =>
    (...args: unknown[]) =>
      lines.push({ level, message: String(args.find((arg) => typeof arg === 'string')) });
  const log = { info: at('info'), warn: at('warn'), error: at('error') } as unknown as FastifyBaseLogger;
  return { log, lines };
}

const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('an interval job through a database outage', () => {
  it('keeps running, logs the outage once when it begins and once when the job runs again', async () => {
    const { log, lines } = recordingLog();
    let passes = 0;
    const job = startIntervalJob({
      // Ten failing passes (the database is down), then it is back.
      pass: async () => {
        passes += 1;
        if (passes <= 10) throw refused();
        return 1;
      },
      intervalMs: 5,
      log,
      done: 'reminders sent',
      failed: 'reminder pass failed',
    });
    while (passes < 13) await sleep(5);
    await job.stop();
    const outage = lines.filter((line) => line.level !== 'info' || !line.message.startsWith('reminders sent'));
    expect(outage).toEqual([
      { level: 'warn', message: 'reminder pass failed: database unavailable, retrying at each run until it returns' },
      { level: 'info', message: 'reminder pass failed while the database was unavailable: running again' },
    ]);
    expect(lines.filter((line) => line.message === 'reminders sent').length).toBeGreaterThanOrEqual(2);
  });

  it('logs every other failure as an error, each time', async () => {
    const { log, lines } = recordingLog();
    let passes = 0;
    const job = startIntervalJob({
      pass: async () => {
        passes += 1;
        throw new Error('a bug');
      },
      intervalMs: 5,
      log,
      done: 'done',
      failed: 'reminder pass failed',
    });
    while (passes < 3) await sleep(5);
    await job.stop();
    expect(lines.filter((line) => line.level === 'error').length).toBeGreaterThanOrEqual(3);
    expect(lines.every((line) => line.level === 'error' && line.message === 'reminder pass failed')).toBe(true);
  });
});
