import { type Kysely, sql } from 'kysely';
import type { Database } from './schema.js';

declare const opaque: unique symbol;

/**
 * A transaction in progress, as code outside db/ sees it: a token to hand to repository methods, with nothing to
 * query through, so SQL stays in db/. The begin itself is the dialect's (SQLite's `begin immediate`,
 * sqlite-dialect.ts); row locks, where a repository needs them, are taken by that repository.
 */
export interface Trx {
  readonly [opaque]: 'Trx';
}

/**
 * The Kysely transaction behind a Trx, for repositories only; with `outside`, a method that may run in or out of a
 * transaction uses the pool when given none.
 */
export function sqlOf(trx: Trx): Kysely<Database>;
export function sqlOf(trx: Trx | undefined, outside: Kysely<Database>): Kysely<Database>;
export function sqlOf(trx: Trx | undefined, outside?: Kysely<Database>): Kysely<Database> {
  return (trx as unknown as Kysely<Database> | undefined) ?? (outside as Kysely<Database>);
}

/**
 * Runs `work` in one transaction over `kysely`: committed when it resolves, rolled back when it throws (the error
 * propagates), so several repository calls succeed or fail together.
 */
export function runInTransaction<T>(kysely: Kysely<Database>, work: (trx: Trx) => Promise<T>): Promise<T> {
  return kysely.transaction().execute((trx) => work(trx as unknown as Trx));
}

/** The cheapest round trip to the server: readiness asks it to tell a reachable database from a gone one. */
export async function ping(kysely: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(kysely);
}
