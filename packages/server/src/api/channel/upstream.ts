import { ChannelStatus, channelType, normaliseBaseUrl } from '@gateway/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { guards } from '../../auth/guard.js';
import type { AppContext } from '../../context.js';
import { nowSeconds } from '../../db/sql-helpers.js';
import { ApiFailure, messageFor, ok } from '../../http/envelope.js';
import { parseBody } from '../../http/validation.js';
import { BalanceUnsupportedError, fetchChannelBalance } from '../../relay/probes/channel-balance.js';
import { testChannel } from '../../relay/probes/channel-test.js';
import { runtimeChannel } from '../../relay/probes/runtime-channel.js';
import { fetchUpstreamModels } from '../../relay/probes/upstream-models.js';
import { OutboundError } from '../../services/security/outbound.js';

const fetchModelsSchema = z.object({
  base_url: z.string().default(''),
  type: z.number().int(),
  key: z.string().trim().min(1, 'channel_fetch_models_key_required'),
});

/** Routes that talk to a channel's upstream: test, balance, model list. */
export async function channelUpstreamRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { admin } = guards(ctx);
  const { channels } = ctx.repos;
  const deps = { writer: ctx.channelWriter, channels, options: ctx.options };
  const allowPrivate = () => ctx.options.bool('fetch_setting.allow_private_ip');

  const load = async (rawId: string) => {
    const id = Number(rawId);
    const channel = Number.isInteger(id) ? await channels.findById(id) : undefined;
    if (!channel) throw new ApiFailure('channel_not_found');
    return channel;
  };

  app.get('/api/channel/test', { preHandler: admin }, async (request) => {
    const started = ctx.channelTests.start();
    return ok(
      ctx.channelTests.status(),
      messageFor(request, started ? 'channel_test_all_started' : 'channel_test_all_running'),
    );
  });

  app.get('/api/channel/test/progress', { preHandler: admin }, async () => ok(ctx.channelTests.status()));

  app.get('/api/channel/test/:id', { preHandler: admin }, async (request) => {
    const channel = await load((request.params as { id: string }).id);
    const model = String((request.query as { model?: string }).model ?? '').trim();
    const result = await testChannel(channel, model, deps);
    const message =
      result.message === 'channel_test_unsupported' ? messageFor(request, 'channel_test_unsupported') : result.message;
    // Family shape: success, message, time (seconds) at the top level, plus data for newer consoles.
    return { success: result.success, message, time: result.time, data: result };
  });

  app.get('/api/channel/update_balance/:id', { preHandler: admin }, async (request) => {
    const channel = await load((request.params as { id: string }).id);
    try {
      const balance = await fetchChannelBalance(runtimeChannel(channel, ctx.channelWriter), allowPrivate());
      await channels.update(channel.id, { balance, balance_updated_time: nowSeconds() });
      return { success: true, message: '', balance, data: { balance } };
    } catch (error) {
      if (error instanceof BalanceUnsupportedError) throw new ApiFailure('channel_balance_unsupported');
      throw upstreamFailure(error, channel.base_url ?? '');
    }
  });

  app.get('/api/channel/update_balance', { preHandler: admin }, async (request) => {
    const all = (await channels.all()).filter(
      (c) => c.status === ChannelStatus.Enabled && channelType(c.type)?.balance,
    );
    let updated = 0;
    for (const channel of all) {
      try {
        const balance = await fetchChannelBalance(runtimeChannel(channel, ctx.channelWriter), allowPrivate());
        await channels.update(channel.id, { balance, balance_updated_time: nowSeconds() });
        updated++;
      } catch (error) {
        request.log.warn({ channel: channel.id, reason: (error as Error).message }, 'balance update failed');
      }
    }
    return ok(
      { updated, total: all.length },
      messageFor(request, 'channel_balance_updated', { updated, total: all.length }),
    );
  });

  const fetchModels = async (runtime: Parameters<typeof fetchUpstreamModels>[0]) => {
    try {
      return ok(await fetchUpstreamModels(runtime, allowPrivate()));
    } catch (error) {
      throw upstreamFailure(error, runtime.baseUrl);
    }
  };

  app.get('/api/channel/fetch_models/:id', { preHandler: admin }, async (request) => {
    const channel = await load((request.params as { id: string }).id);
    return fetchModels(runtimeChannel(channel, ctx.channelWriter));
  });

  app.post('/api/channel/fetch_models', { preHandler: admin }, async (request) => {
    const input = parseBody(fetchModelsSchema, request.body);
    if (!channelType(input.type)) throw new ApiFailure('channel_type_invalid');
    return fetchModels({
      id: 0,
      type: input.type,
      name: '',
      baseUrl: normaliseBaseUrl(input.base_url),
      key: input.key.split('\n')[0]!.trim(),
      other: '',
      organization: null,
    });
  });
}

/**
 * A failed balance or model-list fetch, said in the admin's language: a private address names the setting that
 * allows it (the admin cannot guess it from "not a public address"), anything else carries the upstream's reason.
 */
function upstreamFailure(error: unknown, baseUrl: string): ApiFailure {
  if (error instanceof OutboundError && error.reason === 'blocked') {
    return new ApiFailure('channel_fetch_private_refused', { host: error.host ?? baseUrl });
  }
  return new ApiFailure('channel_upstream_failed', { reason: error instanceof Error ? error.message : String(error) });
}
