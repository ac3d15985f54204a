import { CHANNEL_TYPES } from '@gateway/shared';
import { providerFor } from '../../providers/registry.js';

let platforms: readonly string[] | null = null;

/** The `tasks.platform` values of video tasks: the channel types whose provider makes videos (computed once). */
export function videoPlatforms(): readonly string[] {
  platforms ??= CHANNEL_TYPES.filter((type) => providerFor(type.value)?.functions.video).map((type) =>
    String(type.value),
  );
  return platforms;
}
