import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';

/**
 * Another process writing the gateway's SQLite file (a second node, a backup or admin script), as in production:
 * a second connection inside the test process would not do, because better-sqlite3 waits for a lock synchronously
 * and would block the very event loop that must release it.
 *
 * Modes: `hold <ms>` takes the write lock (BEGIN IMMEDIATE and a write), says `locked`, keeps it for ms, commits
 * and says `released <epoch ms>`; `churn <ms>` commits short write transactions for ms (each holds the lock 20 ms,
 * then leaves it free 20 ms: busier than a real second writer; a tighter rhythm makes waiting writers lose the
 * race for seconds, as SQLite's busy wait is not fair, which is a question of load, not of failures), then says `done <commits> <failures>`. Either says `failed <message>` on an error.
 */
const SCRIPT = `
const [driver, file, mode, ms] = process.argv.slice(1);
const Database = require(driver);
const db = new Database(file);
db.pragma('busy_timeout = 30000');
db.exec('CREATE TABLE IF NOT EXISTS outside_writes (id INTEGER PRIMARY KEY, at INTEGER NOT NULL)');
const insert = db.prepare('INSERT INTO outside_writes (at) VALUES (?)');
const pause = (wait) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, wait);
const say = (line) => process.stdout.write(line + '\\n');
try {
  if (mode === 'hold') {
    db.exec('BEGIN IMMEDIATE');
    insert.run(Date.now());
    say('locked');
    setTimeout(() => {
      db.exec('COMMIT');
      say('released ' + Date.now());
      db.close();
    }, Number(ms));
  } else {
    const end = Date.now() + Number(ms);
    let commits = 0;
    let failures = 0;
    const round = () => {
      try {
        db.exec('BEGIN IMMEDIATE');
        insert.run(Date.now());
        pause(20);
        db.exec('COMMIT');
        commits++;
      } catch (error) {
        failures++;
        if (db.inTransaction) db.exec('ROLLBACK');
      }
      if (Date.now() < end) setTimeout(round, 20);
      else { say('done ' + commits + ' ' + failures); db.close(); }
    };
    say('started');
    round();
  }
} catch (error) {
  say('failed ' + error.message);
}
`;

export interface Outsider {
  /** Resolves with the rest of the first line starting with `word` (rejects on `failed` or an early exit). */
  said(word: string): Promise<string>;
  child: ChildProcess;
}

export function startOutsider(file: string, mode: 'hold' | 'churn', ms: number): Outsider {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const child = spawn(process.execPath, ['-e', SCRIPT, driver, file, mode, String(ms)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  const waiters: Array<() => void> = [];
  let exited = false;
  createInterface({ input: child.stdout! }).on('line', (line) => {
    lines.push(line);
    for (const wake of waiters.splice(0)) wake();
  });
  // 'close', not 'exit': the last lines may still be in the pipe when the process has exited.
  child.on('close', () => {
    exited = true;
    for (const wake of waiters.splice(0)) wake();
  });
  return {
    child,
    async said(word) {
      for (;;) {
        const failed = lines.find((line) => line.startsWith('failed'));
        if (failed) throw new Error(`the other process: ${failed}`);
        const line = lines.find((candidate) => candidate === word || candidate.startsWith(`${word} `));
        if (line !== undefined) return line.slice(word.length).trim();
        if (exited) throw new Error(`the other process ended without saying "${word}"`);
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
  };
}
