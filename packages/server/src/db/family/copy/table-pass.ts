import { sql } from 'kysely';
import type { Db, Dialect } from '../../connection.js';
import { columnAliases } from '../family.js';
import type { ColumnShape, DatabaseShape } from '../shape.js';
import type { OurTable } from './our-schema.js';
import { differences, prepareRow } from './prepare.js';
import { CONFLICTS_LISTED, type RowProblem, type TableReport } from './report.js';
import { type AnyDb, keyText, pages, rowsMatching } from './rows.js';
import type { CarriedTable, Row } from './tables.js';

/** What every table's pass shares: the two databases, and what earlier tables carried. */
export interface PassContext {
  source: Db;
  sourceShape: DatabaseShape;
  /** Null in a dry run against a target that does not exist yet (nothing there to compare with). */
  target: Db | null;
  targetShape: DatabaseShape | null;
  targetDialect: Dialect;
  write: boolean;
  updateChanged: boolean;
  pageSize: number;
  /** Keys of the rows carried so far, for the tables other rows point at (users, channels). */
  owners: Map<string, Set<string>>;
  uncarriable: RowProblem[];
  conflicts: RowProblem[];
  /** New rows whose unique value (a username, a key) the target holds under another key: never written. */
  clashes: number;
  progress?: (table: string, read: number, writing: boolean) => void;
}

/** Thrown by a writing pass that meets a conflict the checking pass did not see (a database changed meanwhile). */
export class CopyConflict extends Error {}

/** Parameters per INSERT stay well under SQLite's 32,766 and PostgreSQL's and MySQL's 65,535. */
const PARAMETERS_PER_INSERT = 20_000;

/** Our column name → the source's column as the database reports it (the family's spellings translated). */
function sourceColumnsOf(shape: DatabaseShape, table: string): Map<string, ColumnShape> {
  const ourName = new Map([...columnAliases(shape)].map(([ours, theirs]) => [theirs, ours]));
  const columns = new Map<string, ColumnShape>();
  for (const [name, column] of shape.tables.get(table) ?? []) columns.set(ourName.get(name) ?? name, column);
  return columns;
}

/** A unique value as the target compares it (MySQL's collation ignores case and trailing spaces). */
function uniqueValue(row: Row, columns: string[], dialect: Dialect): string | null {
  const parts: string[] = [];
  for (const column of columns) {
    const value = row[column];
    if (value === null || value === undefined) return null;
    parts.push(dialect === 'mysql' && typeof value === 'string' ? value.toLowerCase().trimEnd() : String(value));
  }
  return parts.join('\u0000');
}

const shown = (value: unknown) => (typeof value === 'string' ? JSON.stringify(value) : String(value));

export async function copyTable(ctx: PassContext, carried: CarriedTable, our: OurTable): Promise<TableReport> {
  const report: TableReport = {
    table: our.name,
    inSource: ctx.sourceShape.tables.has(our.name),
    read: 0,
    added: 0,
    unchanged: 0,
    changed: 0,
    skipped: 0,
    droppedColumns: [],
  };
  if (!report.inSource) return report;
  const sourceColumns = sourceColumnsOf(ctx.sourceShape, our.name);
  const ours = new Set(our.columns.map((column) => column.name));
  const consumed = new Set(carried.consumes ?? []);
  report.droppedColumns = [...sourceColumns.keys()].filter((name) => !ours.has(name) && !consumed.has(name));
  const sourceNames = new Set(sourceColumns.keys());
  const owned = new Set<string>();
  ctx.owners.set(our.name, owned);
  const seen = our.uniques.map(() => new Map<string, string>());
  const targetHas = ctx.target !== null && (ctx.targetShape?.tables.has(our.name) ?? false);

  for await (const page of pages(ctx.source.kysely as AnyDb, our.name, our.key, ctx.pageSize)) {
    report.read += page.length;
    ctx.progress?.(our.name, report.read, ctx.write);
    const candidates: Row[] = [];
    for (const sourceRow of page) {
      const key = keyText(our.key, sourceRow);
      const prepared = prepareRow(
        our,
        carried.adapt?.(sourceRow, sourceNames) ?? sourceRow,
        sourceColumns,
        ctx.targetDialect,
      );
      const reasons = prepared.reasons ?? checkRow(ctx, carried, our, prepared.row, key, seen);
      if (reasons.length) {
        report.skipped++;
        ctx.uncarriable.push({ table: our.name, key, reasons });
        continue;
      }
      candidates.push(prepared.row!);
      owned.add(our.key.map((column) => String(prepared.row![column])).join('\u0000'));
    }
    const existing = new Map<string, Row>();
    if (targetHas) {
      for (const row of await rowsMatching(ctx.target!.kysely as AnyDb, our.name, our.key, candidates)) {
        existing.set(keyText(our.key, row), row);
      }
    }
    const inserts: Row[] = [];
    const updates: Row[] = [];
    for (const row of candidates) {
      const key = keyText(our.key, row);
      const theirs = existing.get(key);
      if (!theirs) {
        inserts.push(row);
        continue;
      }
      const changed = differences(our, row, theirs);
      if (!changed.length) {
        report.unchanged++;
        continue;
      }
      report.changed++;
      updates.push(row);
      if (report.changed <= CONFLICTS_LISTED) {
        const reasons = changed
          .slice(0, 5)
          .map((column) => `${column} is ${shown(theirs[column])} in the target, ${shown(row[column])} in the source`);
        ctx.conflicts.push({ table: our.name, key, reasons });
      }
    }
    // Clashing rows are taken out of `inserts`.
    const clashes = targetHas ? await uniqueClashes(ctx, our, inserts) : new Set<Row>();
    report.added += inserts.length;
    if (!ctx.write) continue;
    if (clashes.size || (updates.length && !ctx.updateChanged)) {
      throw new CopyConflict(`the target changed while copying ${our.name}: run the copy again to see what differs`);
    }
    await writePage(ctx.target!, our, inserts, updates);
  }
  if (ctx.write && report.added && ctx.targetDialect === 'postgres' && our.key.join() === 'id') {
    // Rows inserted with their ids leave the serial sequence behind; the server's next insert would collide.
    await sql`select setval(pg_get_serial_sequence(${our.name}, 'id'), (select max(id) from ${sql.table(our.name)}))`.execute(
      ctx.target!.kysely,
    );
  }
  return report;
}

