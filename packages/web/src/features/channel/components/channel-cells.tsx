import { ChannelStatus, channelType } from '@gateway/shared';
import { InputNumber, Space, Tag, Tooltip, Typography } from 'antd';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatQuota } from '../../../hooks/use-format-quota';
import { notify } from '../../../lib/notify';
import { autoDisableInfo, channelWatch, latencyColor, testFailureInfo } from '../channel-view';
import type { Channel } from '../types';

export function ChannelTypeTag({ type }: { type: number }) {
  const { t } = useTranslation();
  const info = channelType(type);
  return (
    <Tag color={info?.color ?? 'default'} variant="filled">
      {info?.label ?? t('channel.type_unknown', { type })}
    </Tag>
  );
}

export function GroupTags({ groups }: { groups: string[] }) {
  return (
    <Space size={[2, 4]} wrap>
      {groups.map((group) => (
        <Tag key={group} variant="filled" color="blue">
          {group}
        </Tag>
      ))}
    </Space>
  );
}

/** The channel's status, and whether it reaches the Responses API through chat for now (its upstream lacks it). */
export function ChannelStatusTag({ channel }: { channel: Channel }) {
  const until = channel.responses_via_chat_until;
  const watch = channelWatch(channel);
  const changes = watch.detected.length + watch.removed.length;
  if (!until && !changes) return <StatusTag channel={channel} />;
  return (
    <Space size={4} wrap>
      <StatusTag channel={channel} />
      {until ? <ResponsesViaChatTag until={until} /> : null}
      {changes ? <UpstreamChangesTag detected={watch.detected} removed={watch.removed} /> : null}
    </Space>
  );
}

/** What the upstream model watch found and nobody settled yet (the channel's more menu settles it). */
function UpstreamChangesTag({ detected, removed }: { detected: string[]; removed: string[] }) {
  const { t } = useTranslation();
  const title = (
    <div>
      {detected.length > 0 && (
        <div>
          {t('upstream_watch.detected', { count: detected.length })}: {detected.join(', ')}
        </div>
      )}
      {removed.length > 0 && (
        <div>
          {t('upstream_watch.removed', { count: removed.length })}: {removed.join(', ')}
        </div>
      )}
    </div>
  );
  return (
    <Tooltip title={title}>
      <Tag color="blue" variant="filled" className="clickable-tag" data-testid="upstream-changes">
        {t('upstream_watch.changes', { count: detected.length + removed.length })}
      </Tag>
    </Tooltip>
  );
}

function ResponsesViaChatTag({ until }: { until: number }) {
  const { t } = useTranslation();
  return (
    <Tooltip title={t('upstream_protocol.via_chat_detail', { time: dayjs.unix(until).format('HH:mm') })}>
      <Tag color="gold" variant="filled" className="clickable-tag" data-testid="responses-via-chat">
        {t('upstream_protocol.via_chat')}
      </Tag>
    </Tooltip>
  );
}

function StatusTag({ channel }: { channel: Channel }) {
  const { t } = useTranslation();
  if (channel.status === ChannelStatus.Enabled) {
    return (
      <Tag color="green" variant="filled">
        {t('channel.status_enabled')}
      </Tag>
    );
  }
  if (channel.status === ChannelStatus.ManuallyDisabled) {
    return (
      <Tag color="red" variant="filled">
        {t('channel.status_disabled')}
      </Tag>
    );
  }
  if (channel.status === ChannelStatus.AutoDisabled) {
    const { reason, time } = autoDisableInfo(channel);
    const title = (
      <div data-testid="auto-disabled-detail">
        <div>{t('channel.disabled_reason', { reason: reason || t('channel.disabled_reason_unknown') })}</div>
        {time > 0 && <div>{t('channel.disabled_time', { time: dayjs.unix(time).format('YYYY-MM-DD HH:mm:ss') })}</div>}
      </div>
    );
    return (
      <Tooltip title={title}>
        <Tag color="orange" variant="filled" className="clickable-tag">
          {t('channel.status_auto_disabled')}
        </Tag>
      </Tooltip>
    );
  }
  return <Tag variant="filled">{t('channel.status_unknown')}</Tag>;
}

/**
 * Last test's response time, coloured by speed; clicking tests the channel again. A test that ran and failed records
 * no time: that is a failure (red), not "not tested". Its reason and time come from this page's own test when it ran
 * one, otherwise from what the server stored (other_info), so they survive a reload and show "test all" failures.
 */
