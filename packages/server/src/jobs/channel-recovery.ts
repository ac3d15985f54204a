import { ChannelStatus } from '@gateway/shared';
import type { AppContext } from '../context.js';
import { backgroundError } from '../lib/background.js';
import { testChannel } from '../relay/probes/channel-test.js';
import { everyOnceAcrossNodes } from './leased-job.js';

/**
 * Every CHANNEL_TEST_FREQUENCY minutes (on one master node per interval, see leased-job.ts), when AutomaticEnableChannelEnabled is on, the channels
 * the system disabled are tested again; a passing one comes back into rotation. Manually disabled channels are
 * never touched, and healthy channels are not probed (their traffic already tells).
 */
export async function recoverAutoDisabledChannels(ctx: AppContext): Promise<{ tested: number; enabled: number }> {
  if (!ctx.options.bool('AutomaticEnableChannelEnabled')) return { tested: 0, enabled: 0 };
  const channels = (await ctx.repos.channels.all()).filter((channel) => channel.status === ChannelStatus.AutoDisabled);
  let enabled = 0;
  for (const channel of channels) {
    const result = await testChannel(channel, '', {
      writer: ctx.channelWriter,
      channels: ctx.repos.channels,
      options: ctx.options,
    }).catch(() => null);
    if (result?.statusChanged === 'enabled') enabled++;
  }
  return { tested: channels.length, enabled };
}

export function startChannelRecovery(ctx: AppContext, minutes: number): () => void {
  if (minutes <= 0 || ctx.config.nodeType !== 'master') return () => {};
  return everyOnceAcrossNodes(
    ctx.repos.jobLeases,
    'channel-recovery',
    minutes * 60_000,
    () => recoverAutoDisabledChannels(ctx),
    (error) => backgroundError('channel recovery failed', error),
  );
}
