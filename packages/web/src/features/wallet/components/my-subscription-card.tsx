import { ReloadOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Flex, Select, Skeleton, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { SubscriptionUsage, subscriptionStatusColor } from '../../../components/subscription/subscription-usage';
import { notify } from '../../../lib/notify';
import { BILLING_PREFERENCE_CHOICES, type BillingPreference } from '../../../lib/subscriptions';
import { useBillingPreference, useSubscriptionSelf } from '../api/use-subscription';

/**
 * My subscriptions: each active one with the quota left this period, when it starts again and when it ends; and
 * which balance a call is charged to first (the billing preference). Hidden for someone who never subscribed.
 */
export function MySubscriptionCard() {
  const { t } = useTranslation();
  const self = useSubscriptionSelf();
  const preference = useBillingPreference();
  const active = self.data?.subscriptions ?? [];
  const everSubscribed = (self.data?.all_subscriptions ?? []).length > 0 || active.length > 0;

  if (self.isSuccess && !everSubscribed) return null;

  const change = (value: BillingPreference) =>
    preference.mutate(value, {
      onSuccess: () => notify.success(t('subscription.preference_saved')),
    });

  return (
    <Card
      className="wallet-card"
      title={
        <Flex align="center" gap={8}>
          <SafetyCertificateOutlined />
          {t('subscription.mine_title')}
        </Flex>
      }
      extra={
        <Tooltip title={t('wallet.refresh')}>
          <Button
            type="text"
            icon={<ReloadOutlined />}
            aria-label={t('wallet.refresh')}
            loading={self.isFetching}
            onClick={() => void self.refetch()}
          />
        </Tooltip>
      }
      data-testid="wallet-my-subscription"
    >
      {self.isPending ? (
        <Skeleton active paragraph={{ rows: 3 }} />
      ) : self.isError ? (
        <Alert type="error" showIcon title={(self.error as Error).message} />
      ) : (
        <Flex vertical gap={16}>
          {active.length === 0 ? (
            <Alert type="info" showIcon title={t('subscription.none_active')} />
          ) : (
            active.map(({ subscription, plan }) => (
              <Flex vertical gap={6} key={subscription.id} data-testid={`wallet-subscription-${subscription.id}`}>
                <Flex justify="space-between" align="center" gap={8} wrap>
                  <Typography.Text strong>
                    {plan?.title ?? t('subscription.plan_number', { id: subscription.plan_id })}
                  </Typography.Text>
                  <Tag color={subscriptionStatusColor(subscription.status)} style={{ marginInlineEnd: 0 }}>
                    {t(`subscription.status_${subscription.status}`, { defaultValue: subscription.status })}
                  </Tag>
                </Flex>
                <SubscriptionUsage subscription={subscription} />
              </Flex>
            ))
          )}
          <div>
            <label className="wallet-label" htmlFor="billing-preference">
              {t('subscription.preference')}
            </label>
            <Select<BillingPreference>
              id="billing-preference"
              value={self.data?.billing_preference ?? 'subscription_first'}
              onChange={change}
              loading={preference.isPending}
              disabled={preference.isPending}
              style={{ width: '100%' }}
              options={BILLING_PREFERENCE_CHOICES.map((value) => ({
                value,
                label: t(`subscription.preference_${value}`),
              }))}
              data-testid="billing-preference"
            />
            <Typography.Text type="secondary" className="wallet-plan-help">
              {t(`subscription.preference_${self.data?.billing_preference ?? 'subscription_first'}_help`)}
            </Typography.Text>
          </div>
        </Flex>
      )}
    </Card>
  );
}
