import { describe, expect, it } from 'vitest';
import { BUSY, eventLoopGauge, giveWay, type LoadGauge } from './give-way.ts';

/** A gauge reading the given utilizations in turn, then the last one. */
function readings(...values: number[]): LoadGauge & { reads: number } {
  const gauge = {
    reads: 0,
    utilization() {
      const value = values[Math.min(gauge.reads, values.length - 1)]!;
      gauge.reads += 1;
      return value;
    },
    stop() {},
  };
  return gauge;
}

describe('giving way to requests', () => {
  it('goes at once when the process is not busy', async () => {
    const gauge = readings(BUSY - 0.1);
    expect(await giveWay(gauge, Date.now() + 5_000)).toBeLessThan(50);
    expect(gauge.reads).toBe(1);
  });

  it('waits while busy and goes once the load has passed', async () => {
    const gauge = readings(0.99, 0.95, 0.3);
    const waited = await giveWay(gauge, Date.now() + 5_000);
    expect(gauge.reads).toBe(3);
    expect(waited).toBeGreaterThanOrEqual(400);
    expect(waited).toBeLessThan(2_000);
  });

  it('never waits past its deadline, however busy the process stays', async () => {
    const waited = await giveWay(readings(1), Date.now() + 600);
    expect(waited).toBeGreaterThanOrEqual(550);
    expect(waited).toBeLessThan(1_200);
  });

  it('measures the event loop: busy while it spins, not busy once it idles, and nothing waits once stopped', async () => {
    const gauge = eventLoopGauge();
    try {
      // Spin in slices for about a second, yielding briefly so the gauge's timer can read.
      const spinUntil = Date.now() + 1_000;
      let busiest = 0;
      while (Date.now() < spinUntil) {
        const slice = Date.now() + 50;
        while (Date.now() < slice);
        await new Promise((resolve) => setImmediate(resolve));
        busiest = Math.max(busiest, gauge.utilization());
      }
      expect(busiest).toBeGreaterThan(BUSY);
      await new Promise((resolve) => setTimeout(resolve, 700));
      expect(gauge.utilization()).toBeLessThan(BUSY);
    } finally {
      gauge.stop();
    }
    expect(gauge.utilization()).toBe(0);
  });
});
