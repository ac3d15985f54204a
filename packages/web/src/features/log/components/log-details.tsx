import { LogType } from '@gateway/shared';
import { Alert, Descriptions, type DescriptionsProps, Flex, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatQuota } from '../../../hooks/use-format-quota';
import { useIsMobile } from '../../../lib/use-media-query';
import { fallbackChain, firstTokenMs, isCallLog, mappedModel, retryChain } from '../log-view';
import type { LogOther } from '../types';
import { useLogContent } from '../use-log-content';
import { LogBodiesSection } from './log-bodies';
import type { LogRow } from './log-cells';

// Fields shown in their own words below; anything else in `other` is listed as it came.
const KNOWN_FIELDS = new Set([
  'content_key',
  'content_params',
  'model_ratio',
  'completion_ratio',
  'group_ratio',
  'cache_tokens',
  'cache_ratio',
  'cache_creation_tokens',
  'model_price',
  'frt',
  'is_model_mapped',
  'upstream_model_name',
  'local_count',
  'stream_status',
  'admin_info',
  'status_code',
  'error_code',
  'requested_model',
  'fallback_chain',
  // Already rendered into the content by the server, in the reader's language.
  'message_code',
  'message_params',
]);

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

function rawValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The readable form of a log row's `other` JSON, plus its content, request id and notes. */
export function LogDetails({ log, admin }: { log: LogRow; admin: boolean }) {
  const { t } = useTranslation();
  const content = useLogContent()(log);
  const isMobile = useIsMobile();
  const other: LogOther = log.parsed;
  const items: NonNullable<DescriptionsProps['items']> = [];
  const add = (key: string, label: string, children: ReactNode) => items.push({ key, label, children });
  const formatQuota = useFormatQuota();

  // The cost first: on a narrow table it is the column most likely to be out of view.
  if (isCallLog(log) || log.quota) {
    add(
      'quota',
      t('log.col_quota'),
      <span data-testid="log-details-quota">
        {formatQuota(log.quota)} <Typography.Text type="secondary">({log.quota})</Typography.Text>
      </span>,
    );
  }

  if (isNumber(other.model_price) && other.model_price >= 0) {
    add('model_price', t('log.detail_billing'), t('log.detail_per_call', { price: other.model_price }));
  } else if (isNumber(other.model_ratio)) {
    add('model_ratio', t('log.detail_model_ratio'), other.model_ratio);
    if (isNumber(other.completion_ratio))
      add('completion_ratio', t('log.detail_completion_ratio'), other.completion_ratio);
  }
  if (isNumber(other.group_ratio)) add('group_ratio', t('log.detail_group_ratio'), other.group_ratio);
  if (isNumber(other.cache_tokens) && other.cache_tokens > 0) {
    add(
      'cache_tokens',
      t('log.detail_cache_tokens'),
      isNumber(other.cache_ratio)
        ? t('log.detail_cache_value', { tokens: other.cache_tokens, ratio: other.cache_ratio })
        : other.cache_tokens,
    );
  }
  if (isNumber(other.cache_creation_tokens) && other.cache_creation_tokens > 0) {
    add('cache_creation_tokens', t('log.detail_cache_creation'), other.cache_creation_tokens);
  }
  const upstream = mappedModel(log, other);
  if (upstream) add('mapping', t('log.detail_mapping'), `${log.model_name} → ${upstream}`);
  const frt = firstTokenMs(other);
  if (frt !== null) add('frt', t('log.first_token'), t('log.detail_ms', { value: frt }));
  if (log.type === LogType.Error) {
    if (other.status_code !== undefined) add('status_code', t('log.detail_status_code'), String(other.status_code));
    if (other.error_code !== undefined && other.error_code !== '') {
      add('error_code', t('log.detail_error_code'), <Typography.Text code>{String(other.error_code)}</Typography.Text>);
    }
  }
  // A fallback served (or failed after trying) other models than the one asked for: the user paid for what served.
  if (typeof other.requested_model === 'string' && other.requested_model) {
    add('requested_model', t('log.detail_requested_model'), other.requested_model);
  }
  const models = fallbackChain(other);
  if (models) add('fallback_chain', t('log.detail_fallback_chain'), models.join(' → '));
  const chain = admin ? retryChain(other) : null;
  if (chain) add('retry', t('log.col_retry'), chain.join(' → '));
  if (log.request_id) {
    add('request_id', t('log.detail_request_id'), <Typography.Text copyable>{log.request_id}</Typography.Text>);
  }
  if (log.ip) add('ip', t('log.detail_ip'), log.ip);
  for (const [key, value] of Object.entries(other)) {
    if (!KNOWN_FIELDS.has(key) && value !== null && value !== undefined && value !== '') {
      add(`raw-${key}`, key, <span className="mono-text">{rawValue(value)}</span>);
    }
  }

  return (
    <Flex vertical gap={8} className="log-details" data-testid="log-details">
      {content && (
        <Typography.Paragraph className="log-details-content" style={{ margin: 0 }}>
          {content}
        </Typography.Paragraph>
      )}
      {other.local_count && <Alert type="info" showIcon title={t('log.note_local_count')} />}
      {other.stream_status && (
        <Alert type="warning" showIcon title={t('log.note_stream_status', { status: other.stream_status })} />
      )}
      {items.length > 0 && (
        <Descriptions
          size="small"
          bordered={!isMobile}
          column={isMobile ? 1 : 3}
          items={items}
          className="log-details-grid"
        />
      )}
      {!content && items.length === 0 && <Typography.Text type="secondary">{t('log.detail_none')}</Typography.Text>}
      {admin && <LogBodiesSection logId={log.id} />}
    </Flex>
  );
}
