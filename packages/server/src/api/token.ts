import { randomInt } from 'node:crypto';
import {
  MAX_TOKENS_PER_USER,
  type TokenInput,
  TokenStatus,
  type TokenView,
  tokenCreateSchema,
  tokenStatusSchema,
  tokenUpdateSchema,
} from '@gateway/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { currentUser, guards } from '../auth/guard.js';
import type { AppContext } from '../context.js';
import type { NewToken, TokenRow } from '../db/schema.js';
import { nowSeconds } from '../db/sql-helpers.js';
import { ApiFailure, messageFor, ok } from '../http/envelope.js';
import { queryString, readListPage } from '../http/paging.js';
import { parseBody } from '../http/validation.js';
import type { RequestLimiter } from '../relay/admission/limits/request-limiter.js';
import { assertBudgetPair, limitColumnsOf, tokenLimitsView } from '../relay/admission/limits/token-limits-view.js';
import { canUseGroup } from '../services/accounts/groups.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Unbiased random text from a CSPRNG (randomInt rejects the modulo bias). */
export function randomText(length: number): string {
  let text = '';
  for (let index = 0; index < length; index++) text += ALPHABET[randomInt(ALPHABET.length)];
  return text;
}

/** The status a person should see: an enabled token past its expiry or out of quota is not usable. */
export function effectiveTokenStatus(token: TokenRow, now = nowSeconds()): number {
  if (token.status !== TokenStatus.Enabled) return token.status;
  if (token.expired_time !== -1 && token.expired_time < now) return TokenStatus.Expired;
  if (!token.unlimited_quota && token.remain_quota <= 0) return TokenStatus.Exhausted;
  return token.status;
}

/** The owner's view of a token (the family's console copies the key from the list, so the owner gets it). */
export function tokenView(token: TokenRow, limits: RequestLimiter) {
  return {
    id: token.id,
    user_id: token.user_id,
    key: token.key,
    status: effectiveTokenStatus(token),
    name: token.name,
    created_time: token.created_time,
    accessed_time: token.accessed_time,
    expired_time: token.expired_time,
    remain_quota: token.remain_quota,
    unlimited_quota: token.unlimited_quota === 1,
    model_limits_enabled: token.model_limits_enabled === 1,
    model_limits: token.model_limits ?? '',
    allow_ips: token.allow_ips ?? '',
    used_quota: token.used_quota,
    group: token.group,
    fallback_models: token.fallback_models ?? '',
    ...tokenLimitsView(token, limits),
  } satisfies TokenView;
}

const idsSchema = z.object({ ids: z.array(z.number().int().positive()).min(1).max(1000) });

