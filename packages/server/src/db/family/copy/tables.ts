/** A source row, by our column names (the readings layer has already renamed the family's spellings). */
export type Row = Record<string, unknown>;

/** A column whose value must name a row carried earlier in the same copy (an owner the row cannot live without). */
export interface Reference {
  column: string;
  table: string;
}

export interface CarriedTable {
  name: string;
  references?: Reference[];
  /** Family columns read into one of ours instead (one-api's token limits); not reported as left behind. */
  consumes?: string[];
  /** Fills our columns from family columns of another name or form, before the row is checked. */
  adapt?: (row: Row, sourceColumns: Set<string>) => Row;
}

/**
 * one-api keeps a token's allowed models in `models` (empty: all) and its networks in `subnet` (a comma list);
 * new-api and we keep `model_limits` (+ `model_limits_enabled`) and `allow_ips` (one per line). The same rule as
 * the in-place adoption's backfill (plan.ts), applied to the row instead of the table.
 */
function oneApiTokenLimits(row: Row, sourceColumns: Set<string>): Row {
  const adapted = { ...row };
  if (!sourceColumns.has('model_limits') && sourceColumns.has('models')) {
    const models = String(row.models ?? '');
    adapted.model_limits = models;
    adapted.model_limits_enabled = models === '' ? 0 : 1;
  }
  if (!sourceColumns.has('allow_ips') && sourceColumns.has('subnet')) {
    adapted.allow_ips = String(row.subnet ?? '').replaceAll(',', '\n');
  }
  return adapted;
}

/**
 * Every table the in-place path serves, in the order they are copied: owners before what they own, the log
 * (by far the largest) last so everything it points at is there when a copy is interrupted in it.
 * Not carried: sessions (sign-ins are the old server's; everyone signs in again), and our own bookkeeping.
 */
export const CARRIED_TABLES: CarriedTable[] = [
  { name: 'users' },
  { name: 'channels' },
  { name: 'abilities', references: [{ column: 'channel_id', table: 'channels' }] },
  {
    name: 'tokens',
    references: [{ column: 'user_id', table: 'users' }],
    consumes: ['models', 'subnet'],
    adapt: oneApiTokenLimits,
  },
  { name: 'options' },
  { name: 'redemptions' },
  { name: 'top_ups' },
  { name: 'quota_data' },
  { name: 'midjourneys' },
  { name: 'tasks' },
  { name: 'setups' },
  { name: 'checkins', references: [{ column: 'user_id', table: 'users' }] },
  { name: 'subscription_plans' },
  { name: 'subscription_orders', references: [{ column: 'user_id', table: 'users' }] },
  { name: 'user_subscriptions', references: [{ column: 'user_id', table: 'users' }] },
  { name: 'logs' },
];
