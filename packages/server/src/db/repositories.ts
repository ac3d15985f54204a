import type { Db } from './connection.js';
import { createAbilitiesRepo } from './repos/abilities.js';
import { createAuditLogsRepo } from './repos/audit-logs.js';
import { createCatalogueRepo } from './repos/catalogue.js';
import { createChannelsRepo } from './repos/channels.js';
import { createCheckinsRepo } from './repos/checkins.js';
import { createCreditLogsRepo } from './repos/credit-logs.js';
import { createCustomOAuthRepo } from './repos/custom-oauth.js';
import { createJobLeasesRepo } from './repos/job-leases.js';
import { createLogsRepo } from './repos/logs.js';
import { createMidjourneysRepo } from './repos/midjourneys.js';
import { createOptionsRepo } from './repos/options.js';
import { createPasskeysRepo } from './repos/passkeys.js';
import { createQuotaDataRepo } from './repos/quota-data.js';
import { createRedemptionsRepo } from './repos/redemptions.js';
import { createRequestBodiesRepo } from './repos/request-bodies.js';
import { createSessionsRepo } from './repos/sessions.js';
import { createSetupsRepo } from './repos/setups.js';
import { createSubscriptionsRepo } from './repos/subscriptions.js';
import { createTasksRepo } from './repos/tasks.js';
import { createTokensRepo } from './repos/tokens.js';
import { createTopUpsRepo } from './repos/top-ups.js';
import { createTwoFasRepo } from './repos/two-fas.js';
import { createUsersRepo } from './repos/users.js';

/**
 * One repository per table, created once per database handle. `logDb` is the separate log database (LOG_SQL_DSN):
 * the usage logs are read there, and rows written outside the books' transactions go straight there. Rows written
 * with balance changes still go to the main database's `logs` first (db/log-transfer.ts moves them).
 */
export function createRepositories(db: Db, logDb: Db = db) {
  return {
    users: createUsersRepo(db),
    tokens: createTokensRepo(db),
    channels: createChannelsRepo(db),
    abilities: createAbilitiesRepo(db),
    redemptions: createRedemptionsRepo(db),
    logs: createLogsRepo(logDb),
    creditLogs: createCreditLogsRepo(),
    options: createOptionsRepo(db),
    midjourneys: createMidjourneysRepo(db),
    tasks: createTasksRepo(db),
    topUps: createTopUpsRepo(db),
    quotaData: createQuotaDataRepo(db),
    sessions: createSessionsRepo(db),
    setups: createSetupsRepo(db),
    checkins: createCheckinsRepo(db),
    subscriptions: createSubscriptionsRepo(db),
    passkeys: createPasskeysRepo(db),
    twoFas: createTwoFasRepo(db),
    customOAuth: createCustomOAuthRepo(db),
    catalogue: createCatalogueRepo(db),
    auditLogs: createAuditLogsRepo(db),
    jobLeases: createJobLeasesRepo(db),
    requestBodies: createRequestBodiesRepo(db),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;
