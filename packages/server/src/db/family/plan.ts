import {
  AddColumnNode,
  AlterTableNode,
  type ColumnDefinitionNode,
  ColumnNode,
  type CreateIndexNode,
  type CreateTableNode,
  DataTypeNode,
  type Kysely,
  type RootOperationNode,
  sql,
  TableNode,
} from 'kysely';
import { columnAliases, type FamilyName, familyName } from './family.js';
import { type MigrationUp, recordSchema } from './recorded-schema.js';
import { type ColumnShape, type DatabaseShape, isDateTime, isNumeric } from './shape.js';

/** One additive change, in the order it runs. */
export interface AdoptionStep {
  describe: string;
  node: RootOperationNode;
}

export interface AdoptionPlan {
  family: FamilyName;
  steps: AdoptionStep[];
}

/** A family database this server will not touch; the message names what was found. */
export class FamilyDatabaseRefused extends Error {}

// biome-ignore lint/suspicious/noExplicitAny: the family's tables are not our typed schema.
type AnyDb = Kysely<any>;

const tableOf = (node: CreateTableNode | CreateIndexNode) => node.table?.table.identifier.name ?? '';

/**
 * Compares the family's tables with what migration 0001 would create and lists the additive changes: missing
 * tables (with their indexes), missing columns (nullable or with a default), and the unique index the usage export
 * upserts on. Refuses — before anything is changed — when a column we need is missing and cannot be added (too
 * old), when a column holds another kind of value than ours, or when the family has a NOT NULL column without a
 * default that our inserts would not fill (too new).
 */
export async function planAdoption(
  db: AnyDb,
  shape: DatabaseShape,
  initial: MigrationUp,
  later: MigrationUp[],
): Promise<AdoptionPlan> {
  const family = familyName(shape);
  const aliases = columnAliases(shape);
  const problems: string[] = [];
  for (const up of later) problems.push(...(await laterClashes(up, shape)));
  const creates: AdoptionStep[] = [];
  const additions: AdoptionStep[] = [];
  const uniques: AdoptionStep[] = [];
  const created = new Set<string>();
  for (const node of await recordSchema(initial)) {
    if (node.kind !== 'CreateTableNode' && node.kind !== 'CreateIndexNode') continue;
    const table = tableOf(node);
    const existing = shape.tables.get(table);
    if (node.kind === 'CreateTableNode') {
      if (!existing) {
        created.add(table);
        creates.push({ describe: `create table ${table}`, node });
        continue;
      }
      for (const column of node.columns) {
        const step = columnStep(table, column, existing, aliases, problems);
        if (step) additions.push(step);
      }
      problems.push(...unfilledColumns(table, node, existing, aliases));
    } else if (created.has(table)) {
      creates.push({ describe: `create index ${node.name.name}`, node });
    } else if (node.unique && !shape.indexes.has(node.name.name)) {
      // Only the unique indexes our upserts need; the family's own indexes serve its big tables.
      const duplicates = await duplicateCount(db, table, indexColumns(node));
      if (duplicates > 0) {
        problems.push(`${table} has ${duplicates} rows sharing (${indexColumns(node).join(', ')}); merge them first`);
      }
      uniques.push({ describe: `create unique index ${node.name.name}`, node });
    }
  }
  if (problems.length) {
    throw new FamilyDatabaseRefused(
      `the database holds ${family} tables this server cannot adopt without changing them; nothing was changed: ${problems.join('; ')}`,
    );
  }
  return { family, steps: [...creates, ...additions, ...uniques, ...backfills(shape, additions)] };
}

/** A later migration that would create a table or add a column the family database already has would fail half-way. */
async function laterClashes(up: MigrationUp, shape: DatabaseShape): Promise<string[]> {
  const clashes: string[] = [];
  for (const node of await recordSchema(up)) {
    const existing = node.kind === 'CreateTableNode' ? shape.tables.get(tableOf(node)) : undefined;
    if (node.kind === 'CreateTableNode' && existing) {
      // A table we share with the family (created "if not exists", like `checkins`) is taken as it is when every
      // column of ours is there with a compatible kind and none of theirs would refuse our inserts.
      const problems = node.ifNotExists ? sharedTableProblems(tableOf(node), node, existing) : null;
      if (problems === null) clashes.push(`table ${tableOf(node)} already exists with the family's own meaning`);
      else clashes.push(...problems);
    }
    if (node.kind === 'AlterTableNode') {
      const table = node.table.table.identifier.name;
      for (const alteration of node.columnAlterations ?? []) {
        if (alteration.kind !== 'AddColumnNode') continue;
        const column = alteration.column.column.column.name;
        if (shape.tables.get(table)?.has(column)) clashes.push(`column ${table}.${column} already exists`);
      }
    }
  }
  return clashes;
}

