import {
  ColumnNode,
  ColumnUpdateNode,
  type KyselyPlugin,
  OperationNodeTransformer,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  RawNode,
  type RootOperationNode,
  TableNode,
  type UnknownRow,
  type UpdateQueryNode,
  ValueNode,
} from 'kysely';
import type { Dialect } from '../connection.js';

/**
 * How rows of a database written by the family's server are read and written without changing their shape:
 * - gorm's booleans come back from PostgreSQL as true/false; our code (and the other dialects) use 1/0;
 * - gorm's soft-delete `deleted_at` is a datetime: read as unix seconds, and a soft delete writes a time the
 *   family's server can read back after a roll-back;
 * - a column the family spells differently (`users.aff_history`) is addressed by the family's name.
 */
export interface FamilyReadings {
  dialect: Dialect;
  /** Our column name → the family's. */
  aliases: Map<string, string>;
  /** Tables whose deleted_at is a datetime. */
  dateTimeDeletedAt: Set<string>;
}

export function familyReadingsPlugin(readings: FamilyReadings): KyselyPlugin {
  const transformer = new FamilyNames(readings);
  const ourName = new Map([...readings.aliases].map(([ours, theirs]) => [theirs, ours]));
  return {
    transformQuery: (args: PluginTransformQueryArgs): RootOperationNode => transformer.transformNode(args.node),
    transformResult: async (args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> => {
      const { result } = args;
      if (!result.rows?.length) return result;
      return { ...result, rows: result.rows.map((row) => readRow(row, ourName)) };
    },
  };
}

function readRow(row: UnknownRow, ourName: Map<string, string>): UnknownRow {
  const out: UnknownRow = {};
  for (const [key, value] of Object.entries(row)) {
    let read = value;
    if (typeof value === 'boolean') read = value ? 1 : 0;
    else if (key === 'deleted_at' && value !== null && typeof value !== 'number') read = unixSeconds(value);
    out[ourName.get(key) ?? key] = read;
  }
  return out;
}

/** A datetime as the drivers return it (Date from pg and mysql2, text from SQLite) → unix seconds. */
export function unixSeconds(value: unknown): number | null {
  if (value instanceof Date) return Math.floor(value.getTime() / 1000);
  if (typeof value === 'string') {
    // Go writes up to nine fractional digits and a space before the time; Date.parse wants ISO with three.
    const iso = value
      .trim()
      .replace(' ', 'T')
      .replace(/(\.\d{3})\d+/, '$1');
    const ms = Date.parse(iso);
    return Number.isNaN(ms) ? null : Math.floor(ms / 1000);
  }
  return typeof value === 'bigint' ? Number(value) : null;
}

/** Unix seconds → the text each dialect's datetime column takes (UTC, as the family's drivers write it). */
export function dateTimeText(seconds: number, dialect: Dialect): string {
  const iso = new Date(seconds * 1000).toISOString();
  if (dialect === 'postgres') return iso;
  if (dialect === 'mysql') return iso.replace('T', ' ').replace('Z', '');
  return iso.replace('T', ' ').replace('Z', '+00:00');
}

class FamilyNames extends OperationNodeTransformer {
  private readonly aliasPattern: RegExp | null;

  constructor(private readonly readings: FamilyReadings) {
    super();
    const names = [...readings.aliases.keys()];
    this.aliasPattern = names.length ? new RegExp(`\\b(${names.join('|')})\\b`, 'g') : null;
  }

  protected override transformColumn(node: ColumnNode): ColumnNode {
    const alias = this.readings.aliases.get(node.column.name);
    return alias ? ColumnNode.create(alias) : node;
  }

  /** Hand-written SQL (`aff_history_quota + ?`) names columns in its text. */
  protected override transformRaw(node: RawNode): RawNode {
    const raw = super.transformRaw(node);
    const pattern = this.aliasPattern;
    if (!pattern) return raw;
    const fragments = raw.sqlFragments.map((text) =>
      text.replace(pattern, (name) => this.readings.aliases.get(name) ?? name),
    );
    return RawNode.create(fragments, raw.parameters);
  }

  protected override transformUpdateQuery(node: UpdateQueryNode): UpdateQueryNode {
    const updated = super.transformUpdateQuery(node);
    const table = node.table && TableNode.is(node.table) ? node.table.table.identifier.name : '';
    if (!this.readings.dateTimeDeletedAt.has(table) || !updated.updates) return updated;
    const updates = updated.updates.map((update) => {
      const column = ColumnNode.is(update.column) ? update.column.column.name : '';
      if (column !== 'deleted_at' || !ValueNode.is(update.value) || typeof update.value.value !== 'number') {
        return update;
      }
      const value = ValueNode.create(dateTimeText(update.value.value, this.readings.dialect));
      return ColumnUpdateNode.create(update.column, value);
    });
    return Object.freeze({ ...updated, updates });
  }
}
