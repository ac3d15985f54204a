/**
 * Reads a V8 .cpuprofile (what `node --cpu-prof` writes at exit) and ranks functions and packages by self time,
 * i.e. time spent in the function's own code, not in what it calls: that is where a hot path can get cheaper.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  /** Microseconds on the monotonic clock (CLOCK_MONOTONIC on Linux, as process.hrtime). */
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A span on the monotonic clock, in microseconds, to keep only the samples taken under load. */
export interface Window {
  fromUs: number;
  toUs: number;
}

export interface Ranked {
  name: string;
  selfMs: number;
  /** Share of the busy (non-idle) time. */
  share: number;
}

export interface ProfileSummary {
  /** False when the window did not overlap the profile (clocks differ): every sample was used instead. */
  windowed: boolean;
  sampledMs: number;
  idleMs: number;
  functions: Ranked[];
  packages: Ranked[];
}

/** Shortens a script URL to where it lives in the repository or in node_modules. */
function shortUrl(url: string): string {
  if (!url) return '';
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) return url.slice(modules + '/node_modules/'.length);
  const packages = url.indexOf('/packages/');
  if (packages >= 0) return url.slice(packages + 1);
  return url.replace(/^file:\/\//, '');
}

/** Which package a function belongs to: an npm package, a folder of our server, Node's own code, or V8. */
function packageOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native / V8 builtins)';
  if (url.startsWith('node:')) return 'node: (core modules)';
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const parts = url.slice(modules + '/node_modules/'.length).split('/');
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  const dist = /packages\/(\w+)\/dist\/(?:([\w-]+)\/)?/.exec(url);
  if (dist) return dist[2] && !dist[2].endsWith('.js') ? `@gateway/${dist[1]} ${dist[2]}/` : `@gateway/${dist[1]}`;
  return shortUrl(url);
}

function rank(totals: Map<string, number>, busyMs: number, limit: number): Ranked[] {
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([name, selfMs]) => ({ name, selfMs, share: busyMs > 0 ? selfMs / busyMs : 0 }));
}

export function summarizeProfile(path: string, window: Window | null, limit = 25): ProfileSummary {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  // Start-up (migrations, the setup's password hash) would crowd out the hot path: keep the window under load.
  const windowed = window !== null && window.fromUs < profile.endTime && window.toUs > profile.startTime;
  const selfUs = new Map<number, number>();
  let at = profile.startTime;
  // Sample i lasts until sample i + 1 is taken: its duration is the next delta (DevTools counts it the same way).
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    if (windowed && (at < window.fromUs || at > window.toUs)) continue;
    const duration = profile.timeDeltas[i + 1] ?? 0;
    const id = profile.samples[i]!;
    selfUs.set(id, (selfUs.get(id) ?? 0) + Math.max(0, duration));
  }
  const functions = new Map<string, number>();
  const packages = new Map<string, number>();
  let sampledMs = 0;
  let idleMs = 0;
  for (const [id, micros] of selfUs) {
    const frame = byId.get(id)?.callFrame;
    if (!frame) continue;
    const ms = micros / 1000;
    sampledMs += ms;
    if (frame.functionName === '(idle)') {
      idleMs += ms;
      continue;
    }
    const where = frame.url ? ` ${shortUrl(frame.url)}:${frame.lineNumber + 1}` : '';
    const name = `${frame.functionName || '(anonymous)'}${where}`;
    functions.set(name, (functions.get(name) ?? 0) + ms);
    const pkg = packageOf(frame.url, frame.functionName);
    packages.set(pkg, (packages.get(pkg) ?? 0) + ms);
  }
  const busyMs = sampledMs - idleMs;
  return {
    windowed,
    sampledMs,
    idleMs,
    functions: rank(functions, busyMs, limit),
    packages: rank(packages, busyMs, 15),
  };
}
