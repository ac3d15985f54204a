import type { ModelHealthView } from '@gateway/shared';
import { Flex, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

function rateColor(rate: number): string {
  if (rate >= 0.99) return 'green';
  if (rate >= 0.9) return 'gold';
  return 'red';
}

/**
 * How a model did on this gateway in the last hour: success rate, median time to first token and generation speed;
 * a model nobody called says so. `loading` while the figures are on their way (nothing is claimed yet).
 */
export function ModelHealthCell({ health, loading }: { health: ModelHealthView | undefined; loading: boolean }) {
  const { t, i18n } = useTranslation();
  if (loading) return <Typography.Text type="secondary">…</Typography.Text>;
  if (!health || health.requests === 0) {
    return (
      <Typography.Text type="secondary" data-testid="model-health-idle">
        {t('model_health.idle')}
      </Typography.Text>
    );
  }
  const number = (value: number, digits = 0) =>
    value.toLocaleString(i18n.language, { maximumFractionDigits: digits, minimumFractionDigits: digits });
  return (
    <Tooltip title={t('model_health.detail', { count: health.requests })}>
      <Flex gap={4} wrap data-testid="model-health">
        {health.success_rate !== null && (
          <Tag color={rateColor(health.success_rate)} variant="filled">
            {t('model_health.success', { rate: number(health.success_rate * 100, health.success_rate < 1 ? 1 : 0) })}
          </Tag>
        )}
        {health.ttft_p50_ms !== null && (
          <Tag variant="filled">{t('model_health.ttft', { seconds: number(health.ttft_p50_ms / 1000, 2) })}</Tag>
        )}
        {health.tokens_per_second !== null && (
          <Tag variant="filled">{t('model_health.speed', { speed: number(health.tokens_per_second, 0) })}</Tag>
        )}
      </Flex>
    </Tooltip>
  );
}
