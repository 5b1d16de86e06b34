/**
 * Gives the memory a busy spell left behind back to the machine once the api goes quiet (ADR 046).
 *
 * V8 keeps the heap a burst grew to until its next major collection, which an idle process does not
 * need; its memory reducer, meant to collect when a process goes idle, judges the api's allocation rate
 * high and never runs here. On a small server shared with PostgreSQL, whose cache is the machine's free
 * memory, that left the api holding 250–450 MB for nothing. So when no request has come for `quietMs`
 * and the heap has grown since the last collection, one full collection that returns freed pages to the
 * operating system runs (tens of milliseconds, at a moment nobody is waiting).
 */
import v8 from 'node:v8';
import vm from 'node:vm';

interface GcOptions {
  type: 'major';
  execution: 'sync';
  /** `last-resort` also releases the pages freed (V8's "low memory" collection). */
  flavor: 'last-resort';
}

/** V8's own collector function, as `--expose-gc` would give it, fetched without that flag. */
function v8Collector(): (options: GcOptions) => void {
  v8.setFlagsFromString('--expose-gc');
  // A new context is created with the flag on, so it has `gc`; it collects the whole isolate's heap.
  return vm.runInNewContext('gc') as (options: GcOptions) => void;
}

export interface IdleMemoryRelease {
  /** Marks the process busy (a request arrived). */
  activity: () => void;
  stop: () => void;
}

export interface IdleMemoryOptions {
  /** How long without a request counts as quiet. */
  quietMs: number;
  /** Collect only once the heap has grown this much since the last collection (no pointless pauses). */
  minGrowthBytes?: number;
  onRelease?: (released: { heapBeforeMb: number; heapAfterMb: number; ms: number }) => void;
}

const MB = 1024 * 1024;

export function releaseMemoryWhenQuiet({
  quietMs,
  minGrowthBytes = 16 * MB,
  onRelease,
}: IdleMemoryOptions): IdleMemoryRelease {
  const collect = v8Collector();
  let lastActivity = performance.now();
  // Starting is a busy spell of its own (modules, migrations, the first queries).
  let busy = true;
  let heapAfterCollection = 0;
  // A timer, not a job of the queue: it is about this process's own heap, so every instance runs its own
  // and a restart has nothing to carry over.
  const timer = setInterval(
    () => {
      if (!busy || performance.now() - lastActivity < quietMs) return;
      busy = false;
      const before = v8.getHeapStatistics().total_heap_size;
      if (before - heapAfterCollection < minGrowthBytes) return;
      const started = performance.now();
      collect({ type: 'major', execution: 'sync', flavor: 'last-resort' });
      heapAfterCollection = v8.getHeapStatistics().total_heap_size;
      onRelease?.({
        heapBeforeMb: Math.round(before / MB),
        heapAfterMb: Math.round(heapAfterCollection / MB),
        ms: Math.round(performance.now() - started),
      });
    },
    Math.max(250, quietMs / 4),
  );
  timer.unref();
  return {
    activity: () => {
      lastActivity = performance.now();
      busy = true;
    },
    stop: () => clearInterval(timer),
  };
}