function sharedTableProblems(table: string, node: CreateTableNode, existing: Map<string, ColumnShape>): string[] {
  const problems: string[] = [];
  for (const column of node.columns) {
    const name = column.column.column.name;
    const theirs = existing.get(name);
    if (!theirs) problems.push(`${table}.${name} is missing (another shape than the family's ${table})`);
    // gorm's soft-delete time is a datetime; readings.ts translates it (as for the tables of 0001).
    else if (name === 'deleted_at' && isDateTime(theirs)) continue;
    else if (/int|serial|double|real|numeric/.test(dataTypeOf(column)) && !isNumeric(theirs)) {
      problems.push(`${table}.${name} is ${theirs.dataType}, not a number`);
    }
  }
  return [...problems, ...unfilledColumns(table, node, existing, new Map())];
}

function dataTypeOf(column: ColumnDefinitionNode): string {
  return DataTypeNode.is(column.dataType) ? String(column.dataType.dataType) : '';
}

function columnStep(
  table: string,
  column: ColumnDefinitionNode,
  existing: Map<string, ColumnShape>,
  aliases: Map<string, string>,
  problems: string[],
): AdoptionStep | null {
  const name = column.column.column.name;
  const theirs = existing.get(aliases.get(name) ?? name);
  const ours = dataTypeOf(column);
  if (theirs) {
    const wantNumber = /int|serial|double|real|numeric/.test(ours);
    const fits = name === 'deleted_at' ? isNumeric(theirs) || isDateTime(theirs) : !wantNumber || isNumeric(theirs);
    if (!fits) problems.push(`${table}.${name} is ${theirs.dataType}, not a number`);
    return null;
  }
  if (column.primaryKey || (column.notNull && !column.defaultTo)) {
    problems.push(`${table}.${name} is missing (an older release than this server understands)`);
    return null;
  }
  // Constraints of a new table do not apply to a column added to rows that already exist.
  const added: ColumnDefinitionNode = Object.freeze({ ...column, unique: false, primaryKey: false });
  const node = AlterTableNode.cloneWithColumnAlteration(
    AlterTableNode.create(TableNode.create(table)),
    AddColumnNode.create(added),
  );
  return { describe: `add column ${table}.${name}`, node };
}

/** NOT NULL columns without a default that our schema does not know: our INSERTs would fail on them. */
function unfilledColumns(
  table: string,
  node: CreateTableNode,
  existing: Map<string, ColumnShape>,
  aliases: Map<string, string>,
): string[] {
  const ours = new Set(
    node.columns.map((column) => aliases.get(column.column.column.name) ?? column.column.column.name),
  );
  const problems: string[] = [];
  for (const [name, column] of existing) {
    if (ours.has(name) || !column.notNull || column.hasDefault || column.autoIncrement) continue;
    problems.push(`${table}.${name} is NOT NULL without a default (a newer release than this server understands)`);
  }
  return problems;
}

function indexColumns(node: CreateIndexNode): string[] {
  return (node.columns ?? []).map((column) => (ColumnNode.is(column) ? column.column.name : ''));
}

async function duplicateCount(db: AnyDb, table: string, columns: string[]): Promise<number> {
  const refs = sql.join(columns.map((column) => sql.ref(column)));
  const { rows } = await sql<{ n: number | string }>`select count(*) as n from (select ${refs} from ${sql.table(
    table,
  )} group by ${refs} having count(*) > 1) as duplicated`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/**
 * one-api keeps a token's allowed models in `models` (empty = all) and its allowed networks in `subnet` (comma
 * list): copied once into the columns we added, which are ours alone from then on. The family's columns stay.
 */
function backfills(shape: DatabaseShape, additions: AdoptionStep[]): AdoptionStep[] {
  const added = new Set(additions.map((step) => step.describe.replace('add column ', '')));
  const tokens = shape.tables.get('tokens');
  const steps: AdoptionStep[] = [];
  if (tokens?.has('models') && added.has('tokens.model_limits')) {
    steps.push({
      describe: 'copy one-api tokens.models into model_limits',
      node: sql`update tokens set model_limits = coalesce(models, ''),
        model_limits_enabled = case when coalesce(models, '') <> '' then 1 else 0 end`.toOperationNode(),
    });
  }
  if (tokens?.has('subnet') && added.has('tokens.allow_ips')) {
    steps.push({
      describe: 'copy one-api tokens.subnet into allow_ips',
      node: sql`update tokens set allow_ips = replace(coalesce(subnet, ''), ',', ${'\n'})`.toOperationNode(),
    });
  }
  return steps;
}
