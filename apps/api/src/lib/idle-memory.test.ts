import v8 from 'node:v8';
import { afterEach, describe, expect, it } from 'vitest';
import { releaseMemoryWhenQuiet, type IdleMemoryRelease } from './idle-memory.ts';

const MB = 1024 * 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A busy spell's leftovers: about `mb` of objects nobody refers to once this returns. */
function garbage(mb: number): void {
  let kept: { index: number; text: string }[] = [];
  for (let i = 0; i < mb * 12_000; i++) {
    kept.push({ index: i, text: `row ${i}` });
    if (kept.length > 200_000) kept = [];
  }
}

describe('releasing memory when the api goes quiet', () => {
  let release: IdleMemoryRelease | undefined;
  afterEach(() => release?.stop());

  it('collects once quiet after a busy spell, giving the heap back, and not again until busy', async () => {
    const releases: { heapBeforeMb: number; heapAfterMb: number }[] = [];
    release = releaseMemoryWhenQuiet({ quietMs: 300, minGrowthBytes: 8 * MB, onRelease: (r) => releases.push(r) });
    garbage(64);
    const grown = v8.getHeapStatistics().total_heap_size;
    await sleep(900);
    expect(releases).toHaveLength(1);
    expect(releases[0]!.heapAfterMb).toBeLessThan(releases[0]!.heapBeforeMb);
    expect(v8.getHeapStatistics().total_heap_size).toBeLessThan(grown);
    // Quiet and nothing new: no further pauses.
    await sleep(700);
    expect(releases).toHaveLength(1);
    // Busy again, then quiet: once more.
    release.activity();
    garbage(64);
    await sleep(900);
    expect(releases).toHaveLength(2);
  });

  it('waits while requests keep coming', async () => {
    const releases: unknown[] = [];
    release = releaseMemoryWhenQuiet({ quietMs: 400, minGrowthBytes: 0, onRelease: (r) => releases.push(r) });
    for (let i = 0; i < 8; i++) {
      release.activity();
      await sleep(100);
    }
    expect(releases).toHaveLength(0);
    await sleep(700);
    expect(releases).toHaveLength(1);
  });

  it('skips the pause when the heap has not grown enough to matter', async () => {
    const releases: unknown[] = [];
    release = releaseMemoryWhenQuiet({ quietMs: 200, minGrowthBytes: 4096 * MB, onRelease: (r) => releases.push(r) });
    await sleep(600);
    expect(releases).toHaveLength(0);
  });
});