/** Why a well-formed row still cannot be carried: its owner is not carried, or a unique value repeats. */
function checkRow(
  ctx: PassContext,
  carried: CarriedTable,
  our: OurTable,
  row: Row,
  key: string,
  seen: Array<Map<string, string>>,
): string[] {
  const reasons: string[] = [];
  for (const reference of carried.references ?? []) {
    const value = String(row[reference.column]);
    if (!ctx.owners.get(reference.table)?.has(value)) {
      reasons.push(`${reference.column} ${value}: no such row in ${reference.table} is carried`);
    }
  }
  our.uniques.forEach((columns, index) => {
    const value = uniqueValue(row, columns, ctx.targetDialect);
    if (value === null) return;
    const first = seen[index]!.get(value);
    if (first !== undefined && first !== key) {
      reasons.push(
        `${columns.join(', ')} ${shown(columns.map((c) => row[c]).join(', '))} repeats ${our.name} ${first}`,
      );
    } else {
      seen[index]!.set(value, key);
    }
  });
  return reasons;
}

/** New rows whose unique value the target already holds under another key: listed as conflicts, not written. */
async function uniqueClashes(ctx: PassContext, our: OurTable, inserts: Row[]): Promise<Set<Row>> {
  const clashing = new Set<Row>();
  for (const columns of our.uniques) {
    const byValue = new Map<string, Row>();
    for (const row of inserts) {
      const value = uniqueValue(row, columns, ctx.targetDialect);
      if (value !== null) byValue.set(value, row);
    }
    for (const held of await rowsMatching(ctx.target!.kysely as AnyDb, our.name, columns, inserts)) {
      const row = byValue.get(uniqueValue(held, columns, ctx.targetDialect) ?? '');
      if (!row || clashing.has(row)) continue;
      clashing.add(row);
      ctx.clashes++;
      const value = shown(columns.map((column) => held[column]).join(', '));
      ctx.conflicts.push({
        table: our.name,
        key: keyText(our.key, row),
        reasons: [`${columns.join(', ')} ${value} belongs to ${keyText(our.key, held)} in the target`],
      });
    }
  }
  for (const row of clashing) inserts.splice(inserts.indexOf(row), 1);
  return clashing;
}

async function writePage(target: Db, our: OurTable, inserts: Row[], updates: Row[]): Promise<void> {
  if (!inserts.length && !updates.length) return;
  const perInsert = Math.max(1, Math.floor(PARAMETERS_PER_INSERT / our.columns.length));
  await (target.kysely as AnyDb).transaction().execute(async (trx) => {
    for (let start = 0; start < inserts.length; start += perInsert) {
      await trx
        .insertInto(our.name)
        .values(inserts.slice(start, start + perInsert))
        .execute();
    }
    for (const row of updates) {
      const values = Object.fromEntries(Object.entries(row).filter(([column]) => !our.key.includes(column)));
      let query = trx.updateTable(our.name).set(values);
      for (const column of our.key) query = query.where(column, '=', row[column]);
      await query.execute();
    }
  });
}
