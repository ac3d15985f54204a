import { ChannelStatus, parseJsonObjectField, resolveModelMapping, splitModels } from '@gateway/shared';
import type { OptionsStore } from '../../cache/options-store.js';
import type { ChannelsRepo } from '../../db/repos/channels.js';
import type { ChannelRow } from '../../db/schema.js';
import { nowSeconds } from '../../db/sql-helpers.js';
import type { ChannelWriter } from '../../services/channels/channel-writer.js';
import { shouldDisableChannel } from '../auto-disable.js';
import { redactChannelKeys } from '../errors.js';
import { modelSuffixOf } from '../model-suffix.js';
import { providerFor } from '../providers/registry.js';
import { sendUpstream } from '../send.js';
import type { UpstreamError } from '../types.js';
import { answerDetail, describeFailure, writtenForClient } from '../upstream-failure.js';
import { testRequestFor } from './channel-test-request.js';
import { runtimeChannel } from './runtime-channel.js';

export interface ChannelTestResult {
  success: boolean;
  message: string;
  /** Seconds, like the family's answer. */
  time: number;
  model: string;
  statusChanged?: 'disabled' | 'enabled';
}

const TEST_TIMEOUT_MS = 60_000;
/** The stored reason is for a tooltip: an upstream's whole HTML error page would only bloat the channel row. */
const FAILURE_REASON_LENGTH = 500;

/** Every key line of a multi-key channel, not only the one the test used: any of them could be echoed back. */
function allKeys(channel: ChannelRow, deps: { writer: ChannelWriter }): string[] {
  return deps.writer
    .key(channel)
    .split('\n')
    .map((key) => key.trim())
    .filter(Boolean);
}

export function testModelOf(channel: ChannelRow, requested: string): string {
  return requested || channel.test_model?.trim() || splitModels(channel.models ?? '')[0] || 'gpt-4o-mini';
}

/**
 * Sends one minimal request on the endpoint the model serves (chat, embeddings, rerank, images, speech,
 * transcriptions, moderations) through the same provider code the relay uses, records the response time, and
 * applies the automatic disable / enable rules.
 */
export async function testChannel(
  channel: ChannelRow,
  requestedModel: string,
  deps: { writer: ChannelWriter; channels: ChannelsRepo; options: OptionsStore },
): Promise<ChannelTestResult> {
  const model = testModelOf(channel, requestedModel);
  const provider = providerFor(channel.type);
  if (!provider) return { success: false, message: 'channel_test_unsupported', time: 0, model };
  const mapping = parseJsonObjectField(channel.model_mapping);
  const mapped =
    mapping.ok && mapping.value ? resolveModelMapping(mapping.value as Record<string, string>, model) : null;
  const upstreamModel = mapped && 'model' in mapped ? mapped.model : model;
  const runtime = runtimeChannel(channel, deps.writer);
  // The same reading of a suffixed name as the relay's (pipeline.ts): the upstream never sees the suffix.
  const suffix = modelSuffixOf(upstreamModel, provider.suffixDialect?.(upstreamModel), deps.options);
  const test = testRequestFor(provider, runtime, upstreamModel, suffix, deps.options);
  if (!test) return { success: false, message: 'channel_test_unsupported', time: 0, model };
  const started = performance.now();
  let failure: UpstreamError | null = null;
  try {
    const { call } = test;
    const response = provider.open
      ? await provider.open(call, runtime, { timeoutMs: TEST_TIMEOUT_MS, stream: false })
      : await sendUpstream(call, { timeoutMs: TEST_TIMEOUT_MS });
    const text = await response.body.text();
    // The result is for the admin: what the upstream said, or what it sent instead (status and body).
    if (response.statusCode >= 200 && response.statusCode < 300) {
      try {
        test.check(text);
      } catch {
        const message = `bad_response_body: ${answerDetail(response.statusCode, text, runtime)}`;
        failure = { status: 502, message, type: 'bad_response_body', code: null };
      }
    } else {
      failure = provider.error(response.statusCode, text);
      if (!writtenForClient(failure, text)) failure.message = answerDetail(response.statusCode, text, runtime);
    }
  } catch (error) {
    failure = { status: 0, message: describeFailure(error), type: 'network_error', code: null };
  }
  const elapsedMs = Math.round(performance.now() - started);
  // The upstream's own error text can quote the key it was sent (OpenAI's "Incorrect API key provided: sk-…"),
  // and describeFailure is not redacted: blank every key of the channel before the message is shown or stored.
  if (failure) failure.message = redactChannelKeys(failure.message, { key: runtime.key, keys: allKeys(channel, deps) });
  // A failed test has no meaningful latency: 0 makes the console show "no time" instead of a fast green tag.
  // Its reason is kept (bounded) so the console still shows why after a reload.
  await deps.writer.recordTest(channel.id, {
    responseTime: failure ? 0 : elapsedMs,
    testTime: nowSeconds(),
    failure: failure ? failure.message.slice(0, FAILURE_REASON_LENGTH) : null,
  });
  const result: ChannelTestResult = {
    success: failure === null,
    message: failure?.message ?? '',
    time: elapsedMs / 1000,
    model,
  };
  const autoDisable = deps.options.bool('AutomaticDisableChannelEnabled') && channel.auto_ban === 1;
  const thresholdMs = deps.options.number('ChannelDisableThreshold') * 1000;
  if (failure && autoDisable && channel.status === ChannelStatus.Enabled) {
    if (shouldDisableChannel(failure, provider, deps.options.get('AutomaticDisableKeywords'))) {
      await deps.writer.setStatus(channel.id, ChannelStatus.AutoDisabled, failure.message);
      result.statusChanged = 'disabled';
    }
  } else if (
    !failure &&
    autoDisable &&
    thresholdMs > 0 &&
    elapsedMs > thresholdMs &&
    channel.status === ChannelStatus.Enabled
  ) {
    await deps.writer.setStatus(
      channel.id,
      ChannelStatus.AutoDisabled,
      `response time ${elapsedMs} ms > ${thresholdMs} ms`,
    );
    result.statusChanged = 'disabled';
  } else if (
    !failure &&
    channel.status === ChannelStatus.AutoDisabled &&
    deps.options.bool('AutomaticEnableChannelEnabled') &&
    (thresholdMs === 0 || elapsedMs <= thresholdMs)
  ) {
    // Only channels the system disabled come back by themselves; a manual disable (status 2) is the admin's call.
    await deps.writer.setStatus(channel.id, ChannelStatus.Enabled);
    result.statusChanged = 'enabled';
  }
  return result;
}
