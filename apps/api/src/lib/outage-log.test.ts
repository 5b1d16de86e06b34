import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { passFailures } from './outage-log.ts';

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

describe('failures of repeated work through a database outage', () => {
  it('logs the outage once when it begins and once when the work runs again', () => {
    const { log, lines } = recordingLog();
    const failures = passFailures(log, 'job queue failed');
    for (let pass = 0; pass < 10; pass += 1) failures.failed(refused());
    failures.succeeded();
    failures.succeeded();
    expect(lines).toEqual([
      { level: 'warn', message: 'job queue failed: database unavailable, retrying at each run until it returns' },
      { level: 'info', message: 'job queue failed while the database was unavailable: running again' },
    ]);
  });

  it('logs every other failure as an error, each time', () => {
    const { log, lines } = recordingLog();
    const failures = passFailures(log, 'job queue failed');
    for (let pass = 0; pass < 3; pass += 1) failures.failed(new Error('a bug'));
    expect(lines).toEqual(Array.from({ length: 3 }, () => ({ level: 'error', message: 'job queue failed' })));
  });
});
