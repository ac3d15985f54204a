/**
 * The offline copy: a new-api / one-api database (any engine) into a database of ours (any engine), for a switch
 * that leaves the family's database as it was. The in-place path (adopt.ts) is the other way.
 *
 * - The source is only read (a SQLite file is opened read-only), through the readings of readings.ts, so booleans,
 *   gorm's soft-delete times and renamed columns arrive as our server reads them in place.
 * - Every table the in-place path serves is carried (tables.ts), paged by key and written in batches: memory stays
 *   constant however long the log is. Soft-deleted rows are carried with their deletion time, as in place: the
 *   server hides them the same way, and their usernames and keys stay taken.
 * - A row is carried when our schema can hold it; otherwise it is reported with why (prepare.ts, table-pass.ts).
 * - Rows are keyed by their ids (abilities by group, model and channel; options by key). A row the target already
 *   holds with the same values is skipped, so a second run copies nothing new. A row it holds with other values
 *   (the family kept serving between two runs, or our server has served on the target since) is a conflict, and so
 *   is a new row whose username, key or trade number the target holds under another id: the copy then refuses,
 *   lists them and writes nothing. `updateChanged` lets the source win for the changed rows (never for the others).
 * - Everything is checked in a first pass before anything is written (a dry run stops there); the target is then
 *   migrated to our latest schema and the second pass writes, one transaction per page: an interrupted copy
 *   resumes where it stopped when run again.
 * - Usage logs may live in databases of their own on either side (LOG_SQL_DSN): `fromLog` is the family's log
 *   database (its `logs` are read there instead of in `from`), `toLog` ours (the logs are written there, which is
 *   then migrated to our log schema, db/log-migrate.ts). Log rows keep their ids either way, so a second run finds
 *   them again.
 */
import { sql } from 'kysely';
import { type Db, openDatabase } from '../../connection.js';
import type { DatabaseTarget } from '../../dsn.js';
import { migrateLogDatabase } from '../../log-migrate.js';
import { migrateToLatest } from '../../migrate.js';
import { hasFamilyTables } from '../family.js';
import { readShape } from '../shape.js';
import { describeEndpoint, openForReading, sameEndpoint } from './endpoints.js';
import { ourSchema } from './our-schema.js';
import type { CopyReport } from './report.js';
import { copyTable, type PassContext } from './table-pass.js';
import { CARRIED_TABLES } from './tables.js';

export interface CopyOptions {
  from: DatabaseTarget;
  to: DatabaseTarget;
  /** The family's separate log database (its LOG_SQL_DSN), when it had one. */
  fromLog?: DatabaseTarget;
  /** Our separate log database (LOG_SQL_DSN), when the server will run with one. */
  toLog?: DatabaseTarget;
  dryRun?: boolean;
  /** Overwrite rows the target holds under the same key with other values, with the source's. */
  updateChanged?: boolean;
  /** Rows read (and written) per page. */
  pageSize?: number;
  /** Called after each page; `writing` is false in the first pass, which checks every row before anything is written. */
  progress?: (table: string, read: number, writing: boolean) => void;
}

/** A copy that cannot start at all (the source is not a family database, the target holds something else…). */
export class CopyRefused extends Error {}

export async function copyFamilyDatabase(options: CopyOptions): Promise<CopyReport> {
  refuseSameEndpoints(options);
  const source = await openForReading(options.from);
  if (!source) throw new CopyRefused(`${describeEndpoint(options.from)} does not exist`);
  const opened: Array<Db | null> = [];
  try {
    const sourceShape = await readShape(source.kysely, source.dialect);
    if (!hasFamilyTables(sourceShape)) {
      throw new CopyRefused(
        `${describeEndpoint(options.from)} holds no new-api or one-api tables (users, tokens, channels)`,
      );
    }
    const logSource = options.fromLog ? await openLogSource(options.fromLog) : null;
    opened.push(logSource);
    const target = await openTarget(options, options.to, refuseForeignTarget);
    opened.push(target);
    const logTarget = options.toLog ? await openTarget(options, options.toLog, refuseForeignLogTarget) : null;
    opened.push(logTarget);
    const logs: LogEnds = {
      source: logSource ?? source,
      sourceShape: logSource ? await readShape(logSource.kysely, logSource.dialect) : sourceShape,
      target: options.toLog ? logTarget : target,
      targetDialect: (options.toLog ?? options.to).dialect,
    };
    const pass = (write: boolean) => runPass(options, source, sourceShape, target, logs, write);
    const checked = await pass(false);
    const refused = refusal(checked, options.updateChanged ?? false);
    // A dry run says whether the copy would be refused; it never writes either way.
    if (options.dryRun || refused) return { ...checked, refused };
    await migrateToLatest(target!);
    if (logTarget) await migrateLogDatabase(logTarget);
    return { ...(await pass(true)), written: true };
  } finally {
    for (const db of opened.reverse()) await db?.close();
    await source.close();
  }
}

/** Where the `logs` table is read and written: the main databases unless either side has a log database. */
interface LogEnds {
  source: Db;
  sourceShape: PassContext['sourceShape'];
  target: Db | null;
  targetDialect: Db['dialect'];
}

