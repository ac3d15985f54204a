import { ChannelStatus, type ChannelTestProgressView } from '@gateway/shared';
import type { OptionsStore } from '../../cache/options-store.js';
import type { ChannelsRepo } from '../../db/repos/channels.js';
import type { ChannelWriter } from '../../services/channels/channel-writer.js';
import { testChannel } from './channel-test.js';

/** The progress the console polls (`GET /api/channel/test/progress`): the shape shared with it. */
export type TestAllProgress = ChannelTestProgressView;

/**
 * "Test all channels" runs in the background, one channel after another (a burst of parallel tests would look
 * like abuse to the upstreams); the console polls the progress.
 */
export class ChannelTestRunner {
  private progress: TestAllProgress = {
    running: false,
    total: 0,
    done: 0,
    failed: 0,
    started_at: 0,
    finished_at: 0,
    results: [],
  };

  constructor(private readonly deps: { writer: ChannelWriter; channels: ChannelsRepo; options: OptionsStore }) {}

  status(): TestAllProgress {
    return { ...this.progress, results: [...this.progress.results] };
  }

  /** Starts a run unless one is going; returns whether a new run started. */
  start(): boolean {
    if (this.progress.running) return false;
    this.progress = {
      running: true,
      total: 0,
      done: 0,
      failed: 0,
      started_at: Date.now(),
      finished_at: 0,
      results: [],
    };
    void this.run();
    return true;
  }

  /** Resolves when the current run (if any) has finished. */
  async idle(): Promise<void> {
    while (this.progress.running) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  private async run(): Promise<void> {
    try {
      // Manually disabled channels are the admin's decision: they are not tested.
      const channels = (await this.deps.channels.all()).filter(
        (channel) => channel.status !== ChannelStatus.ManuallyDisabled,
      );
      this.progress.total = channels.length;
      for (const channel of channels) {
        const result = await testChannel(channel, '', this.deps).catch((error: unknown) => ({
          success: false,
          time: 0,
          message: error instanceof Error ? error.message : String(error),
        }));
        this.progress.done++;
        if (!result.success) this.progress.failed++;
        this.progress.results.push({
          id: channel.id,
          name: channel.name,
          success: result.success,
          time: result.time,
          message: result.message,
        });
      }
    } finally {
      this.progress.running = false;
      this.progress.finished_at = Date.now();
    }
  }
}
