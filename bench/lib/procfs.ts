/**
 * Readers of /proc for another process: the gateway runs as a child, so its CPU time and memory are read from the
 * kernel rather than asked of the process itself (asking would add work to the thing being measured).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

let ticksPerSecond: number | null = null;

/** USER_HZ, the unit of utime/stime in /proc/<pid>/stat (100 on every common Linux, but asked, not assumed). */
function clockTicks(): number {
  if (ticksPerSecond === null) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/**
 * User + system CPU seconds consumed so far by every thread of the process (V8's GC and compiler threads and
 * libuv's pool included: they are part of what a request costs).
 */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) is in parentheses and may contain spaces: count fields after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the name, fields start at 3 (state); utime is field 14 and stime field 15 of proc(5).
  const utime = Number(fields[14 - 3]);
  const stime = Number(fields[15 - 3]);
  return (utime + stime) / clockTicks();
}

/**
 * Busy CPU seconds of each CPU since boot, from /proc/stat (user, nice, system, irq, softirq and steal: time the
 * core was not available to an idle task). Comparing this with our processes' own CPU time over a phase shows how
 * much other processes (or the hypervisor) took from the cores we measure on.
 */
export function cpuBusySeconds(): number[] {
  const busy: number[] = [];
  for (const line of readFileSync('/proc/stat', 'utf8').split('\n')) {
    const match = /^cpu(\d+) (.*)$/.exec(line);
    if (!match) continue;
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = match[2]!
      .trim()
      .split(/\s+/)
      .map(Number);
    busy[Number(match[1])] = (user + nice + system + irq + softirq + steal) / clockTicks();
  }
  return busy;
}

export interface Memory {
  /** Resident set size now, in bytes. */
  rss: number;
  /** Peak resident set size since the process started ("high water mark"), in bytes. */
  peakRss: number;
}

export function memory(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (name: string) => {
    const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status);
    return match ? Number(match[1]) * 1024 : Number.NaN;
  };
  return { rss: kib('VmRSS'), peakRss: kib('VmHWM') };
}

/** True when this machine exposes /proc (Linux); the bench refuses to report CPU or memory figures otherwise. */
export function procAvailable(): boolean {
  try {
    readFileSync('/proc/self/stat', 'utf8');
    return true;
  } catch {
    return false;
  }
}
