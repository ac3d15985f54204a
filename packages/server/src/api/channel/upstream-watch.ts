import { joinModels, parseSettingsJson, splitModels, upstreamModelWatch } from '@gateway/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { guards } from '../../auth/guard.js';
import type { AppContext } from '../../context.js';
import { ApiFailure, ok } from '../../http/envelope.js';
import { parseBody } from '../../http/validation.js';
import { checkChannelUpstreamModels } from '../../jobs/upstream-model-watch.js';
import { channelAudit } from './audit.js';
import { channelView } from './view.js';

const watchSchema = z.object({ check_enabled: z.boolean(), auto_sync: z.boolean() });

const applySchema = z.object({
  add: z.array(z.string().min(1)).default([]),
  remove: z.array(z.string().min(1)).default([]),
  ignore: z.array(z.string().min(1)).default([]),
});

/**
 * The upstream model watch from the console: turn it on or off for a channel, check one channel now (what the
 * scheduled job does), and act on what it found: add the new models, remove the dropped ones, or ignore names from
 * now on. Admin only; changes are audited as channel updates.
 */
export async function channelUpstreamWatchRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { admin } = guards(ctx);
  const audit = channelAudit(ctx);
  const channelId = (params: unknown) => {
    const id = Number((params as { id?: string }).id);
    if (!Number.isInteger(id) || id <= 0) throw new ApiFailure('invalid_params');
    return id;
  };

  app.post('/api/channel/:id/upstream_models/check', { preHandler: admin }, async (request) => {
    const channel = await ctx.repos.channels.findById(channelId(request.params));
    if (!channel) throw new ApiFailure('channel_not_found');
    const outcome = await checkChannelUpstreamModels(ctx, channel);
    if (outcome.error) throw new ApiFailure('channel_upstream_failed', { reason: outcome.error });
    const row = await ctx.repos.channels.findById(channel.id);
    return ok(channelView(row!));
  });

  app.put('/api/channel/:id/upstream_models/watch', { preHandler: admin }, async (request) => {
    const id = channelId(request.params);
    const watch = parseBody(watchSchema, request.body);
    const row = await audit.around(request, 'channel.update', [id], async () => {
      const channel = await ctx.repos.channels.findById(id);
      if (!channel) return undefined;
      const settings = {
        ...parseSettingsJson(channel.settings),
        upstream_model_update_check_enabled: watch.check_enabled,
        upstream_model_update_auto_sync_enabled: watch.auto_sync,
      };
      return ctx.channelWriter.update(id, { settings: JSON.stringify(settings) });
    });
    if (!row) throw new ApiFailure('channel_not_found');
    return ok(channelView(row));
  });

  app.post('/api/channel/:id/upstream_models/apply', { preHandler: admin }, async (request) => {
    const id = channelId(request.params);
    const { add, remove, ignore } = parseBody(applySchema, request.body);
    const row = await audit.around(request, 'channel.update', [id], async () => {
      const channel = await ctx.repos.channels.findById(id);
      if (!channel) return undefined;
      const settings = parseSettingsJson(channel.settings);
      const watch = upstreamModelWatch(settings);
      const settled = new Set([...add, ...remove, ...ignore]);
      const models = splitModels(channel.models ?? '').filter((name) => !remove.includes(name));
      const next = {
        ...settings,
        upstream_model_update_ignored_models: [...new Set([...watch.ignored, ...ignore])],
        upstream_model_update_last_detected_models: watch.detected.filter((name) => !settled.has(name)),
        upstream_model_update_last_removed_models: watch.removed.filter((name) => !settled.has(name)),
      };
      const nextModels = joinModels([...models, ...add.filter((name) => !models.includes(name))]);
      if (!nextModels) throw new ApiFailure('channel_models_required');
      return ctx.channelWriter.update(id, { models: nextModels, settings: JSON.stringify(next) });
    });
    if (!row) throw new ApiFailure('channel_not_found');
    return ok(channelView(row));
  });
}
