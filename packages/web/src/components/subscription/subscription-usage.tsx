import { Flex, Progress, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useFormatQuota } from '../../hooks/use-format-quota';
import { quotaLeft, type SubscriptionRecord, usedPercent } from '../../lib/subscriptions';
import './subscription.css';

export function formatMoment(seconds: number): string {
  return dayjs.unix(seconds).format('YYYY-MM-DD HH:mm');
}

/**
 * A subscription's period quota as a bar (what is left of it, in the operator's quota display), when it starts
 * again and when the subscription ends: the wallet and the admin's user page show it the same way.
 */
export function SubscriptionUsage({ subscription }: { subscription: SubscriptionRecord }) {
  const { t } = useTranslation();
  const formatQuota = useFormatQuota();
  const percent = usedPercent(subscription);
  const left = quotaLeft(subscription);
  const active = subscription.status === 'active';
  return (
    <Flex vertical gap={4} className="subscription-usage" data-testid="subscription-usage">
      <Flex justify="space-between" gap={8} wrap>
        <Typography.Text type="secondary">{t('subscription.left_this_period')}</Typography.Text>
        <Typography.Text strong data-testid="subscription-left">
          {t('subscription.left_of', { left: formatQuota(left), total: formatQuota(subscription.amount_total) })}
        </Typography.Text>
      </Flex>
      <Progress
        percent={100 - percent}
        showInfo={false}
        status={active ? (percent >= 90 ? 'exception' : 'normal') : 'normal'}
        strokeColor={active ? undefined : 'var(--subscription-inactive)'}
        aria-label={t('subscription.left_this_period')}
      />
      <dl className="subscription-facts">
        <dt>{t('subscription.used')}</dt>
        <dd data-testid="subscription-used">{formatQuota(subscription.amount_used)}</dd>
        {active && (
          <>
            {/* No boundary left: the plan never resets, or its last period runs to its end. */}
            <dt>{t('subscription.next_reset')}</dt>
            <dd>
              {subscription.next_reset_time > 0
                ? formatMoment(subscription.next_reset_time)
                : t('subscription.no_reset')}
            </dd>
          </>
        )}
        <dt>{t('subscription.ends')}</dt>
        <dd>{subscription.end_time > 0 ? formatMoment(subscription.end_time) : t('subscription.never_ends')}</dd>
      </dl>
    </Flex>
  );
}

const STATUS_COLORS: Record<string, string> = { active: 'green', expired: 'default', cancelled: 'red' };

export function subscriptionStatusColor(status: string): string {
  return STATUS_COLORS[status] ?? 'default';
}
