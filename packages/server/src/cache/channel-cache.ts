import { ChannelStatus, parseJsonObjectField, splitKeys, splitModels } from '@gateway/shared';
import type { ChannelsRepo } from '../db/repos/channels.js';
import type { ChannelRow } from '../db/schema.js';
import { SerialRun } from '../lib/serial-run.js';
import { matchingModelName } from '../relay/model-suffix.js';
import type { Candidate } from '../relay/select.js';
import type { RuntimeChannel } from '../relay/types.js';
import type { ChannelWriter } from '../services/channels/channel-writer.js';
import { listen, type RedisPair } from './redis.js';

/** Everything the relay needs of a channel, decrypted and parsed once per reload instead of once per request. */
export interface CachedChannel extends RuntimeChannel, Candidate {
  status: number;
  autoBan: boolean;
  models: string[];
  groups: string[];
  modelMapping: Record<string, string> | null;
  statusCodeMapping: Record<string, string> | null;
  paramOverride: Record<string, unknown> | null;
  headerOverride: Record<string, string> | null;
  setting: Record<string, unknown> | null;
  keys: string[];
}

const CHANNEL = 'gateway:channels';

function jsonObject<T>(text: string | null): T | null {
  const parsed = parseJsonObjectField(text);
  return parsed.ok ? (parsed.value as T | null) : null;
}

/**
 * Channels in memory with the index group → model → enabled channels. Rebuilt whenever the channel writer commits
 * (awaited, so the next request sees it), when another node says so over Redis, and every SYNC_FREQUENCY seconds.
 */
export class ChannelCache {
  private byId = new Map<number, CachedChannel>();
  private index = new Map<string, Map<string, CachedChannel[]>>();
  private readonly loads = new SerialRun(() => this.load());
  private groupsByModel: ReadonlyMap<string, readonly string[]> | null = null;
  private channelsByModel: ReadonlyMap<string, readonly CachedChannel[]> | null = null;
  private loadCount = 0;

  constructor(
    private readonly repo: ChannelsRepo,
    private readonly writer: ChannelWriter,
    private readonly redis: RedisPair | null,
  ) {
    writer.onChange(async () => {
      await this.reload();
      // While Redis is away other nodes miss this and reload when it returns.
      await this.redis?.client.publish(CHANNEL, 'reload').catch((error: unknown) => this.redis?.health.failed(error));
    });
  }

  async start(): Promise<void> {
    await this.reload();
    if (this.redis) {
      await listen(this.redis, CHANNEL, () => void this.reload());
    }
  }

  /**
   * Resolves once the cache holds rows read after the call: a read under way may predate the change that asked for
   * the reload, so it is followed by another. Calls made meanwhile share that one read.
   */
  reload(): Promise<void> {
    return this.loads.request();
  }

  private async load(): Promise<void> {
    const rows = await this.repo.all();
    const byId = new Map<number, CachedChannel>();
    const index = new Map<string, Map<string, CachedChannel[]>>();
    for (const row of rows) {
      const channel = this.toCached(row);
      byId.set(channel.id, channel);
      if (channel.status !== ChannelStatus.Enabled) continue;
      for (const group of channel.groups) {
        let models = index.get(group);
        if (!models) {
          models = new Map();
          index.set(group, models);
        }
        for (const model of channel.models) {
          const list = models.get(model);
          if (list) list.push(channel);
          else models.set(model, [channel]);
        }
      }
    }
    this.byId = byId;
    this.index = index;
    this.groupsByModel = null;
    this.channelsByModel = null;
    this.loadCount++;
  }

  /** Completed reloads, for /metrics (the cache holds every channel, so there are no misses to count). */
  get reloads(): number {
    return this.loadCount;
  }

  /** Channels held, enabled or not. */
  get size(): number {
    return this.byId.size;
  }

  private toCached(row: ChannelRow): CachedChannel {
    let keys: string[] = [];
    try {
      // A JSON key stored over several lines (written by the family's server) is still one key.
      keys = splitKeys(this.writer.key(row));
    } catch {
      // A key sealed with another CRYPTO_SECRET cannot be opened: the channel stays listed but cannot serve.
      keys = [];
    }
    return {
      id: row.id,
      type: row.type,
      name: row.name,
      baseUrl: row.base_url ?? '',
      key: keys[0] ?? '',
      keys,
      other: row.other ?? '',
      organization: row.openai_organization,
      priority: row.priority,
      weight: row.weight,
      status: row.status,
      autoBan: row.auto_ban === 1,
      models: splitModels(row.models ?? ''),
      groups: splitModels(row.group),
      modelMapping: jsonObject(row.model_mapping),
      statusCodeMapping: jsonObject(row.status_code_mapping),
      paramOverride: jsonObject(row.param_override),
      headerOverride: jsonObject(row.header_override),
      setting: jsonObject(row.setting),
    };
  }

  /**
   * The channels serving a model in a group: those listing its exact name, else those listing the family's
   * wildcard for it (`gemini-2.5-flash-thinking-*` for any thinking budget, `gpt-4-gizmo-*`).
   */
  candidates(group: string, model: string): CachedChannel[] {
    const models = this.index.get(group);
    if (!models) return [];
    const exact = models.get(model);
    if (exact) return exact;
    const matching = matchingModelName(model);
    return (matching !== model && models.get(matching)) || [];
  }

  /**
   * Whether any channel, enabled or not, lists the model for the group: the relay's 404 (no such model here) or 503
   * (its channels exist but none can answer now). Asked only on that error path, so a scan is fine.
   */
  listsModel(group: string, model: string): boolean {
    const matching = matchingModelName(model);
    for (const channel of this.byId.values()) {
      if (!channel.groups.includes(group)) continue;
      if (channel.models.includes(model) || channel.models.includes(matching)) return true;
    }
    return false;
  }

  get(id: number): CachedChannel | undefined {
    return this.byId.get(id);
  }

  /**
   * The enabled abilities as model → groups (sorted), built once per reload: the pricing list's "available groups".
   * The same map is returned until the channels change, so callers may memoise on it.
   */
  enabledGroupsByModel(): ReadonlyMap<string, readonly string[]> {
    if (!this.groupsByModel) {
      const byModel = new Map<string, string[]>();
      for (const [group, models] of this.index) {
        for (const model of models.keys()) {
          const groups = byModel.get(model);
          if (groups) groups.push(group);
          else byModel.set(model, [group]);
        }
      }
      for (const groups of byModel.values()) groups.sort();
      this.groupsByModel = byModel;
    }
    return this.groupsByModel;
  }

  /** The enabled channels serving each model, in any group (the model catalogue's "served by"), once per reload. */
  enabledChannelsByModel(): ReadonlyMap<string, readonly CachedChannel[]> {
    if (!this.channelsByModel) {
      const byModel = new Map<string, Set<CachedChannel>>();
      for (const models of this.index.values()) {
        for (const [model, channels] of models) {
          const served = byModel.get(model) ?? new Set<CachedChannel>();
          for (const channel of channels) served.add(channel);
          byModel.set(model, served);
        }
      }
      this.channelsByModel = new Map([...byModel].map(([model, channels]) => [model, [...channels]]));
    }
    return this.channelsByModel;
  }

  /** Models with at least one enabled channel in any of the groups. */
  modelsIn(groups: readonly string[]): string[] {
    const names = new Set<string>();
    for (const group of groups) for (const model of this.index.get(group)?.keys() ?? []) names.add(model);
    return [...names].sort();
  }
}
