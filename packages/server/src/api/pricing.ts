import {
  type ModelHealthResponse,
  orderPricingEntries,
  type PricingEntry,
  type PricingResponse,
  pricingEntry,
  UserStatus,
} from '@gateway/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SESSION_COOKIE, verifySessionCookie } from '../auth/session-cookie.js';
import type { AppContext } from '../context.js';
import type { UserRow } from '../db/schema.js';
import { ok } from '../http/envelope.js';
import { HEALTH_WINDOW_MINUTES } from '../metrics/model-health.js';
import { modelPricing } from '../relay/pricing.js';
import { usableGroups } from '../services/accounts/groups.js';
import { userSetting } from '../services/accounts/user-setting.js';
import { type CatalogueSnapshot, catalogueSnapshot } from '../services/catalogue/snapshot.js';

/**
 * The signed-in visitor, if any (the family's "try user auth"): a missing, stale or foreign session simply means
 * an anonymous visitor, never a 401, because the pricing page is public.
 */
async function optionalUser(ctx: AppContext, request: FastifyRequest): Promise<UserRow | null> {
  const sessionId = verifySessionCookie(request.cookies[SESSION_COOKIE], ctx.config.sessionSecret);
  if (!sessionId) return null;
  const userId = await ctx.sessions.userIdOf(sessionId);
  if (userId === undefined) return null;
  const user = await ctx.authCache.user(userId);
  return user && user.status === UserStatus.Enabled && user.deleted_at === null ? user : null;
}

/**
 * Builds the price list from memory only (options and the channel cache) and keeps it until one of its inputs
 * changes: the options store and the channel cache hand out the same objects until then.
 */
class PricingList {
  private inputs: unknown[] = [];
  private lists = new Map<string, PricingEntry[]>();

  constructor(private readonly ctx: AppContext) {}

  /**
   * Models with an enabled channel that the relay would price for this caller: unpriced models are listed only
   * when self-use mode or the caller's own setting accepts them, exactly as the relay bills. Groups the caller
   * cannot use are left out of `enable_groups`.
   */
  entries(acceptUnset: boolean, usable: readonly string[], catalogue: CatalogueSnapshot): PricingEntry[] {
    const { options, channelCache } = this.ctx;
    const inputs = [
      options.json('ModelPrice'),
      options.json('ModelRatio'),
      options.json('CompletionRatio'),
      options.json('CacheRatio'),
      options.bool('SelfUseModeEnabled'),
      channelCache.enabledGroupsByModel(),
      catalogue,
    ];
    if (inputs.some((input, index) => input !== this.inputs[index])) {
      this.inputs = inputs;
      this.lists.clear();
    }
    const key = `${acceptUnset ? 1 : 0}|${[...usable].sort().join(',')}`;
    let list = this.lists.get(key);
    if (!list) {
      const visible = new Set(usable);
      const built: PricingEntry[] = [];
      for (const [model, groups] of channelCache.enabledGroupsByModel()) {
        const billing = modelPricing(options, model, acceptUnset);
        // A model the catalogue marks as not shown stays billable, only off the list.
        const meta = catalogue.metaOf(model);
        if (!billing || meta?.hidden) continue;
        const entry = pricingEntry(
          model,
          groups.filter((group) => visible.has(group)),
          billing,
        );
        if (meta) {
          const { hidden: _hidden, ...shown } = meta;
          Object.assign(entry, shown);
        }
        built.push(entry);
      }
      list = orderPricingEntries(built);
      // Each distinct set of usable groups gets one list; a runaway number of sets cannot grow memory for long.
      if (this.lists.size >= 64) this.lists.clear();
      this.lists.set(key, list);
    }
    return list;
  }
}

export async function pricingRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const list = new PricingList(ctx);

  // Live model health (metrics/model-health.ts): as public as the prices; read at most every 10 s per node.
  let health: { at: number; answer: Promise<ModelHealthResponse> } | null = null;
  app.get('/api/pricing/health', async () => {
    const now = Date.now();
    if (!health || now - health.at > 10_000) {
      const answer = ctx.modelHealth
        .snapshot(now)
        .then((models) => ({ window_seconds: HEALTH_WINDOW_MINUTES * 60, models }));
      health = { at: now, answer };
      answer.catch(() => {
        health = null;
      });
    }
    return ok(await health.answer);
  });

  app.get('/api/pricing', async (request): Promise<PricingResponse> => {
    const user = await optionalUser(ctx, request);
    // Anonymous visitors see the groups any user may pick; a user also sees their own group (family rule).
    const usable = usableGroups(ctx.options, user?.group ?? '');
    const ratios = ctx.options.json<Record<string, number>>('GroupRatio') ?? {};
    const groupRatio: Record<string, number> = {};
    const usableGroup: Record<string, string> = {};
    for (const [group, info] of Object.entries(usable)) {
      usableGroup[group] = info.desc;
      // A group without a ratio is refused by the relay, so it has no price to show.
      if (Object.hasOwn(ratios, group)) groupRatio[group] = ratios[group]!;
    }
    const acceptUnset = user ? userSetting(user).accept_unset_model_ratio_model === true : false;
    const catalogue = await catalogueSnapshot(ctx);
    return {
      success: true,
      message: '',
      data: list.entries(acceptUnset, Object.keys(groupRatio), catalogue),
      group_ratio: groupRatio,
      usable_group: usableGroup,
      vendors: catalogue.vendors,
    };
  });
}
