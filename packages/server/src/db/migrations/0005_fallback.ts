import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.js';

// A token's fallback models (comma list, tried in order when its request's model fails; relay/admission/fallback.ts).
// Null or '' = none of its own: the group's list (option GroupFallbackModels) applies. Text, like model_limits:
// MySQL gives text columns no default, and the list is read from the cached row, never queried.
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('tokens').addColumn('fallback_models', 'text').execute();
}
