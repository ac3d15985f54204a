import type { AppContext } from '../context.js';
import { pendingLogMigrations } from '../db/log-migrate.js';
import { pendingMigrations } from '../db/migrate.js';

/** How long one check may take before it counts as failed: a load balancer's probe should not hang with it. */
export const CHECK_TIMEOUT_MS = 1_000;

/** `ok`; `failed` (an error, logged on the server); `timeout`; `pending` (migrations not run yet); `off` (no Redis). */
export type CheckState = 'ok' | 'failed' | 'timeout' | 'pending' | 'off';

export interface Readiness {
  ready: boolean;
  /** Redis does not answer: the node still serves (limits, sessions and balances fall back to it), degraded. */
  degraded: boolean;
  checks: { database: CheckState; migrations: CheckState; redis: CheckState };
}

class CheckTimeout extends Error {}
class MigrationsPending extends Error {}

/** Settles with the work, or rejects with CheckTimeout after `ms`; the timer never outlives the check. */
async function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new CheckTimeout()), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Whether this node can serve: the database answers a trivial query, every migration this code knows has run (a
 * slave node waits for its master), and Redis answers PING when configured. Each check is bounded by
 * CHECK_TIMEOUT_MS and they run side by side. Failure reasons go to the server's log, never to the (anonymous)
 * caller: a driver's message may name hosts and users.
 */
export class ReadinessProbe {
  /** Migrations never un-run: once seen complete, the check is not repeated. */
  private migrated = false;

  constructor(
    private readonly ctx: AppContext,
    private readonly onFailure: (check: string, error: unknown) => void,
  ) {}

  async check(): Promise<Readiness> {
    const { db, redis } = this.ctx;
    const [database, migrations, redisState] = await Promise.all([
      this.run('database', async () => {
        await db.ping();
      }),
      this.migrated
        ? ('ok' as const)
        : this.run('migrations', async () => {
            // The separate log database (LOG_SQL_DSN) counts too: the log views and the mover need its tables.
            const logDb = this.ctx.logDb;
            const pending = [
              ...(await pendingMigrations(db)),
              ...(logDb ? (await pendingLogMigrations(logDb)).map((name) => `log ${name}`) : []),
            ];
            if (pending.length > 0) throw new MigrationsPending(pending.join(', '));
            this.migrated = true;
          }),
      redis
        ? this.run('redis', async () => {
            await redis.client.ping();
          })
        : ('off' as const),
    ]);
    const checks = { database, migrations, redis: redisState };
    // Without the database or its migrations nothing can be served; without Redis the node serves from its own
    // memory (cache/redis-failover.ts), so taking every node out during a Redis outage would be the real outage.
    const ready = database === 'ok' && migrations === 'ok';
    return { ready, degraded: redisState !== 'ok' && redisState !== 'off', checks };
  }

  private async run(name: string, work: () => Promise<void>): Promise<CheckState> {
    try {
      await within(work(), CHECK_TIMEOUT_MS);
      return 'ok';
    } catch (error) {
      this.onFailure(name, error);
      if (error instanceof CheckTimeout) return 'timeout';
      return error instanceof MigrationsPending ? 'pending' : 'failed';
    }
  }
}
