import type { Db } from '../connection.js';

export function createJobLeasesRepo(db: Db) {
  const q = db.kysely;
  return {
    /**
     * Claims this interval's run of `name` for `holder`: true when the previous run was claimed at least `minGapMs`
     * ago (or never), false when another node (or this one) already claimed it. One conditional UPDATE, so two
     * nodes asking at once cannot both win.
     */
    async claim(name: string, holder: string, now: number, minGapMs: number): Promise<boolean> {
      const insert = q.insertInto('job_leases').values({ name, holder: '', run_at: 0 });
      if (db.dialect === 'mysql') await insert.ignore().execute();
      else await insert.onConflict((oc) => oc.column('name').doNothing()).execute();
      const result = await q
        .updateTable('job_leases')
        .set({ holder, run_at: now })
        .where('name', '=', name)
        .where('run_at', '<=', now - minGapMs)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async get(name: string): Promise<{ holder: string; run_at: number } | undefined> {
      const row = await q
        .selectFrom('job_leases')
        .select(['holder', 'run_at'])
        .where('name', '=', name)
        .executeTakeFirst();
      return row ? { holder: row.holder, run_at: Number(row.run_at) } : undefined;
    },
  };
}

export type JobLeasesRepo = ReturnType<typeof createJobLeasesRepo>;
