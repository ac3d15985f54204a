import { CrownOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { Button, Flex, Skeleton, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListEmpty } from '../../../components/list/list-empty';
import { ListPageCard } from '../../../components/list/list-page-card';
import { notify } from '../../../lib/notify';
import type { PlanRecord } from '../../../lib/subscriptions';
import { useIsMobile } from '../../../lib/use-media-query';
import { useAdminPlans } from '../api/use-admin-plans';
import { useDeletePlan, usePlanStatus } from '../api/use-save-plan';
import { PlanFormDrawer } from '../components/plan-form-drawer';
import { PlanCards, PlanTable } from '../components/plan-list';
import '../subscription.css';

interface DrawerState {
  open: boolean;
  plan?: PlanRecord;
}

/** Subscription plans (admins): what users can buy in their wallet, each a quota per period for a time. */
export default function SubscriptionPage() {
  const { t } = useTranslation();
  const isMobile = useIsMobile();
  const List = isMobile ? PlanCards : PlanTable;
  const plans = useAdminPlans();
  const status = usePlanStatus();
  const remove = useDeletePlan();
  const [drawer, setDrawer] = useState<DrawerState>({ open: false });
  const openCreate = () => setDrawer({ open: true });

  const onToggle = (plan: PlanRecord) =>
    status.mutate(
      { id: plan.id, enabled: !plan.enabled },
      {
        onSuccess: () =>
          notify.success(plan.enabled ? t('subscription.disabled_done') : t('subscription.enabled_done')),
      },
    );
  const onDelete = (plan: PlanRecord) =>
    remove.mutate(plan.id, { onSuccess: () => notify.success(t('subscription.deleted')) });

  const empty = (
    <ListEmpty
      failed={plans.isError}
      failedText={t('subscription.load_failed')}
      onRetry={() => void plans.refetch()}
      icon={<CrownOutlined className="empty-icon" />}
      emptyText={t('subscription.empty')}
    >
      <Button type="primary" icon={<PlusOutlined />} onClick={openCreate}>
        {t('subscription.create')}
      </Button>
    </ListEmpty>
  );

  return (
    <ListPageCard
      title={t('subscription.title')}
      subtitle={t('subscription.subtitle')}
      overlays={
        <PlanFormDrawer
          open={drawer.open}
          plan={drawer.plan}
          onClose={() => setDrawer((previous) => ({ ...previous, open: false }))}
        />
      }
    >
      <Flex gap={8} justify="space-between" wrap>
        <Button type="primary" icon={<PlusOutlined />} onClick={openCreate} data-testid="plan-create">
          {t('subscription.create')}
        </Button>
        <Tooltip title={t('subscription.refresh')}>
          <Button
            icon={<ReloadOutlined />}
            aria-label={t('subscription.refresh')}
            loading={plans.isFetching && !plans.isPending}
            onClick={() => void plans.refetch()}
          />
        </Tooltip>
      </Flex>
      {plans.isPending ? (
        <Skeleton active paragraph={{ rows: 6 }} data-testid="plan-skeleton" />
      ) : (
        <List
          plans={plans.data ?? []}
          loading={plans.isFetching}
          empty={empty}
          onEdit={(plan) => setDrawer({ open: true, plan })}
          onToggle={onToggle}
          onDelete={onDelete}
          togglingId={status.isPending ? status.variables?.id : undefined}
        />
      )}
    </ListPageCard>
  );
}
