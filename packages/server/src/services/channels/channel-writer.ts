import { ChannelStatus } from '@gateway/shared';
import type { Db } from '../../db/connection.js';
import type { AbilitiesRepo } from '../../db/repos/abilities.js';
import type { ChannelsRepo } from '../../db/repos/channels.js';
import type { ChannelRow, ChannelUpdate, NewChannel } from '../../db/schema.js';
import { nowSeconds } from '../../db/sql-helpers.js';
import type { Trx } from '../../db/unit-of-work.js';
import type { SecretBox } from '../security/secret-box.js';

type Listener = () => void | Promise<void>;
type DisabledListener = (channel: ChannelRow, reason: string) => void;

/**
 * Every change to channels goes through here, so the abilities index changes in the same transaction and the
 * relay's cache is told afterwards.
 */
export class ChannelWriter {
  private listeners: Listener[] = [];
  private disabledListeners: DisabledListener[] = [];

  constructor(
    private readonly db: Pick<Db, 'inTransaction'>,
    private readonly channels: ChannelsRepo,
    private readonly abilities: AbilitiesRepo,
    private readonly box: SecretBox,
  ) {}

  onChange(listener: Listener): void {
    this.listeners.push(listener);
  }

  /** Told when a channel goes from any other status to auto-disabled (not on repeats), e.g. to notify root. */
  onAutoDisabled(listener: DisabledListener): void {
    this.disabledListeners.push(listener);
  }

  /** Awaited, so when an API call returns, the relay's channel cache already reflects the change. */
  private async changed(): Promise<void> {
    for (const listener of this.listeners) await listener();
  }

  async create(columns: Omit<NewChannel, 'key'>, keys: string[]): Promise<number[]> {
    const ids = await this.db.inTransaction(async (trx) => {
      const created: number[] = [];
      for (const key of keys) {
        const id = await this.channels.insertIn(trx, { ...columns, key: this.box.seal(key) });
        await this.syncAbilities(trx, id);
        created.push(id);
      }
      return created;
    });
    await this.changed();
    return ids;
  }

  async update(id: number, changes: ChannelUpdate): Promise<ChannelRow | undefined> {
    const { key, ...rest } = changes;
    const row = await this.db.inTransaction(async (trx) => {
      if (!(await this.channels.findById(id, trx))) return undefined;
      await this.channels.update(
        id,
        typeof key === 'string' && key !== '' ? { ...rest, key: this.box.seal(key) } : rest,
        trx,
      );
      return this.syncAbilities(trx, id);
    });
    if (row) await this.changed();
    return row;
  }

  /** Status 3 records why and when (shown as a tooltip); enabling clears the reason. */
  async setStatus(id: number, status: number, reason = ''): Promise<ChannelRow | undefined> {
    const current = await this.channels.findById(id);
    if (!current) return undefined;
    const info = parseInfo(current.other_info);
    if (status === ChannelStatus.AutoDisabled)
      Object.assign(info, { status_reason: reason, status_time: nowSeconds() });
    else if (status === ChannelStatus.Enabled) {
      delete info.status_reason;
      delete info.status_time;
    }
    const row = await this.update(id, { status, other_info: JSON.stringify(info) });
    if (row && status === ChannelStatus.AutoDisabled && current.status !== ChannelStatus.AutoDisabled) {
      for (const listener of this.disabledListeners) listener(row, reason);
    }
    return row;
  }

  /**
   * A test's outcome: its timing, and on failure why and when (other_info `test_failure_reason` /
   * `test_failure_time`, so the console still shows it after a reload); a success removes them. Read and written in
   * one transaction so the other keys (an auto-disable's status_reason) survive a write racing this one. The cache
   * is not reloaded: it reads neither the timings nor other_info, and a test-all run would reload it per channel.
   */
  async recordTest(
    id: number,
    outcome: { responseTime: number; testTime: number; failure: string | null },
  ): Promise<void> {
    await this.db.inTransaction(async (trx) => {
      const current = await this.channels.findById(id, trx);
      if (!current) return;
      const info = parseInfo(current.other_info);
      if (outcome.failure === null) {
        delete info.test_failure_reason;
        delete info.test_failure_time;
      } else {
        Object.assign(info, { test_failure_reason: outcome.failure, test_failure_time: outcome.testTime });
      }
      await this.channels.update(
        id,
        { response_time: outcome.responseTime, test_time: outcome.testTime, other_info: JSON.stringify(info) },
        trx,
      );
    });
  }

  async updateMany(ids: number[], changes: ChannelUpdate): Promise<number> {
    const count = await this.db.inTransaction(async (trx) => {
      for (const id of ids) {
        await this.channels.update(id, changes, trx);
        await this.syncAbilities(trx, id);
      }
      return ids.length;
    });
    if (count) await this.changed();
    return count;
  }

  async delete(ids: number[]): Promise<number> {
    const count = await this.db.inTransaction((trx) => this.channels.deleteIn(trx, ids));
    if (count) await this.changed();
    return count;
  }

  async deleteDisabled(): Promise<number> {
    const count = await this.db.inTransaction(async (trx) => {
      const ids = await this.channels.idsWithStatusOtherThan(ChannelStatus.Enabled, trx);
      return this.channels.deleteIn(trx, ids);
    });
    if (count) await this.changed();
    return count;
  }

  /** Rebuilds the whole abilities table from channels (`POST /api/channel/fix`). */
  async rebuildAbilities(): Promise<{ success: number; fails: number }> {
    const all = await this.channels.all();
    // All or nothing: a half-rebuilt index would route requests to the wrong channels.
    await this.db.inTransaction(async (trx) => {
      await this.abilities.deleteAll(trx);
      for (const channel of all) await this.abilities.replaceForChannel(trx, channel);
    });
    await this.changed();
    return { success: all.length, fails: 0 };
  }

  key(channel: ChannelRow): string {
    return this.box.open(channel.key);
  }

  private async syncAbilities(trx: Trx, id: number): Promise<ChannelRow> {
    const row = (await this.channels.findById(id, trx))!;
    await this.abilities.replaceForChannel(trx, row);
    return row;
  }
}

export function parseInfo(text: string | null): Record<string, unknown> {
  try {
    const value = JSON.parse(text ?? '{}');
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}
