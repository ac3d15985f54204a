import { PlusOutlined, ReloadOutlined, StopOutlined, UndoOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Empty, Flex, Popconfirm, Select, Skeleton, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { durationText, periodText } from '../../../components/subscription/plan-text';
import {
  formatMoment,
  SubscriptionUsage,
  subscriptionStatusColor,
} from '../../../components/subscription/subscription-usage';
import { useFormatQuota } from '../../../hooks/use-format-quota';
import { notify } from '../../../lib/notify';
import type { SubscriptionEntry } from '../../../lib/subscriptions';
import { usePlansToGrant, useSubscriptionAction, useUserSubscriptions } from '../api/use-user-subscriptions';

/**
 * One user's subscriptions in the admin's user drawer: each with its period usage; granting a plan (no payment),
 * starting a period again, and ending a subscription now.
 */
export function UserSubscriptions({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const list = useUserSubscriptions(userId);
  const action = useSubscriptionAction(userId);
  const [granting, setGranting] = useState(false);
  const busy = (kind: string, id: number) =>
    action.isPending &&
    action.variables?.kind === kind &&
    ('planId' in action.variables ? action.variables.planId : action.variables.subscriptionId) === id;

  const run = (variables: Parameters<typeof action.mutate>[0], doneKey: string) =>
    action.mutate(variables, { onSuccess: () => notify.success(t(doneKey)) });

  return (
    <section className="user-subscriptions" data-testid="user-subscriptions">
      <Flex justify="space-between" align="center" gap={8} wrap style={{ marginBottom: 8 }}>
        <Typography.Title level={5} style={{ margin: 0 }}>
          {t('subscription.user_section')}
        </Typography.Title>
        <Space size={4}>
          <Button
            size="small"
            icon={<ReloadOutlined />}
            aria-label={t('subscription.refresh')}
            loading={list.isFetching && !list.isPending}
            onClick={() => void list.refetch()}
          />
          <Button
            size="small"
            icon={<PlusOutlined />}
            onClick={() => setGranting((open) => !open)}
            data-testid="user-subscription-add"
          >
            {t('subscription.grant')}
          </Button>
        </Space>
      </Flex>
      {granting && (
        <GrantPlan
          loading={action.isPending && action.variables?.kind === 'grant'}
          onGrant={(planId) =>
            action.mutate(
              { kind: 'grant', planId },
              {
                onSuccess: () => {
                  notify.success(t('subscription.granted'));
                  setGranting(false);
                },
              },
            )
          }
        />
      )}
      {list.isPending ? (
        <Skeleton active paragraph={{ rows: 3 }} />
      ) : list.isError ? (
        <Alert
          type="error"
          showIcon
          title={(list.error as Error).message}
          action={
            <Button size="small" onClick={() => void list.refetch()}>
              {t('common.retry')}
            </Button>
          }
        />
      ) : list.data.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('subscription.user_none')} />
      ) : (
        <Flex vertical gap={8}>
          {list.data.map((entry) => (
            <SubscriptionItem
              key={entry.subscription.id}
              entry={entry}
              resetting={busy('reset', entry.subscription.plan_id)}
              invalidating={busy('invalidate', entry.subscription.id)}
              onReset={() => run({ kind: 'reset', planId: entry.subscription.plan_id }, 'subscription.reset_done')}
              onInvalidate={() =>
                run({ kind: 'invalidate', subscriptionId: entry.subscription.id }, 'subscription.invalidated')
              }
            />
          ))}
        </Flex>
      )}
    </section>
  );
}

function SubscriptionItem({
  entry,
  resetting,
  invalidating,
  onReset,
  onInvalidate,
}: {
  entry: SubscriptionEntry;
  resetting: boolean;
  invalidating: boolean;
  onReset: () => void;
  onInvalidate: () => void;
}) {
  const { t } = useTranslation();
  const { subscription, plan } = entry;
  const active = subscription.status === 'active';
  return (
    <Card size="small" data-testid={`user-subscription-${subscription.id}`}>
      <Flex vertical gap={8}>
        <Flex justify="space-between" align="center" gap={8} wrap>
          <Typography.Text strong>
            {plan?.title ?? t('subscription.plan_number', { id: subscription.plan_id })}
          </Typography.Text>
          <Tag color={subscriptionStatusColor(subscription.status)} style={{ marginInlineEnd: 0 }}>
            {t(`subscription.status_${subscription.status}`, { defaultValue: subscription.status })}
          </Tag>
        </Flex>
        <Typography.Text type="secondary" className="user-subscription-meta">
          {t('subscription.since', { time: formatMoment(subscription.start_time) })}
          {' · '}
          {t(`subscription.source_${subscription.source}`, { defaultValue: subscription.source })}
        </Typography.Text>
        <SubscriptionUsage subscription={subscription} />
        {active && (
          <Flex gap={8} justify="flex-end" wrap>
            <Popconfirm
              title={t('subscription.reset_confirm')}
              description={t('subscription.reset_hint')}
              okText={t('subscription.reset')}
              cancelText={t('ui.cancel')}
              onConfirm={onReset}
            >
              <Button size="small" icon={<UndoOutlined />} loading={resetting} data-testid="user-subscription-reset">
                {t('subscription.reset')}
              </Button>
            </Popconfirm>
            <Popconfirm
              title={t('subscription.invalidate_confirm')}
              description={t('subscription.invalidate_hint')}
              okText={t('subscription.invalidate')}
              okButtonProps={{ danger: true }}
              cancelText={t('ui.cancel')}
              onConfirm={onInvalidate}
            >
              <Button
                size="small"
                danger
                icon={<StopOutlined />}
                loading={invalidating}
                data-testid="user-subscription-invalidate"
              >
                {t('subscription.invalidate')}
              </Button>
            </Popconfirm>
          </Flex>
        )}
      </Flex>
    </Card>
  );
}

function GrantPlan({ loading, onGrant }: { loading: boolean; onGrant: (planId: number) => void }) {
  const { t } = useTranslation();
  const formatQuota = useFormatQuota();
  const plans = usePlansToGrant(true);
  const [planId, setPlanId] = useState<number | undefined>(undefined);
  return (
    <Card size="small" style={{ marginBottom: 8 }} data-testid="user-subscription-grant">
      <Flex vertical gap={8}>
        <Typography.Text type="secondary">{t('subscription.grant_help')}</Typography.Text>
        <Flex gap={8} wrap>
          <Select<number>
            style={{ flex: '1 1 200px', minWidth: 0 }}
            placeholder={t('subscription.grant_pick')}
            aria-label={t('subscription.grant_pick')}
            loading={plans.isPending}
            value={planId}
            onChange={setPlanId}
            options={(plans.data ?? []).map((plan) => ({
              value: plan.id,
              label: `${plan.title} · ${formatQuota(plan.total_amount)} / ${periodText(t, plan)} · ${durationText(t, plan)}`,
            }))}
            notFoundContent={t('subscription.empty')}
          />
          <Button
            type="primary"
            disabled={planId === undefined}
            loading={loading}
            onClick={() => planId !== undefined && onGrant(planId)}
            data-testid="user-subscription-grant-confirm"
          >
            {t('subscription.grant_confirm')}
          </Button>
        </Flex>
      </Flex>
    </Card>
  );
}
