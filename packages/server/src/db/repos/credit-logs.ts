import type { NewLog } from '../schema.js';
import { sqlOf, type Trx } from '../unit-of-work.js';

/**
 * The usage-log row that documents a credit, written in the credit's own transaction so the balance never changes
 * without its record: into the main database's `logs`, from where db/log-transfer.ts moves it when the logs live
 * in a separate database. Not the batched writer of repos/logs.ts: on SQLite that one waits for open transactions
 * to end, and would wait on this one forever.
 */
export function createCreditLogsRepo() {
  return {
    async insertIn(trx: Trx, row: NewLog): Promise<void> {
      await sqlOf(trx).insertInto('logs').values(row).execute();
    },
  };
}

export type CreditLogsRepo = ReturnType<typeof createCreditLogsRepo>;
