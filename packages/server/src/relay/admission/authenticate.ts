import { BlockList, isIPv4, isIPv6 } from 'node:net';
import { isAdmin, type Language, splitAllowIps, TokenStatus, UserStatus } from '@gateway/shared';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import type { TokenRow } from '../../db/schema.js';
import { nowSeconds } from '../../db/sql-helpers.js';
import { clientIp } from '../../http/request-ip.js';
import { canUseGroup } from '../../services/accounts/groups.js';
import { RelayError } from '../errors.js';
import type { RelayCaller } from './caller.js';

/** The key from `Authorization: Bearer`, or `x-api-key` (Claude clients), or `x-goog-api-key` / `?key=` (Gemini). */
export function extractKey(request: FastifyRequest): string {
  const authorization = request.headers.authorization;
  if (authorization) return authorization.replace(/^Bearer\s+/i, '').trim();
  const apiKey = request.headers['x-api-key'] ?? request.headers['x-goog-api-key'] ?? request.headers['mj-api-secret'];
  if (typeof apiKey === 'string') return apiKey.trim();
  const query = (request.query ?? {}) as Record<string, unknown>;
  return typeof query.key === 'string' ? query.key.trim() : '';
}

const allowListCache = new WeakMap<TokenRow, BlockList | null>();

/** The token's allow list as a BlockList (IPs and CIDRs), built once per cached token row. */
function allowList(token: TokenRow): BlockList | null {
  if (allowListCache.has(token)) return allowListCache.get(token)!;
  const entries = splitAllowIps(token.allow_ips);
  let list: BlockList | null = null;
  if (entries.length > 0) {
    list = new BlockList();
    for (const entry of entries) {
      const [address = '', prefix] = entry.split('/');
      const family = isIPv4(address) ? 'ipv4' : isIPv6(address) ? 'ipv6' : null;
      if (!family) continue;
      if (prefix === undefined) list.addAddress(address, family);
      else list.addSubnet(address, Number(prefix), family);
    }
  }
  allowListCache.set(token, list);
  return list;
}

function ipAllowed(token: TokenRow, ip: string): boolean {
  const list = allowList(token);
  if (!list) return true;
  const family = isIPv4(ip) ? 'ipv4' : 'ipv6';
  return list.check(ip, family);
}

/**
 * Checks an API key the way the family does, each refusal with its own message: key known, token enabled, not
 * expired, quota left (or unlimited), IP allowed, user enabled, group usable, channel pin only for admins.
 */
export async function authenticateRelay(
  ctx: AppContext,
  request: FastifyRequest,
  lang: Language,
): Promise<RelayCaller> {
  const raw = extractKey(request).replace(/^sk-/, '');
  if (!raw) throw RelayError.of(401, lang, 'relay_token_missing', undefined, 'invalid_api_key');
  const [key = '', pin] = raw.split('-');
  const token = await ctx.authCache.token(key);
  if (!token) throw RelayError.of(401, lang, 'relay_token_invalid', undefined, 'invalid_api_key');
  if (token.status !== TokenStatus.Enabled) throw RelayError.of(401, lang, 'relay_token_disabled');
  if (token.expired_time !== -1 && token.expired_time < nowSeconds())
    throw RelayError.of(401, lang, 'relay_token_expired');
  await ctx.ledger.prepare(token.user_id, token.id);
  if (!token.unlimited_quota && ctx.ledger.exhausted(token.id)) {
    throw RelayError.of(401, lang, 'relay_token_exhausted');
  }
  const ip = clientIp(request, ctx.config.trustedProxies);
  if (!ipAllowed(token, ip)) throw RelayError.of(403, lang, 'relay_ip_not_allowed');
  const user = await ctx.authCache.user(token.user_id);
  if (!user || user.status !== UserStatus.Enabled || user.deleted_at !== null) {
    throw RelayError.of(403, lang, 'user_banned', undefined, 'user_banned');
  }
  const group = token.group || user.group;
  if (token.group && !canUseGroup(ctx.options, user.group, token.group)) {
    throw RelayError.of(403, lang, 'relay_group_forbidden', { group: token.group });
  }
  const ratios = ctx.options.json<Record<string, number>>('GroupRatio') ?? {};
  if (!Object.hasOwn(ratios, group)) throw RelayError.of(403, lang, 'relay_group_deprecated', { group });
  let pinnedChannelId: number | null = null;
  if (pin !== undefined && pin !== '') {
    if (!isAdmin(user.role)) throw RelayError.of(403, lang, 'relay_channel_pin_forbidden');
    pinnedChannelId = Number(pin);
  }
  const limits = token.model_limits_enabled
    ? new Set(
        (token.model_limits ?? '')
          .split(',')
          .map((model) => model.trim())
          .filter(Boolean),
      )
    : null;
  return { token, user, group, pinnedChannelId, modelLimits: limits, ip };
}

/**
 * The playground (`/pg/chat/completions`) is called by the console with the session cookie: it bills the signed-in
 * user directly through a stand-in token with no quota of its own, and uses the group chosen in the body, which
 * must be one the user may use. System access tokens are refused (family rule): the playground is for people.
 */
export async function authenticatePlayground(
  ctx: AppContext,
  request: FastifyRequest,
  lang: Language,
  requestedGroup: string,
): Promise<RelayCaller> {
  const user = request.user;
  if (!user || request.viaAccessToken) throw RelayError.of(401, lang, 'not_logged_in', undefined, 'unauthorized');
  const group = requestedGroup || user.group;
  if (!canUseGroup(ctx.options, user.group, group)) throw RelayError.of(403, lang, 'relay_group_forbidden', { group });
  const ratios = ctx.options.json<Record<string, number>>('GroupRatio') ?? {};
  if (!Object.hasOwn(ratios, group)) throw RelayError.of(403, lang, 'relay_group_deprecated', { group });
  await ctx.ledger.prepare(user.id, null);
  const token: TokenRow = {
    id: 0,
    user_id: user.id,
    key: '',
    status: TokenStatus.Enabled,
    name: 'playground',
    created_time: 0,
    accessed_time: 0,
    expired_time: -1,
    remain_quota: 0,
    unlimited_quota: 1,
    model_limits_enabled: 0,
    model_limits: null,
    allow_ips: null,
    used_quota: 0,
    group,
    deleted_at: null,
    // No limits of its own: the user's limits (and the group's defaults) still apply.
    rpm_limit: null,
    tpm_limit: null,
    concurrency_limit: null,
    budget_period: '',
    budget_quota: 0,
    budget_used: 0,
    budget_period_start: 0,
    fallback_models: null,
  };
  return {
    token,
    user,
    group,
    pinnedChannelId: null,
    modelLimits: null,
    ip: clientIp(request, ctx.config.trustedProxies),
  };
}
