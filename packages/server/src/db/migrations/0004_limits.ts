import type { ColumnDataType, Kysely } from 'kysely';
import type { Dialect } from '../connection.js';

// Request limits on tokens and users (null: none of their own, a group default may apply; 0: unlimited), and a
// token's calendar-period budget with the amount spent in the current period (written in batches by the relay).
// Columns are added one statement at a time: SQLite's ALTER TABLE takes one column per statement.

const LIMIT_COLUMNS = ['rpm_limit', 'tpm_limit', 'concurrency_limit'] as const;

const BUDGET_COLUMNS: Array<[string, ColumnDataType, string | number]> = [
  ['budget_period', 'varchar(16)', ''],
  ['budget_quota', 'bigint', 0],
  ['budget_used', 'bigint', 0],
  // Unix milliseconds of the period `budget_used` belongs to; another period's value counts as 0.
  ['budget_period_start', 'bigint', 0],
];

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  for (const table of ['tokens', 'users']) {
    for (const column of LIMIT_COLUMNS) {
      await db.schema.alterTable(table).addColumn(column, 'integer').execute();
    }
  }
  for (const [column, type, fallback] of BUDGET_COLUMNS) {
    await db.schema
      .alterTable('tokens')
      .addColumn(column, type, (c) => c.notNull().defaultTo(fallback))
      .execute();
  }
}
