import type { CacheUsageView } from '@gateway/shared';
import { Alert, Card, Empty, Progress, Skeleton, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCacheUsage } from '../api/use-cache-usage';
import type { DetailQuery } from '../types';

/** The share of prompt tokens the upstream served from its cache (0 when there were none). */
export function hitRate(row: Pick<CacheUsageView, 'prompt_tokens' | 'cached_tokens'>): number {
  return row.prompt_tokens > 0 ? Math.min(1, row.cached_tokens / row.prompt_tokens) : 0;
}

/**
 * Prompt-cache hit rate per key and model: agents pay a fraction for cached input, so a low rate on a busy key says
 * the cache is being missed (another channel each turn, a prefix that changes). From the call logs of the range.
 */
export function CacheHitTable({ query, admin }: { query: DetailQuery; admin: boolean }) {
  const { t, i18n } = useTranslation();
  const usage = useCacheUsage(query, admin, true);
  const number = (value: number) => value.toLocaleString(i18n.language);
  const columns: TableColumnsType<CacheUsageView> = [
    { title: t('cache_usage.col_key'), dataIndex: 'token_name', render: (name: string) => name || '—' },
    { title: t('cache_usage.col_model'), dataIndex: 'model_name', render: (model: string) => <Tag>{model}</Tag> },
    { title: t('cache_usage.col_requests'), dataIndex: 'requests', align: 'right', render: number },
    { title: t('cache_usage.col_prompt'), dataIndex: 'prompt_tokens', align: 'right', render: number },
    { title: t('cache_usage.col_cached'), dataIndex: 'cached_tokens', align: 'right', render: number },
    {
      title: t('cache_usage.col_rate'),
      key: 'rate',
      width: 160,
      render: (_: unknown, row) => (
        <Progress
          percent={Math.round(hitRate(row) * 100)}
          size="small"
          status="normal"
          aria-label={t('cache_usage.col_rate')}
        />
      ),
    },
  ];
  return (
    <Card
      title={t('cache_usage.title')}
      extra={<Typography.Text type="secondary">{t('cache_usage.hint')}</Typography.Text>}
      data-testid="cache-hit-table"
    >
      {usage.isError ? (
        <Alert type="error" showIcon title={(usage.error as Error).message} />
      ) : !usage.data ? (
        <Skeleton active paragraph={{ rows: 3 }} />
      ) : usage.data.length === 0 ? (
        <Empty description={t('cache_usage.empty')} />
      ) : (
        <Table
          rowKey={(row) => `${row.token_name}\u0000${row.model_name}`}
          columns={columns}
          dataSource={usage.data}
          pagination={false}
          size="small"
          scroll={{ x: 'max-content' }}
        />
      )}
    </Card>
  );
}
