/**
 * The upstream model watch of a channel, kept in its `settings` JSON under the family's keys: whether to check the
 * upstream's model list on a schedule, whether to add new models by itself, which models to ignore, and what the
 * last check found (models the upstream offers that the channel lacks, and models the channel lists that the
 * upstream no longer offers).
 */
export interface UpstreamModelWatch {
  checkEnabled: boolean;
  autoSync: boolean;
  ignored: string[];
  lastCheckTime: number;
  detected: string[];
  removed: string[];
}

const names = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((name): name is string => typeof name === 'string' && name !== '') : [];

export function parseSettingsJson(text: string | null | undefined): Record<string, unknown> {
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export function upstreamModelWatch(settings: Record<string, unknown>): UpstreamModelWatch {
  const ignored = settings.upstream_model_update_ignored_models;
  return {
    checkEnabled: settings.upstream_model_update_check_enabled === true,
    autoSync: settings.upstream_model_update_auto_sync_enabled === true,
    // The family's console sends the ignored list as a comma text in some versions and a list in others.
    ignored:
      typeof ignored === 'string'
        ? ignored
            .split(',')
            .map((name) => name.trim())
            .filter(Boolean)
        : names(ignored),
    lastCheckTime: Number(settings.upstream_model_update_last_check_time) || 0,
    detected: names(settings.upstream_model_update_last_detected_models),
    removed: names(settings.upstream_model_update_last_removed_models),
  };
}

/** What the upstream offers that the channel lacks (not ignored), and what the channel lists that it no longer offers. */
export function upstreamModelChanges(
  channelModels: readonly string[],
  upstream: readonly string[],
  ignored: readonly string[],
): { detected: string[]; removed: string[] } {
  const listed = new Set(channelModels);
  const offered = new Set(upstream);
  const skip = new Set(ignored);
  return {
    detected: [...offered].filter((name) => !listed.has(name) && !skip.has(name)).sort(),
    removed: [...listed].filter((name) => !offered.has(name)).sort(),
  };
}
