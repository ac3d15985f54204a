import { ReloadOutlined } from '@ant-design/icons';
import type { MetricsSummary } from '@gateway/shared';
import { Alert, Button, Card, Skeleton, Statistic, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useFormatQuota } from '../../../hooks/use-format-quota';
import { useMetricsSummary } from '../api/use-metrics-summary';

const seconds = (value: number | null) => (value === null ? '—' : `${(value * 1000).toFixed(0)} ms`);

/**
 * Root's view of the figures `/metrics` gives Prometheus, for this node since it started: requests and how they
 * ended, retries and upstream errors, latency and time to first token, tokens, quota and memory.
 */
export function GatewayFigures() {
  const { t, i18n } = useTranslation();
  const formatQuota = useFormatQuota();
  const summary = useMetricsSummary(true);
  const number = (value: number) => value.toLocaleString(i18n.language);
  const figures = (data: MetricsSummary) => {
    const total = data.requests.success + data.requests.error + data.requests.cancelled;
    const errorRate = total === 0 ? 0 : (data.requests.error / total) * 100;
    return [
      { key: 'requests', value: number(total) },
      { key: 'error_rate', value: `${errorRate.toFixed(1)} %` },
      { key: 'retries', value: number(data.retries) },
      { key: 'upstream_errors', value: number(data.upstream_errors) },
      { key: 'latency_p50', value: seconds(data.latency.p50) },
      { key: 'latency_p95', value: seconds(data.latency.p95) },
      { key: 'first_token_p50', value: seconds(data.first_token.p50) },
      { key: 'tokens', value: number(data.tokens.prompt + data.tokens.completion) },
      { key: 'quota', value: formatQuota(data.quota) },
      { key: 'memory', value: `${(data.memory_rss_bytes / 1024 / 1024).toFixed(0)} MiB` },
    ];
  };

  return (
    <Card
      size="small"
      title={t('detail.node_title')}
      extra={
        summary.data && (
          <Typography.Text type="secondary">
            {t('detail.node_since', {
              node: summary.data.node,
              since: dayjs.unix(summary.data.started_at).format('YYYY-MM-DD HH:mm'),
            })}
          </Typography.Text>
        )
      }
      data-testid="gateway-figures"
    >
      {summary.isError ? (
        <Alert
          type="error"
          showIcon
          message={(summary.error as Error).message || t('detail.load_failed')}
          action={
            <Button size="small" icon={<ReloadOutlined />} onClick={() => void summary.refetch()}>
              {t('common.retry')}
            </Button>
          }
        />
      ) : !summary.data ? (
        <Skeleton active title={false} paragraph={{ rows: 2 }} />
      ) : (
        <div className="detail-node-figures">
          {figures(summary.data).map((figure) => (
            <Statistic
              key={figure.key}
              title={t(`detail.node_${figure.key}`)}
              value={figure.value}
              data-testid={`gateway-figure-${figure.key}`}
            />
          ))}
        </div>
      )}
    </Card>
  );
}
