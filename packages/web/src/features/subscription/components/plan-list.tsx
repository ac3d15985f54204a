import { Card, Flex } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ListTable } from '../../../components/list/list-table';
import type { PlanRecord } from '../../../lib/subscriptions';
import { EnabledTag, type PlanActionHandlers, PlanActions, PlanTitle, usePlanFacts } from './plan-cells';

const counted = (plans: PlanRecord[]) => plans.some((plan) => plan.subscriber_count !== undefined);

export interface PlanListProps extends PlanActionHandlers {
  plans: PlanRecord[];
  loading: boolean;
  empty: ReactNode;
}

/** The plans at desktop width: one row each, every fact in its column. */
export function PlanTable({ plans, loading, empty, ...handlers }: PlanListProps) {
  const { t } = useTranslation();
  const facts = usePlanFacts();
  const columns: ColumnsType<PlanRecord> = [
    { key: 'id', title: t('subscription.col_id'), dataIndex: 'id', width: 64 },
    { key: 'title', title: t('subscription.col_title'), render: (_, plan) => <PlanTitle plan={plan} /> },
    {
      key: 'price',
      title: t('subscription.col_price'),
      render: (_, plan) => <span className="nowrap">{facts(plan).price}</span>,
    },
    {
      key: 'quota',
      title: t('subscription.col_quota'),
      render: (_, plan) => <span className="nowrap">{facts(plan).quota}</span>,
    },
    { key: 'period', title: t('subscription.col_period'), render: (_, plan) => facts(plan).period },
    { key: 'duration', title: t('subscription.col_duration'), render: (_, plan) => facts(plan).duration },
    { key: 'group', title: t('subscription.col_group'), render: (_, plan) => facts(plan).group },
    { key: 'limit', title: t('subscription.col_limit'), render: (_, plan) => facts(plan).limit },
    // The family's list does not count subscribers; the column shows only when the server does.
    ...(counted(plans)
      ? [
          {
            key: 'subscribers',
            title: t('subscription.col_subscribers'),
            render: (_: unknown, plan: PlanRecord) => facts(plan).subscribers,
          },
        ]
      : []),
    { key: 'enabled', title: t('subscription.col_status'), render: (_, plan) => <EnabledTag plan={plan} /> },
    {
      key: 'actions',
      title: t('ui.actions'),
      fixed: 'right',
      render: (_, plan) => <PlanActions plan={plan} {...handlers} />,
    },
  ];
  return (
    <ListTable<PlanRecord>
      testId="plan-list"
      empty={empty}
      columns={columns}
      dataSource={plans}
      loading={loading}
      pagination={false}
      size="middle"
      onRow={(plan) => ({ 'data-testid': `plan-row-${plan.id}` }) as React.HTMLAttributes<HTMLElement>}
    />
  );
}

/** The plans on a phone: a card each instead of a wide table. */
export function PlanCards({ plans, loading, empty, ...handlers }: PlanListProps) {
  const { t } = useTranslation();
  const facts = usePlanFacts();
  if (plans.length === 0 && !loading) return <div data-testid="plan-list">{empty}</div>;
  return (
    <Flex vertical gap={12} data-testid="plan-list">
      {plans.map((plan) => {
        const fact = facts(plan);
        return (
          <Card key={plan.id} size="small" className="list-card" data-testid={`plan-row-${plan.id}`}>
            <Flex justify="space-between" align="flex-start" gap={8}>
              <PlanTitle plan={plan} />
              <EnabledTag plan={plan} />
            </Flex>
            <dl className="list-card-facts">
              <dt>{t('subscription.col_price')}</dt>
              <dd>{fact.price}</dd>
              <dt>{t('subscription.col_quota')}</dt>
              <dd>{fact.quota}</dd>
              <dt>{t('subscription.col_period')}</dt>
              <dd>{fact.period}</dd>
              <dt>{t('subscription.col_duration')}</dt>
              <dd>{fact.duration}</dd>
              <dt>{t('subscription.col_group')}</dt>
              <dd>{fact.group}</dd>
              <dt>{t('subscription.col_limit')}</dt>
              <dd>{fact.limit}</dd>
              {plan.subscriber_count !== undefined && (
                <>
                  <dt>{t('subscription.col_subscribers')}</dt>
                  <dd>{fact.subscribers}</dd>
                </>
              )}
            </dl>
            <Flex justify="flex-end">
              <PlanActions plan={plan} labelled {...handlers} />
            </Flex>
          </Card>
        );
      })}
    </Flex>
  );
}
