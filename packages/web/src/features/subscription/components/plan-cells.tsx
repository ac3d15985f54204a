import { DeleteOutlined, EditOutlined, PauseCircleOutlined, PlayCircleOutlined } from '@ant-design/icons';
import { Button, Popconfirm, Space, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { durationText, periodText, priceText } from '../../../components/subscription/plan-text';
import { useFormatQuota } from '../../../hooks/use-format-quota';
import type { PlanRecord } from '../../../lib/subscriptions';

export interface PlanActionHandlers {
  onEdit: (plan: PlanRecord) => void;
  onToggle: (plan: PlanRecord) => void;
  onDelete: (plan: PlanRecord) => void;
  /** The plan whose status change is on its way. */
  togglingId?: number;
}

export function EnabledTag({ plan }: { plan: PlanRecord }) {
  const { t } = useTranslation();
  return (
    <Tag color={plan.enabled ? 'green' : 'default'} variant="filled" style={{ marginInlineEnd: 0 }}>
      {plan.enabled ? t('subscription.on_sale') : t('subscription.off_sale')}
    </Tag>
  );
}

export function PlanTitle({ plan }: { plan: PlanRecord }) {
  return (
    <div className="plan-title-cell">
      <Typography.Text strong>{plan.title}</Typography.Text>
      {plan.subtitle && (
        <Typography.Text type="secondary" className="plan-subtitle">
          {plan.subtitle}
        </Typography.Text>
      )}
    </div>
  );
}

/** The plan's facts as label/value pairs: the table's columns and the phone card's list read the same. */
export function usePlanFacts() {
  const { t } = useTranslation();
  const formatQuota = useFormatQuota();
  return (plan: PlanRecord) => ({
    price: priceText(plan),
    quota: formatQuota(plan.total_amount),
    period: periodText(t, plan),
    duration: durationText(t, plan),
    group: plan.upgrade_group || t('subscription.group_none'),
    limit: plan.max_purchase_per_user > 0 ? String(plan.max_purchase_per_user) : t('subscription.unlimited'),
    subscribers: plan.subscriber_count === undefined ? '—' : String(plan.subscriber_count),
  });
}

export function PlanActions({
  plan,
  onEdit,
  onToggle,
  onDelete,
  togglingId,
  labelled = false,
}: PlanActionHandlers & { plan: PlanRecord; labelled?: boolean }) {
  const { t } = useTranslation();
  const toggleLabel = plan.enabled ? t('subscription.disable') : t('subscription.enable');
  const button = (label: string, node: React.ReactElement) =>
    labelled ? node : <Tooltip title={label}>{node}</Tooltip>;
  return (
    <Space size={labelled ? 8 : 2} wrap>
      {button(
        t('ui.edit'),
        <Button
          type={labelled ? 'default' : 'text'}
          size="small"
          icon={<EditOutlined />}
          aria-label={t('ui.edit')}
          onClick={() => onEdit(plan)}
          data-testid="plan-edit"
        >
          {labelled && t('ui.edit')}
        </Button>,
      )}
      {button(
        toggleLabel,
        <Button
          type={labelled ? 'default' : 'text'}
          size="small"
          icon={plan.enabled ? <PauseCircleOutlined /> : <PlayCircleOutlined />}
          aria-label={toggleLabel}
          loading={togglingId === plan.id}
          onClick={() => onToggle(plan)}
          data-testid="plan-toggle"
        >
          {labelled && toggleLabel}
        </Button>,
      )}
      <Popconfirm
        title={t('subscription.delete_confirm', { title: plan.title })}
        description={t('subscription.delete_hint')}
        okText={t('ui.delete')}
        okButtonProps={{ danger: true }}
        cancelText={t('ui.cancel')}
        onConfirm={() => onDelete(plan)}
      >
        <Button
          type={labelled ? 'default' : 'text'}
          danger
          size="small"
          icon={<DeleteOutlined />}
          aria-label={t('ui.delete')}
          data-testid="plan-delete"
        >
          {labelled && t('ui.delete')}
        </Button>
      </Popconfirm>
    </Space>
  );
}
