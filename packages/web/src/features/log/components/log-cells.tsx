import { Avatar, Space, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  durationColor,
  firstTokenColor,
  firstTokenMs,
  formatLogTime,
  isCallLog,
  logTypeInfo,
  mappedModel,
  retryChain,
} from '../log-view';
import type { LogItem, LogOther } from '../types';

/** A row with its `other` column parsed once. */
export interface LogRow extends LogItem {
  parsed: LogOther;
}

/** Date over time in the table (narrow column); one line in the phone cards. */
export function TimeCell({ log, stacked = false }: { log: LogRow; stacked?: boolean }) {
  const text = formatLogTime(log.created_at);
  if (!stacked) return <span className="nowrap">{text}</span>;
  const [date, time] = text.split(' ');
  return (
    <span className="log-time">
      <span>{date}</span>
      <span>{time}</span>
    </span>
  );
}

export function TypeTag({ type }: { type: number }) {
  const { t } = useTranslation();
  const info = logTypeInfo(type);
  return (
    <Tag color={info.color} variant="filled" data-testid="log-type">
      {t(info.labelKey)}
    </Tag>
  );
}

export function ChannelCell({ log, stacked = false }: { log: LogRow; stacked?: boolean }) {
  if (!log.channel) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <Space size={stacked ? 2 : 4} orientation={stacked ? 'vertical' : 'horizontal'} className="log-channel">
      <Tag variant="filled" color="blue" style={{ marginInlineEnd: 0 }}>
        {log.channel}
      </Tag>
      {log.channel_name && (
        <Typography.Text ellipsis={{ tooltip: log.channel_name }} className="log-channel-name" style={{ maxWidth: 90 }}>
          {log.channel_name}
        </Typography.Text>
      )}
    </Space>
  );
}

export function UserCell({ log, onOpen }: { log: LogRow; onOpen: (log: LogRow) => void }) {
  const { t } = useTranslation();
  const name = log.username || String(log.user_id);
  return (
    <Tooltip title={t('log.open_user', { name })}>
      <button
        type="button"
        className="log-user-button"
        onClick={() => onOpen(log)}
        aria-label={t('log.open_user', { name })}
      >
        <Avatar size="small" className="log-user-avatar">
          {name.charAt(0).toUpperCase()}
        </Avatar>
        <span className="log-user-name">{name}</span>
      </button>
    </Tooltip>
  );
}

export function ModelCell({ log }: { log: LogRow }) {
  if (!log.model_name) return null;
  const upstream = mappedModel(log, log.parsed);
  if (!upstream) {
    return (
      <Tag variant="filled" className="log-model-tag">
        {log.model_name}
      </Tag>
    );
  }
  return (
    <span className="log-model" data-testid="log-model-mapped">
      <Tag variant="filled" className="log-model-tag">
        {log.model_name}
      </Tag>
      <span className="log-model-upstream">
        <span aria-hidden>→ </span>
        <Tag variant="filled" color="geekblue" className="log-model-tag">
          {upstream}
        </Tag>
      </span>
    </span>
  );
}

/** Duration, stream flag and first-token time, each coloured by the spec's thresholds. */
export function TimingCell({ log }: { log: LogRow }) {
  const { t } = useTranslation();
  if (!isCallLog(log)) return null;
  const frt = firstTokenMs(log.parsed);
  return (
    <Space size={[4, 4]} wrap className="log-timing">
      <Tag color={durationColor(log.use_time)} variant="filled" data-testid="log-duration">
        {t('log.seconds', { value: log.use_time })}
      </Tag>
      {log.is_stream ? (
        <Tag color="blue" variant="outlined">
          {t('log.stream')}
        </Tag>
      ) : (
        <Tag variant="outlined">{t('log.non_stream')}</Tag>
      )}
      {frt !== null && (
        <Tooltip title={t('log.first_token')}>
          <Tag color={firstTokenColor(frt)} variant="filled" data-testid="log-frt">
            {frt < 1000
              ? t('log.first_token_ms', { value: Math.round(frt) })
              : t('log.first_token_short', { value: (frt / 1000).toFixed(1) })}
          </Tag>
        </Tooltip>
      )}
    </Space>
  );
}

export function RetryCell({ log }: { log: LogRow }) {
  const { t } = useTranslation();
  const chain = retryChain(log.parsed);
  if (!chain) return null;
  return (
    <Typography.Text type="warning" className="nowrap" data-testid="log-retry">
      {t('log.retry_chain', { chain: chain.join('→') })}
    </Typography.Text>
  );
}

export function TokenTag({ name }: { name: string }) {
  if (!name) return null;
  return (
    <Tag variant="outlined" className="log-token-tag">
      {name}
    </Tag>
  );
}

export function GroupTag({ group }: { group: string }) {
  if (!group) return null;
  return (
    <Tag variant="filled" color="gold">
      {group}
    </Tag>
  );
}
