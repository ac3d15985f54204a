import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { SerialRun } from '../lib/serial-run.js';
import type { Db } from './connection.js';
import { insertLogRows } from './repos/logs.js';
import type { LogRow, NewLog } from './schema.js';

/** The job_leases row that names this main database to the log database (see `identity`). */
const IDENTITY_ROW = 'log-transfer-source';

/** Main-database rows copied per log-database transaction. */
const BATCH = 1000;

/**
 * Batches per run at most. Turning LOG_SQL_DSN on for a gateway that already logged millions of rows moves them all
 * (they stay visible that way); bounded runs let that go on in the background, on the timer, instead of holding a
 * reader's flush until the whole history has moved.
 */
const BATCHES_PER_RUN = 50;

/**
 * PostgreSQL: how long the mover waits for its SHARE lock on the outbox. Book writes queue behind the waiting lock,
 * so a long transaction elsewhere must not stall them: the round is skipped and the next one tries again.
 */
const LOCK_TIMEOUT = '1s';

/**
 * Moves usage-log rows from the main database's `logs` table (the outbox) into the separate log database
 * (LOG_SQL_DSN). The outbox is what keeps the books exact (db/repos/books.ts: log rows and the balance changes they
 * account for commit together in the main database); this mover only relocates committed rows, exactly once:
 *
 * 1. read the watermark W (the highest main id already copied) from the log database's `log_transfers`;
 * 2. delete main rows with id ≤ W (copied earlier: a crash may have come between the copy and this delete);
 * 3. read the next main rows with id > W that are settled (no lower id can still commit, see `settledRows`);
 * 4. in ONE log-database transaction: move W forward to the last of them, only if it still equals the W read
 *    (a compare-and-set), and insert them without their main id (the log database numbers its own rows: a family
 *    server may have written there before, and two gateways may share it);
 * 5. delete the copied rows from the main database (step 2 of the next round does it if this process dies first).
 *
 * Several nodes on one main database may run this at once (each node moves on its own timer and whenever a reader
 * flushes). The compare-and-set in step 4 is what keeps them apart, not a job lease: leases grant a run per time
 * interval, not mutual exclusion, and a reader's flush must move at once on whichever node it arrives. The UPDATE
 * locks the watermark row until commit, so a second mover's UPDATE waits, then finds W changed, updates nothing and
 * rolls back its copy (on SQLite, BEGIN IMMEDIATE serialises the two outright).
 */
export class LogTransfer {
  private readonly runs = new SerialRun(() => this.moveAll());
  private timer: NodeJS.Timeout | null = null;
  private source: string | null = null;

  constructor(
    private readonly main: Db,
    private readonly logs: Db,
    private readonly onError: (error: unknown) => void = () => {},
    private readonly batch = BATCH,
  ) {}

  start(intervalMs: number): void {
    this.timer = setInterval(() => void this.run().catch(this.onError), intervalMs);
    this.timer.unref();
  }