export function LatencyTag({
  channel,
  testing,
  failure,
  onTest,
}: {
  channel: Channel;
  testing: boolean;
  /** The reason of the last failed test run from this page, if any. */
  failure?: string;
  onTest: () => void;
}) {
  const { t } = useTranslation();
  const stored = testFailureInfo(channel);
  const tested = channel.response_time > 0 && failure === undefined;
  const failed = !tested && (failure !== undefined || stored.reason !== '' || channel.test_time > 0);
  const color = tested ? latencyColor(channel.response_time) : failed ? 'red' : 'default';
  const label = tested
    ? t('channel.seconds', { value: (channel.response_time / 1000).toFixed(2) })
    : failed
      ? t('channel.last_test_failed')
      : t('channel.not_tested');
  const format = (time: number) => dayjs.unix(time).format('YYYY-MM-DD HH:mm:ss');
  const testedAt =
    channel.test_time > 0 ? t('channel.tested_at', { time: format(channel.test_time) }) : t('channel.click_to_test');
  const failedAt = stored.time || channel.test_time;
  const tip = failed ? (
    <div data-testid="test-failure-detail">
      <div>
        {t('channel.disabled_reason', { reason: failure || stored.reason || t('channel.disabled_reason_unknown') })}
      </div>
      <div>{failedAt > 0 ? t('channel.test_failed_at', { time: format(failedAt) }) : testedAt}</div>
    </div>
  ) : (
    testedAt
  );
  return (
    <Tooltip title={tip}>
      <Tag
        color={color}
        variant="filled"
        className="clickable-tag"
        data-latency={tested ? color : failed ? 'failed' : 'none'}
        role="button"
        tabIndex={0}
        aria-label={t('channel.test_channel', { name: channel.name })}
        aria-busy={testing}
        onClick={onTest}
        onKeyDown={(event) => {
          if (event.key === 'Enter' || event.key === ' ') onTest();
        }}
      >
        {testing ? t('channel.testing') : label}
      </Tag>
    </Tooltip>
  );
}

/** Used quota, and the upstream balance (clicking refreshes it when the type has a balance API). */
export function BalanceCell({
  channel,
  updating,
  onUpdate,
}: {
  channel: Channel;
  updating: boolean;
  onUpdate: () => void;
}) {
  const { t } = useTranslation();
  const formatQuota = useFormatQuota();
  const supported = Boolean(channelType(channel.type)?.balance);
  // A balance never fetched is unknown, not $0.00 (which reads as "empty"); without a balance API it is "—".
  const fetched = supported && channel.balance_updated_time > 0;
  const balanceText = fetched
    ? `$${Number(channel.balance ?? 0).toFixed(2)}`
    : supported
      ? t('channel.balance_unknown')
      : '—';
  const tip = !supported
    ? t('errors:channel_balance_unsupported')
    : fetched
      ? t('channel.balance_updated_at', {
          time: dayjs.unix(channel.balance_updated_time).format('YYYY-MM-DD HH:mm:ss'),
        })
      : t('channel.balance_never_fetched');
  return (
    <Space size={2} orientation="vertical" className="balance-cell">
      <Tooltip title={t('channel.used_quota')}>
        <Tag variant="filled">{t('channel.used', { value: formatQuota(channel.used_quota) })}</Tag>
      </Tooltip>
      <Tooltip title={tip}>
        <Tag
          variant="filled"
          color={fetched ? 'cyan' : 'default'}
          className="clickable-tag"
          role="button"
          tabIndex={0}
          aria-label={t('channel.update_balance_of', { name: channel.name })}
          data-balance={fetched ? 'fetched' : supported ? 'unknown' : 'unsupported'}
          onClick={() => (supported ? onUpdate() : notify.info(t('errors:channel_balance_unsupported')))}
          onKeyDown={(event) => {
            if (event.key === 'Enter') (supported ? onUpdate : () => {})();
          }}
        >
          {updating ? t('channel.updating') : t('channel.remaining', { value: balanceText })}
        </Tag>
      </Tooltip>
    </Space>
  );
}

/** An integer edited in place and saved on blur or Enter, only when it changed and is valid. */
export function InlineNumber({
  value,
  min,
  label,
  invalidMessage,
  onSave,
  placeholder,
}: {
  value: number | null;
  min: number;
  label: string;
  invalidMessage: string;
  onSave: (value: number) => void;
  placeholder?: string;
}) {
  const [draft, setDraft] = useState<number | null>(value);
  useEffect(() => setDraft(value), [value]);

  const commit = () => {
    if (draft === null || draft === value) {
      setDraft(value);
      return;
    }
    if (!Number.isInteger(draft) || draft < min) {
      notify.error(invalidMessage);
      setDraft(value);
      return;
    }
    onSave(draft);
  };

  return (
    <InputNumber
      size="small"
      value={draft}
      min={min}
      precision={0}
      className="inline-number"
      aria-label={label}
      placeholder={placeholder}
      onChange={(next) => setDraft(typeof next === 'number' ? next : null)}
      onBlur={commit}
      onPressEnter={(event) => event.currentTarget.blur()}
    />
  );
}

export function ChannelName({ channel, showTag }: { channel: Channel; showTag: boolean }) {
  return (
    <Space size={4} wrap={false}>
      <Tooltip title={channel.remark || undefined}>
        <Typography.Text strong>{channel.name}</Typography.Text>
      </Tooltip>
      {showTag && channel.tag && (
        <Tag variant="filled" color="purple">
          {channel.tag}
        </Tag>
      )}
    </Space>
  );
}
