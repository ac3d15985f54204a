import {
  applyPriceChanges,
  diffRatioConfigs,
  PRICE_SYNC_FIELDS,
  PRICE_SYNC_OPTION,
  type PriceSyncPreview,
  priceSyncApplySchema,
  priceSyncPreviewSchema,
} from '@gateway/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { guards } from '../auth/guard.js';
import type { AppContext } from '../context.js';
import { ApiFailure, messageFor, ok } from '../http/envelope.js';
import { parseBody } from '../http/validation.js';
import { type AuditEntry, recordAudit } from '../services/audit/audit-trail.js';
import { optionChanges } from '../services/audit/entity-diffs.js';
import { familyDifferences } from '../services/price-sync/family-differences.js';
import { fromGateway, localRatioConfig, readPriceSource } from '../services/price-sync/sources.js';

const MAX_UPSTREAMS = 20;
const familyFetchSchema = z.object({
  upstreams: z
    .array(z.object({ name: z.string().max(200).default(''), base_url: z.string().max(2048) }))
    .max(MAX_UPSTREAMS)
    .default([]),
  channel_ids: z.array(z.number().int()).max(MAX_UPSTREAMS).default([]),
});

/**
 * Prices in sync: this site's ratios exported for other gateways, and root pulling prices from OpenRouter, another
 * gateway or an uploaded file into the ratio options (which stay the source of truth for billing): preview every
 * difference, then apply only the rows root picked, audited like any option change.
 */
export async function ratioSyncRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { root } = guards(ctx);

  // Public on purpose (other gateways read it), and only when the operator chose to publish.
  app.get('/api/ratio_config', async (request, reply) => {
    if (!ctx.options.bool('ExposeRatioEnabled')) {
      return reply.code(403).send({ success: false, message: messageFor(request, 'ratio_config_disabled') });
    }
    return ok(localRatioConfig(ctx.options));
  });

  app.get('/api/ratio_sync/channels', { preHandler: root }, async () => {
    const channels = await ctx.repos.channels.all();
    return ok(
      channels
        .filter((channel) => (channel.base_url ?? '').startsWith('http'))
        .map((channel) => ({
          id: channel.id,
          name: channel.name,
          base_url: channel.base_url,
          status: channel.status,
          type: channel.type,
        })),
    );
  });

  // The family's console: several gateways (or channels' base URLs) compared at once, nothing written.
  app.post('/api/ratio_sync/fetch', { preHandler: root }, async (request) => {
    const input = parseBody(familyFetchSchema, request.body);
    const targets = input.upstreams.map((upstream) => ({
      name: upstream.name || upstream.base_url,
      url: upstream.base_url,
    }));
    if (input.channel_ids.length > 0) {
      for (const channel of await ctx.repos.channels.findByIds(input.channel_ids)) {
        if ((channel.base_url ?? '').startsWith('http'))
          targets.push({ name: `${channel.name}(${channel.id})`, url: channel.base_url! });
      }
    }
    if (targets.length === 0) throw new ApiFailure('ratio_sync_url_required');
    const results = await Promise.all(
      targets.map(async (target) => {
        try {
          return { name: target.name, config: await fromGateway(target.url, ctx.options), error: '' };
        } catch (error) {
          const reason = error instanceof ApiFailure ? messageFor(request, error.code, error.params) : String(error);
          return { name: target.name, config: null, error: reason };
        }
      }),
    );
    const fetched = results.flatMap((result) => (result.config ? [{ name: result.name, config: result.config }] : []));
    return ok({
      differences: familyDifferences(localRatioConfig(ctx.options), fetched),
      test_results: results.map((result) => ({
        name: result.name,
        status: result.config ? 'success' : 'error',
        ...(result.error ? { error: result.error } : {}),
      })),
    });
  });

  app.post('/api/ratio_sync/preview', { preHandler: root }, async (request) => {
    const { source } = parseBody(priceSyncPreviewSchema, request.body);
    const { label, config } = await readPriceSource(source, ctx.options);
    const models = new Set(PRICE_SYNC_FIELDS.flatMap((field) => Object.keys(config[field] ?? {})));
    const preview: PriceSyncPreview = {
      source: label,
      models: models.size,
      changes: diffRatioConfigs(localRatioConfig(ctx.options), config),
    };
    return ok(preview);
  });

  app.post('/api/ratio_sync/apply', { preHandler: root }, async (request) => {
    const input = parseBody(priceSyncApplySchema, request.body);
    const before = localRatioConfig(ctx.options);
    const next = applyPriceChanges(before, input.changes);
    const entries: AuditEntry[] = [];
    for (const field of PRICE_SYNC_FIELDS) {
      const map = next[field];
      if (!map) continue;
      const key = PRICE_SYNC_OPTION[field];
      const previous = ctx.options.get(key);
      const value = JSON.stringify(map);
      const error = await ctx.options.set(key, value);
      if (error) throw new ApiFailure(error.code, error.params);
      entries.push({
        action: 'option.sync_prices',
        targetType: 'option',
        targetId: key,
        changes: optionChanges(key, previous, value),
      });
    }
    await recordAudit(ctx, request, entries);
    request.log.info({ by: request.user?.id, count: input.changes.length }, 'prices synced');
    return ok(
      { applied: input.changes.length },
      messageFor(request, 'ratio_sync_applied', { count: input.changes.length }),
    );
  });
}
