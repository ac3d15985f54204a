import type { OptionsStore } from '../../cache/options-store.js';
import type { UsersRepo } from '../../db/repos/users.js';
import type { ChannelRow } from '../../db/schema.js';
import { notifyUser } from './notify.js';
import type { NotifyLimit } from './notify-limit.js';

/**
 * Root hears when a channel is taken out of rotation automatically (an upstream refused its key, a test failed):
 * by e-mail or webhook, per root's notification setting. Runs off the request path; a failure is only logged.
 */
export function channelDisabledNotifier(
  options: OptionsStore,
  users: UsersRepo,
  limit: NotifyLimit,
  onError: (error: unknown) => void,
) {
  return (channel: ChannelRow, reason: string): void => {
    void (async () => {
      const root = await users.findRoot();
      if (!root || !limit.allow(root.id, 'channel_update')) return;
      const subject = `通道「${channel.name}」（#${channel.id}）已被禁用`;
      await notifyUser(options, root, {
        type: 'channel_update',
        title: subject,
        content: `${subject}，原因：${reason || '未知'}`,
      });
    })().catch(onError);
  };
}
