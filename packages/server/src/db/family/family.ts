import { type DatabaseShape, isDateTime } from './shape.js';

/**
 * Which gateway of the family wrote a database, told by columns only one of them has: new-api keeps the affiliate
 * history in `users.aff_history` and token limits in `tokens.model_limits`; one-api has `tokens.subnet` / `models`.
 */
export type FamilyName = 'new-api' | 'one-api' | 'one-api/new-api';

/** The family's core tables: all three present means the database was written by one of its servers (or by us). */
const CORE_TABLES = ['users', 'tokens', 'channels'] as const;

export function hasFamilyTables(shape: DatabaseShape): boolean {
  return CORE_TABLES.every((table) => shape.tables.has(table));
}

export function familyName(shape: DatabaseShape): FamilyName {
  const users = shape.tables.get('users');
  const tokens = shape.tables.get('tokens');
  if (users?.has('aff_history') || tokens?.has('model_limits')) return 'new-api';
  if (tokens?.has('subnet') || tokens?.has('models')) return 'one-api';
  return 'one-api/new-api';
}

/**
 * Our column names that the family spells differently, per table. The column keeps the family's name (its server
 * must still find it after a roll-back); queries and rows are translated on the way (see readings.ts).
 */
const COLUMN_ALIASES: Record<string, Record<string, string>> = {
  users: { aff_history_quota: 'aff_history' },
  // gorm's snake_case of the Go field OpenAIOrganization.
  channels: { openai_organization: 'open_ai_organization' },
};

/** Our name → the family's name, for the aliases this database actually uses. */
export function columnAliases(shape: DatabaseShape): Map<string, string> {
  const aliases = new Map<string, string>();
  for (const [table, names] of Object.entries(COLUMN_ALIASES)) {
    const columns = shape.tables.get(table);
    if (!columns) continue;
    for (const [ours, theirs] of Object.entries(names)) {
      if (!columns.has(ours) && columns.has(theirs)) aliases.set(ours, theirs);
    }
  }
  return aliases;
}

/** Tables whose `deleted_at` is gorm's soft-delete time (a datetime), not our unix seconds. */
export function dateTimeDeletedAt(shape: DatabaseShape): Set<string> {
  const tables = new Set<string>();
  for (const [table, columns] of shape.tables) {
    const deletedAt = columns.get('deleted_at');
    if (deletedAt && isDateTime(deletedAt)) tables.add(table);
  }
  return tables;
}