  /** Stops the timer and moves what the main database still holds (called after the ledger's last flush). */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.run();
  }

  /** Moves every row committed to the outbox before the call. */
  run(): Promise<void> {
    return this.runs.request();
  }

  private async moveAll(): Promise<void> {
    const source = await this.identity();
    for (let round = 0; round < BATCHES_PER_RUN; round++) {
      const moved = await this.moveBatch(source);
      if (moved < this.batch) return;
    }
  }

  /** One round of steps 1–5; the number of rows moved, or `batch` when another mover won and a retry is due. */
  async moveBatch(source: string): Promise<number> {
    const from = await this.watermark(source);
    await this.deleteCopied(from);
    const rows = await this.settledRows(from);
    if (rows.length === 0) return 0;
    const to = rows[rows.length - 1]!.id;
    if (!(await this.copy(source, from, to, rows))) return this.batch;
    await this.deleteCopied(to);
    return rows.length;
  }

  /**
   * This main database's name in `log_transfers`: a random value stored once in its own `job_leases` table (a spare
   * row under a name no job uses). The DSN would not do: nodes may reach one database under different host names,
   * and would then copy the same rows twice.
   */
  async identity(): Promise<string> {
    if (this.source) return this.source;
    const candidate = randomBytes(12).toString('hex');
    const insert = this.main.kysely
      .insertInto('job_leases')
      .values({ name: IDENTITY_ROW, holder: candidate, run_at: 0 });
    if (this.main.dialect === 'mysql') await insert.ignore().execute();
    else await insert.onConflict((oc) => oc.column('name').doNothing()).execute();
    const row = await this.main.kysely
      .selectFrom('job_leases')
      .select('holder')
      .where('name', '=', IDENTITY_ROW)
      .executeTakeFirstOrThrow();
    this.source = row.holder;
    return row.holder;
  }

  /** Step 1: the highest main id copied so far (0 for a main database never moved from). */
  async watermark(source: string): Promise<number> {
    const insert = this.logs.kysely.insertInto('log_transfers').values({ source, last_id: 0 });
    if (this.logs.dialect === 'mysql') await insert.ignore().execute();
    else await insert.onConflict((oc) => oc.column('source').doNothing()).execute();
    const row = await this.logs.kysely
      .selectFrom('log_transfers')
      .select('last_id')
      .where('source', '=', source)
      .executeTakeFirstOrThrow();
    return Number(row.last_id);
  }

  /**
   * Steps 2 and 5: removes copied rows from the outbox, except the newest row of the table. That one stays as an
   * anchor: where the next id is max(id) + 1 (a family SQLite table without AUTOINCREMENT, MySQL before 8.0 after a
   * restart), an empty table would hand out ids at or below the watermark again, and those rows would be deleted
   * as copied without ever being copied. The anchor is itself copied already and is deleted by a later round.
   */
  async deleteCopied(upTo: number): Promise<void> {
    if (upTo <= 0) return;
    const newest = await this.main.kysely
      .selectFrom('logs')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirst();
    const limit = Math.min(upTo, Number(newest?.id ?? 0) - 1);
    if (limit <= 0) return;
    await this.main.kysely.deleteFrom('logs').where('id', '<=', limit).execute();
  }

  /**
   * Step 3: the next rows after `from`, in id order, up to an id below which nothing can still commit. Ids are
   * handed out at INSERT, not at commit: a transaction holding id 10 may commit after another's id 11 was read,
   * and moving the watermark past 11 would lose row 10. So:
   * - SQLite has one writer at a time, which commits before the next takes an id: every visible id is settled;
   * - PostgreSQL: a SHARE lock on `logs` waits for every transaction that inserted into it to end (and holds new
   *   inserts back for the moment it is held); the highest id seen under it is settled, and ids handed out later
   *   are higher;
   * - MySQL/MariaDB: a locking read waits on each uncommitted row it meets in the id range (a row whose INSERT took
   *   its id but has not placed it in the index yet is a window of microseconds that this does not cover).
   */
  async settledRows(from: number): Promise<LogRow[]> {
    const next = () =>
      this.main.kysely.selectFrom('logs').selectAll().where('id', '>', from).orderBy('id').limit(this.batch);
    if (this.main.dialect === 'sqlite') return next().execute();
    if (this.main.dialect === 'mysql') return next().modifyEnd(sql`lock in share mode`).execute();
    const horizon = await this.main.kysely
      .transaction()
      .execute(async (trx) => {
        await sql.raw(`set local lock_timeout = '${LOCK_TIMEOUT}'`).execute(trx);
        await sql`lock table logs in share mode`.execute(trx);
        const row = await trx
          .selectFrom('logs')
          .select((eb) => eb.fn.max('id').as('id'))
          .executeTakeFirst();
        return Number(row?.id ?? 0);
      })
      .catch((error: unknown) => {
        // lock_not_available: a writer held on; nothing is settled this round.
        if ((error as { code?: string }).code === '55P03') return from;
        throw error;
      });
    if (horizon <= from) return [];
    return next().where('id', '<=', horizon).execute();
  }

  /**
   * Step 4: the copy and the watermark in one log-database transaction. False when the watermark is no longer
   * `from` (another node moved these rows first): nothing is written.
   */
  async copy(source: string, from: number, to: number, rows: LogRow[]): Promise<boolean> {
    return this.logs.kysely.transaction().execute(async (trx) => {
      const moved = await trx
        .updateTable('log_transfers')
        .set({ last_id: to })
        .where('source', '=', source)
        .where('last_id', '=', from)
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) !== 1) return false;
      await insertLogRows(trx, this.logs.dialect, rows.map(withoutId));
      return true;
    });
  }
}

function withoutId(row: LogRow): NewLog {
  const { id: _id, ...rest } = row;
  return rest;
}