export async function tokenRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { user: requireUser } = guards(ctx);
  const tokens = ctx.repos.tokens;

  // The relay caches tokens and balances in memory: a change here must reach it before the next request.
  const forget = async (token: TokenRow) => {
    await ctx.authCache.dropToken(token.key);
    ctx.ledger.markStale('token', token.id);
  };

  const checkGroup = (userGroup: string, group: string) => {
    if (!canUseGroup(ctx.options, userGroup, group)) throw new ApiFailure('token_group_unusable', { group });
  };

  const list = async (query: Record<string, unknown>, userId: number, search: { keyword?: string; key?: string }) => {
    const { pageSize, offset, answer } = readListPage(query, ctx.config.listShape);
    const result = await tokens.listOwned(userId, offset, pageSize, search);
    return ok(
      answer(
        result.items.map((row) => tokenView(row, ctx.limits)),
        result.total,
      ),
    );
  };

  app.get('/api/token/', { preHandler: requireUser }, async (request) =>
    list(request.query as Record<string, unknown>, currentUser(request).id, {}),
  );

  app.get('/api/token/search', { preHandler: requireUser }, async (request) => {
    const query = request.query as Record<string, unknown>;
    const key = queryString(query, 'token').replace(/^sk-/, '');
    return list(query, currentUser(request).id, { keyword: queryString(query, 'keyword'), key });
  });

  app.get('/api/token/:id', { preHandler: requireUser }, async (request) => {
    const id = Number((request.params as { id: string }).id);
    const token = Number.isInteger(id) ? await tokens.findOwned(currentUser(request).id, id) : undefined;
    if (!token) throw new ApiFailure('token_not_found');
    return ok(tokenView(token, ctx.limits));
  });

  app.post('/api/token/', { preHandler: requireUser }, async (request) => {
    const user = currentUser(request);
    const input = parseBody(tokenCreateSchema, request.body);
    checkGroup(user.group, input.group);
    const existing = await tokens.countOwned(user.id);
    if (existing + input.count > MAX_TOKENS_PER_USER)
      throw new ApiFailure('token_limit_reached', { max: MAX_TOKENS_PER_USER });
    const { count, ...fields } = input;
    const columns = tokenColumns(fields);
    assertBudgetPair(columns);
    const rows: NewToken[] = Array.from({ length: count }, (_, index) => ({
      ...columns,
      user_id: user.id,
      key: randomText(48),
      name: index === 0 ? fields.name : `${fields.name}-${randomText(6)}`,
    }));
    await ctx.db.inTransaction((trx) => tokens.insertMany(trx, rows));
    return ok(
      rows.map((row) => ({ name: row.name, key: row.key })),
      messageFor(request, 'created_count', { count }),
    );
  });

  app.put('/api/token/', { preHandler: requireUser }, async (request) => {
    const user = currentUser(request);
    const statusOnly = ['true', '1'].includes(String((request.query as Record<string, unknown>).status_only ?? ''));
    if (statusOnly) {
      const { id, status } = parseBody(tokenStatusSchema, request.body);
      if (status !== TokenStatus.Enabled && status !== TokenStatus.Disabled)
        throw new ApiFailure('token_status_invalid');
      const token = await tokens.findOwned(user.id, id);
      if (!token) throw new ApiFailure('token_not_found');
      if (status === TokenStatus.Enabled) assertEnableable(token);
      await tokens.updateOwned(user.id, id, { status });
      await forget(token);
      return ok(tokenView({ ...token, status }, ctx.limits));
    }
    const input = parseBody(tokenUpdateSchema, request.body);
    if (!input.name) throw new ApiFailure('token_name_required');
    checkGroup(user.group, input.group);
    const token = await tokens.findOwned(user.id, input.id);
    if (!token) throw new ApiFailure('token_not_found');
    const changes = tokenColumns(input);
    // An expired or exhausted token that the edit makes usable again comes back enabled (family behaviour).
    const updated: TokenRow = { ...token, ...changes };
    assertBudgetPair(updated);
    const revived = token.status === TokenStatus.Expired || token.status === TokenStatus.Exhausted;
    const status =
      revived && effectiveTokenStatus({ ...updated, status: TokenStatus.Enabled }) === TokenStatus.Enabled
        ? TokenStatus.Enabled
        : token.status;
    await tokens.updateOwned(user.id, input.id, { ...changes, status });
    await forget(token);
    return ok(tokenView({ ...updated, status }, ctx.limits), messageFor(request, 'updated'));
  });

  app.delete('/api/token/:id', { preHandler: requireUser }, async (request) => {
    const id = Number((request.params as { id: string }).id);
    const owned = Number.isInteger(id) ? await tokens.findManyOwned(currentUser(request).id, [id]) : [];
    const deleted = owned.length ? await tokens.deleteOwned(currentUser(request).id, [id]) : 0;
    if (deleted === 0) throw new ApiFailure('token_not_found');
    for (const token of owned) await forget(token);
    return ok(undefined, messageFor(request, 'deleted_count', { count: deleted }));
  });

  app.post('/api/token/batch', { preHandler: requireUser }, async (request) => {
    const { ids } = parseBody(idsSchema, request.body);
    const owned = await tokens.findManyOwned(currentUser(request).id, ids);
    const deleted = await tokens.deleteOwned(currentUser(request).id, ids);
    for (const token of owned) await forget(token);
    return ok(deleted, messageFor(request, 'deleted_count', { count: deleted }));
  });
}

/** Form fields → columns (booleans are stored as 0/1). */
function tokenColumns(input: TokenInput) {
  return {
    name: input.name,
    remain_quota: input.remain_quota,
    expired_time: input.expired_time,
    unlimited_quota: input.unlimited_quota ? 1 : 0,
    model_limits_enabled: input.model_limits_enabled ? 1 : 0,
    model_limits: input.model_limits,
    allow_ips: input.allow_ips,
    group: input.group,
    // Left out of a body (a family script's edit): the stored list stays.
    ...(input.fallback_models !== undefined ? { fallback_models: input.fallback_models } : {}),
    ...limitColumnsOf(input),
  };
}

function assertEnableable(token: TokenRow): void {
  if (token.expired_time !== -1 && token.expired_time < nowSeconds())
    throw new ApiFailure('token_expired_cannot_enable');
  if (!token.unlimited_quota && token.remain_quota <= 0) throw new ApiFailure('token_exhausted_cannot_enable');
}
