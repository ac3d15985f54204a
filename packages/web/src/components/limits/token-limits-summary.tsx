import { Flex, Progress, Tag, Tooltip, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useFormatQuota } from '../../hooks/use-format-quota';
import type { TokenLimits } from './limit-types';

/**
 * A token's limits on the list: one small tag per limit of its own, and the budget as used / limit with a bar that
 * turns red when spent (its reset time on hover). "None" when the token has neither.
 */
export function TokenLimitsSummary({ token }: { token: Partial<TokenLimits> }) {
  const { t } = useTranslation();
  const formatQuota = useFormatQuota();
  const tags = [
    token.rpm_limit ? t('limits.tag_rpm', { value: token.rpm_limit }) : null,
    token.tpm_limit ? t('limits.tag_tpm', { value: token.tpm_limit }) : null,
    token.concurrency_limit ? t('limits.tag_concurrency', { value: token.concurrency_limit }) : null,
  ].filter((tag): tag is string => tag !== null);
  const budget = token.budget_period ? { ...token, period: token.budget_period } : null;
  if (tags.length === 0 && !budget) return <Typography.Text type="secondary">{t('limits.none')}</Typography.Text>;
  const used = budget?.budget_used ?? 0;
  const quota = budget?.budget_quota ?? 0;
  const percent = budget ? Math.min(100, (used / Math.max(1, quota)) * 100) : 0;
  return (
    <Flex vertical gap={4} className="token-limits" data-testid="token-limits">
      {tags.length > 0 && (
        <Flex gap={4} wrap>
          {tags.map((tag) => (
            <Tag key={tag} variant="filled" style={{ marginInlineEnd: 0 }}>
              {tag}
            </Tag>
          ))}
        </Flex>
      )}
      {budget && (
        <Tooltip
          title={t('limits.budget_resets', {
            time: dayjs.unix(budget.budget_reset_time ?? 0).format('YYYY-MM-DD HH:mm'),
          })}
        >
          <div>
            <Typography.Text className="nowrap">
              {t('limits.budget_used', {
                period: t(`limits.period_${budget.period}`),
                used: formatQuota(used),
                limit: formatQuota(quota),
              })}
            </Typography.Text>
            <Progress
              percent={percent}
              size="small"
              showInfo={false}
              status={percent >= 100 ? 'exception' : 'normal'}
              aria-label={t('limits.budget_period')}
            />
          </div>
        </Tooltip>
      )}
    </Flex>
  );
}
