import { readFileSync } from 'node:fs';

/*
 * CPU time and memory of other processes, read from /proc (Linux): where the machine's cores went while the
 * bench ran (the server under test, PostgreSQL's backends, the load generator). Elsewhere they read as 0.
 */

/** Clock ticks per second of /proc/<pid>/stat's times: 100 on every Linux this runs on (`getconf CLK_TCK`). */
const TICKS_PER_SECOND = 100;

/** User + system CPU time a process has used so far, in ms; null once it is gone or unreadable. */
export function cpuMsOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces: the fields after its closing parenthesis are fixed.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** A process's resident memory now and at its highest so far, in MB; null once it is gone or unreadable. */
export function memoryOf(pid: number): { rssMb: number; peakMb: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    return { rssMb: Math.round(kb('VmRSS') / 1024), peakMb: Math.round(kb('VmHWM') / 1024) };
  } catch {
    return null;
  }
}

/** CPU ms of each process in `pids` now: a snapshot to subtract from a later one. */
export function cpuSnapshot(pids: readonly number[]): Map<number, number> {
  const snapshot = new Map<number, number>();
  for (const pid of pids) {
    const ms = cpuMsOf(pid);
    if (ms !== null) snapshot.set(pid, ms);
  }
  return snapshot;
}

/**
 * CPU ms the processes used between two snapshots: one that appeared in between counts from its start; one
 * that ended in between is lost (its last times cannot be read), so the figure is a lower bound.
 */
export function cpuBetween(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
  return Math.round(total);
}

/** Samples a process's resident memory every `everyMs` until stopped; answers the highest seen, in MB. */
export function sampleRss(pid: number, everyMs = 100): () => number {
  let highest = memoryOf(pid)?.rssMb ?? 0;
  const timer = setInterval(() => {
    highest = Math.max(highest, memoryOf(pid)?.rssMb ?? 0);
  }, everyMs);
  return () => {
    clearInterval(timer);
    return Math.max(highest, memoryOf(pid)?.rssMb ?? 0);
  };
}