function refuseSameEndpoints(options: CopyOptions): void {
  const ends = [options.from, options.to, options.fromLog, options.toLog].filter((end) => end !== undefined);
  for (let i = 0; i < ends.length; i++) {
    for (let j = i + 1; j < ends.length; j++) {
      if (sameEndpoint(ends[i]!, ends[j]!)) {
        throw new CopyRefused(`${describeEndpoint(ends[i]!)} is given twice: every database of the copy must differ`);
      }
    }
  }
}

async function openLogSource(endpoint: DatabaseTarget): Promise<Db> {
  const db = await openForReading(endpoint);
  if (!db) throw new CopyRefused(`${describeEndpoint(endpoint)} does not exist`);
  if (!(await readShape(db.kysely, db.dialect)).tables.has('logs')) {
    await db.close();
    throw new CopyRefused(`${describeEndpoint(endpoint)} holds no logs table`);
  }
  return db;
}

/**
 * The target is looked at read-only first (a SQLite file is neither created nor switched to WAL), and opened to
 * write only once it is known to be empty or ours, and not for a dry run.
 */
async function openTarget(
  options: CopyOptions,
  endpoint: DatabaseTarget,
  refuseForeign: (probe: Db, endpoint: DatabaseTarget) => Promise<void>,
): Promise<Db | null> {
  const probe = await openForReading(endpoint);
  if (probe) {
    try {
      await refuseForeign(probe, endpoint);
    } catch (error) {
      await probe.close();
      throw error;
    }
  }
  if (options.dryRun) return probe;
  await probe?.close();
  return openDatabase(endpoint);
}

async function runPass(
  options: CopyOptions,
  source: Db,
  sourceShape: PassContext['sourceShape'],
  target: Db | null,
  logs: LogEnds,
  write: boolean,
): Promise<CopyReport> {
  const schema = await ourSchema();
  const ctx: PassContext = {
    source,
    sourceShape,
    target,
    targetShape: target ? await readShape(target.kysely, target.dialect) : null,
    targetDialect: options.to.dialect,
    write,
    updateChanged: options.updateChanged ?? false,
    pageSize: options.pageSize ?? 500,
    owners: new Map(),
    uncarriable: [],
    conflicts: [],
    clashes: 0,
    progress: options.progress,
  };
  const tables = [];
  for (const carried of CARRIED_TABLES) {
    if (carried.name !== 'logs') {
      tables.push(await copyTable(ctx, carried, schema.get(carried.name)!));
      continue;
    }
    // The log's own ends; nothing in it points at rows checked here, and the lists of problems are shared.
    const logCtx: PassContext = {
      ...ctx,
      ...logs,
      targetShape: logs.target ? await readShape(logs.target.kysely, logs.target.dialect) : null,
      clashes: 0,
    };
    tables.push(await copyTable(logCtx, carried, schema.get('logs')!));
    ctx.clashes += logCtx.clashes;
  }
  return {
    dryRun: options.dryRun ?? false,
    written: false,
    tables,
    uncarriable: ctx.uncarriable,
    conflicts: ctx.conflicts,
    ...(ctx.clashes ? { refused: clashMessage(ctx.clashes) } : {}),
  };
}

const clashMessage = (count: number) =>
  `${count} new rows would take a username, key or trade number the target holds under another id`;

function refusal(report: CopyReport, updateChanged: boolean): string | undefined {
  if (report.refused) return `${report.refused}; nothing was written`;
  const changed = report.tables.filter((table) => table.changed > 0);
  if (!changed.length || updateChanged) return undefined;
  const where = changed.map((table) => `${table.table} (${table.changed})`).join(', ');
  return `the target holds rows with other values under the same ids: ${where}; nothing was written (--update-changed lets the source win)`;
}

/**
 * The target must be empty or a database of this server (migration 0001 recorded): a family database is started
 * on in place, and anything else is not ours to fill.
 */
async function refuseForeignTarget(target: Db, endpoint: DatabaseTarget): Promise<void> {
  const shape = await readShape(target.kysely, target.dialect);
  const tables = [...shape.tables.keys()].filter((name) => !name.startsWith('kysely_')).sort();
  if (!tables.length) return;
  if (shape.tables.has('kysely_migration')) {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration where name = '0001_initial'`.execute(
      target.kysely,
    );
    if (rows.length) return;
  }
  const family = hasFamilyTables(shape) ? ' (a new-api or one-api database: start the server on it in place)' : '';
  throw new CopyRefused(
    `${describeEndpoint(endpoint)} is neither empty nor a database of this server${family}; tables: ${tables.slice(0, 8).join(', ')}`,
  );
}

/** Our log database must be empty, or one this server made or adopted (log migration 0001_logs recorded). */
async function refuseForeignLogTarget(target: Db, endpoint: DatabaseTarget): Promise<void> {
  const shape = await readShape(target.kysely, target.dialect);
  const tables = [...shape.tables.keys()].filter(
    (name) => !name.startsWith('kysely_') && !name.startsWith('log_migration'),
  );
  if (!tables.length) return;
  if (shape.tables.has('log_migration')) {
    const { rows } = await sql<{ name: string }>`select name from log_migration where name = '0001_logs'`.execute(
      target.kysely,
    );
    if (rows.length) return;
  }
  throw new CopyRefused(
    `${describeEndpoint(endpoint)} is neither empty nor a log database of this server; tables: ${tables.sort().slice(0, 8).join(', ')}`,
  );
}
