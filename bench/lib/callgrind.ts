/** Reads a callgrind dump (format: valgrind's callgrind-format docs) into instruction totals by where they ran. */
import { readFileSync } from 'node:fs';

export interface Instructions {
  total: number;
  /** Code V8 generated at run time: callgrind knows no symbol for it and names its object `???`. */
  compiledJs: number;
  /** The node executable: V8's runtime, builtins and GC, libuv, the HTTP parser. */
  node: number;
  /** better-sqlite3's addon, which carries SQLite itself. */
  sqlite: number;
  /** Everything else: libc, libstdc++ and friends. */
  other: number;
}

/**
 * Self cost per object file. Names may be compressed as `(id) name` on first use and `(id)` after; a cost line
 * right after `calls=` is the inclusive cost of that call, already counted in the callee, so it is skipped.
 */
export function readCallgrindDump(path: string): Instructions {
  const objects = new Map<string, string>();
  const totals: Instructions = { total: 0, compiledJs: 0, node: 0, sqlite: 0, other: 0 };
  let object = '???';
  let afterCall = false;
  let stated = Number.NaN;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const summary = /^(?:summary|totals):\s*(\d+)/.exec(line);
    if (summary) {
      stated = Number(summary[1]);
      continue;
    }
    if (line.startsWith('ob=')) {
      const named = /^\((\d+)\)\s*(.*)$/.exec(line.slice(3));
      if (!named) object = line.slice(3);
      else if (named[2]) {
        object = named[2];
        objects.set(named[1]!, object);
      } else object = objects.get(named[1]!) ?? '???';
      continue;
    }
    if (line.startsWith('cob=')) {
      // Only registers the name of a called object; the caller's object stays current.
      const named = /^\((\d+)\)\s*(.+)$/.exec(line.slice(4));
      if (named) objects.set(named[1]!, named[2]!);
      continue;
    }
    if (line.startsWith('calls=')) {
      afterCall = true;
      continue;
    }
    const first = line.charCodeAt(0);
    const isCost = (first >= 48 && first <= 57) || line[0] === '+' || line[0] === '-' || line[0] === '*';
    if (!isCost) continue;
    if (afterCall) {
      afterCall = false;
      continue;
    }
    const cost = Number(line.split(' ')[1] ?? 0);
    totals.total += cost;
    totals[bucketOf(object)] += cost;
  }
  // The dump states its own total: a reading that misses it by more than a percent misread the format.
  if (!(Math.abs(totals.total - stated) <= stated * 0.01)) {
    throw new Error(`${path}: read ${totals.total} instructions, the dump states ${stated}`);
  }
  return totals;
}

function bucketOf(object: string): Exclude<keyof Instructions, 'total'> {
  if (object === '???') return 'compiledJs';
  const file = object.slice(object.lastIndexOf('/') + 1);
  if (file === 'node') return 'node';
  if (file.startsWith('better_sqlite3')) return 'sqlite';
  return 'other';
}
