import { Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { actionColor, actionLabelKey, formatAuditTime } from '../audit-view';
import type { AuditItem } from '../types';

export function ActionTag({ action }: { action: string }) {
  const { t } = useTranslation();
  const key = actionLabelKey(action);
  return (
    <Tag color={actionColor(action)} title={action}>
      {key ? t(key) : action}
    </Tag>
  );
}

/** Who acted; a failed sign-in has nobody. */
export function ActorText({ row }: { row: AuditItem }) {
  const { t } = useTranslation();
  if (row.actor_username === null) return <Typography.Text type="secondary">{t('audit.nobody')}</Typography.Text>;
  return (
    <span className="nowrap">
      {row.actor_username}
      <Typography.Text type="secondary"> #{row.actor_id}</Typography.Text>
    </span>
  );
}

/** What was acted on: the kind and its id (an option's key, the name typed at a failed sign-in). */
export function TargetText({ row }: { row: AuditItem }) {
  const { t } = useTranslation();
  const kind = ['user', 'channel', 'option', 'redemption', 'log'].includes(row.target_type)
    ? t(`audit.targets.${row.target_type}`)
    : row.target_type;
  if (!row.target_id) return <span className="nowrap">{kind}</span>;
  const numeric = /^\d+$/.test(row.target_id);
  return (
    <span className="audit-target">
      {kind} <Typography.Text code>{numeric ? `#${row.target_id}` : row.target_id}</Typography.Text>
    </span>
  );
}

export function TimeText({ row }: { row: AuditItem }) {
  return <span className="nowrap">{formatAuditTime(row.created_at)}</span>;
}
