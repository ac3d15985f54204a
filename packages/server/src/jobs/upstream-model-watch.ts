import { joinModels, parseSettingsJson, splitModels, upstreamModelChanges, upstreamModelWatch } from '@gateway/shared';
import type { AppContext } from '../context.js';
import type { ChannelRow } from '../db/schema.js';
import { nowSeconds } from '../db/sql-helpers.js';
import { backgroundError } from '../lib/background.js';
import { runtimeChannel } from '../relay/probes/runtime-channel.js';
import { fetchUpstreamModels } from '../relay/probes/upstream-models.js';
import { notifyUser } from '../services/notifications/notify.js';
import { everyOnceAcrossNodes } from './leased-job.js';

export interface WatchOutcome {
  channelId: number;
  detected: string[];
  removed: string[];
  /** Models added to the channel by itself (its auto-sync switch). */
  added: string[];
  error?: string;
}

/**
 * The upstream model watch (the family's "upstream model update" job): for every channel whose `settings` ask for
 * it, the upstream's model list is fetched through the SSRF-safe client and compared with the channel's models;
 * what the upstream added (less the ignored names) and what it dropped are recorded in the channel's `settings`,
 * root is told when that changed, and a channel that opted in gets the new models added (its abilities with them).
 * A failed fetch is recorded as such and leaves the last findings as they were.
 */
export async function watchUpstreamModels(ctx: AppContext): Promise<WatchOutcome[]> {
  const outcomes: WatchOutcome[] = [];
  for (const channel of await ctx.repos.channels.all()) {
    if (!upstreamModelWatch(parseSettingsJson(channel.settings)).checkEnabled) continue;
    outcomes.push(await checkChannelUpstreamModels(ctx, channel));
  }
  return outcomes;
}

/** One channel's check (the job's, or the console's "check now"). */
export async function checkChannelUpstreamModels(ctx: AppContext, channel: ChannelRow): Promise<WatchOutcome> {
  const settings = parseSettingsJson(channel.settings);
  const watch = upstreamModelWatch(settings);
  let upstream: string[];
  try {
    upstream = await fetchUpstreamModels(
      runtimeChannel(channel, ctx.channelWriter),
      ctx.options.bool('fetch_setting.allow_private_ip'),
    );
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { channelId: channel.id, detected: watch.detected, removed: watch.removed, added: [], error: message };
  }
  const models = splitModels(channel.models ?? '');
  const found = upstreamModelChanges(models, upstream, watch.ignored);
  const added = watch.autoSync ? found.detected : [];
  const detected = watch.autoSync ? [] : found.detected;
  const next = {
    ...settings,
    upstream_model_update_last_check_time: nowSeconds(),
    upstream_model_update_last_detected_models: detected,
    upstream_model_update_last_removed_models: found.removed,
  };
  await ctx.channelWriter.update(channel.id, {
    settings: JSON.stringify(next),
    ...(added.length ? { models: joinModels([...models, ...added]) } : {}),
  });
  const news = (list: string[], before: string[]) => list.filter((name) => !before.includes(name));
  if (news(found.detected, watch.detected).length || news(found.removed, watch.removed).length) {
    await tellRoot(ctx, channel, found, added.length > 0).catch((error: unknown) =>
      backgroundError('upstream model notice failed', error),
    );
  }
  return { channelId: channel.id, detected, removed: found.removed, added };
}

async function tellRoot(
  ctx: AppContext,
  channel: ChannelRow,
  found: { detected: string[]; removed: string[] },
  added: boolean,
): Promise<void> {
  const root = await ctx.repos.users.findRoot();
  if (!root) return;
  const parts = [
    found.detected.length ? `${added ? 'added' : 'new upstream models'}: ${found.detected.join(', ')}` : '',
    found.removed.length ? `no longer offered: ${found.removed.join(', ')}` : '',
  ].filter(Boolean);
  await notifyUser(ctx.options, root, {
    type: 'channel_update',
    title: `Channel "${channel.name}" (#${channel.id}): upstream models changed`,
    content: parts.join('; '),
  });
}

/**
 * Every CHANNEL_UPSTREAM_MODEL_UPDATE_TASK_INTERVAL_MINUTES on one master node per interval (leased-job.ts), while
 * CHANNEL_UPSTREAM_MODEL_UPDATE_TASK_ENABLED is on.
 */
export function startUpstreamModelWatch(ctx: AppContext, minutes: number): () => void {
  if (minutes <= 0 || ctx.config.nodeType !== 'master') return () => {};
  return everyOnceAcrossNodes(
    ctx.repos.jobLeases,
    'upstream-model-watch',
    minutes * 60_000,
    () => watchUpstreamModels(ctx),
    (error) => backgroundError('upstream model watch failed', error),
  );
}
