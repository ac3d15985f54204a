import type { Dialect } from '../../connection.js';
import type { ColumnShape } from '../shape.js';
import type { OurColumn, OurTable } from './our-schema.js';
import type { Row } from './tables.js';

/** MySQL's TEXT holds 65,535 bytes; the family's MySQL columns are LONGTEXT. */
const MYSQL_TEXT_BYTES = 65_535;

export type Prepared = { row: Row; reasons?: undefined } | { row?: undefined; reasons: string[] };

/**
 * A family row as our table takes it, or why it cannot be carried: a value our column requires is empty, a number
 * column holds something else, or a value is longer than the column holds on a target that enforces it.
 * Empty values take our column's default; columns the family lacks take the default too.
 */
export function prepareRow(
  table: OurTable,
  source: Row,
  sourceColumns: Map<string, ColumnShape>,
  target: Dialect,
): Prepared {
  const row: Row = {};
  const reasons: string[] = [];
  const unique = new Set(table.uniques.flat());
  for (const column of table.columns) {
    const read = readValue(column, source[column.name], sourceColumns.get(column.name));
    if (typeof read === 'object' && read !== null) {
      reasons.push(read.reason);
      continue;
    }
    let value = read;
    // Several users without an access token must not collide on our unique index: none is null, not ''.
    if (value === '' && unique.has(column.name) && !column.notNull) value = null;
    if (value === null && column.notNull) {
      if (column.fallback === null) {
        reasons.push(`${column.name} is empty and ${table.name}.${column.name} requires a value`);
        continue;
      }
      value = column.fallback;
    }
    const tooLong = typeof value === 'string' ? lengthProblem(column, value, target) : null;
    if (tooLong) reasons.push(tooLong);
    row[column.name] = value;
  }
  return reasons.length ? { reasons } : { row };
}

function readValue(
  column: OurColumn,
  value: unknown,
  shape: ColumnShape | undefined,
): string | number | null | { reason: string } {
  if (value === undefined || value === null) return null;
  if (column.numeric) {
    if (typeof value === 'number') return value;
    if (typeof value === 'boolean') return value ? 1 : 0;
    const text = String(value).trim();
    if (text === '') return null;
    const number = Number(text);
    return Number.isFinite(number) ? number : { reason: `${column.name} is not a number: ${quote(text)}` };
  }
  const text = value instanceof Date ? value.toISOString() : String(value);
  // PostgreSQL pads char(n) with spaces; the family's keys and codes are char columns there.
  return shape && /^(bpchar|char)/.test(shape.dataType) ? text.trimEnd() : text;
}

function lengthProblem(column: OurColumn, value: string, target: Dialect): string | null {
  // SQLite stores any length; PostgreSQL and MySQL refuse what does not fit.
  if (target === 'sqlite') return null;
  if (column.maxChars !== null) {
    const chars = [...value].length;
    if (chars > column.maxChars) return `${column.name} has ${chars} characters; ours holds ${column.maxChars}`;
  }
  if (target === 'mysql' && column.type === 'text') {
    const bytes = Buffer.byteLength(value, 'utf8');
    if (bytes > MYSQL_TEXT_BYTES) return `${column.name} has ${bytes} bytes; MySQL's TEXT holds ${MYSQL_TEXT_BYTES}`;
  }
  return null;
}

function quote(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}

/** Our columns whose values differ between the row we would write and the row the target holds. */
export function differences(table: OurTable, ours: Row, theirs: Row): string[] {
  const changed: string[] = [];
  for (const column of table.columns) {
    if (!(column.name in theirs)) continue;
    const a = ours[column.name];
    const b = theirs[column.name];
    const same =
      a === null || b === null || a === undefined || b === undefined
        ? (a ?? null) === (b ?? null)
        : column.numeric
          ? Number(a) === Number(b)
          : String(a) === String(b);
    if (!same) changed.push(column.name);
  }
  return changed;
}
