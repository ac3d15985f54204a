import {
  CopyOutlined,
  DeleteOutlined,
  EditOutlined,
  EyeInvisibleOutlined,
  EyeOutlined,
  PauseCircleOutlined,
  PlayCircleOutlined,
} from '@ant-design/icons';
import { RedemptionStatus } from '@gateway/shared';
import { Button, Popconfirm, Space, Tag, Tooltip, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isExpired, maskRedemptionKey, type Redemption } from '../types';

export const STATUS_TAGS: Record<number, { color: string; labelKey: string }> = {
  [RedemptionStatus.Unused]: { color: 'green', labelKey: 'redemption.status_unused' },
  [RedemptionStatus.Disabled]: { color: 'red', labelKey: 'redemption.status_disabled' },
  [RedemptionStatus.Used]: { color: 'default', labelKey: 'redemption.status_used' },
};

/** To the minute: the table has many time columns, and seconds say nothing about a code. */
export function formatTime(seconds: number): string {
  return dayjs.unix(seconds).format('YYYY-MM-DD HH:mm');
}

/** The status, plus an "expired" mark for a code that could still be redeemed but for its expiry. */
export function StatusTag({ code }: { code: Redemption }) {
  const { t } = useTranslation();
  const tag = STATUS_TAGS[code.status] ?? { color: 'default', labelKey: 'redemption.status_unknown' };
  return (
    <Space size={4} wrap={false}>
      <Tag color={tag.color} variant="filled" style={{ marginInlineEnd: 0 }}>
        {t(tag.labelKey)}
      </Tag>
      {code.status !== RedemptionStatus.Used && isExpired(code) && (
        <Tag color="orange" variant="filled" style={{ marginInlineEnd: 0 }}>
          {t('redemption.status_expired')}
        </Tag>
      )}
    </Space>
  );
}

export function KeyCell({ codeKey, onCopy }: { codeKey: string; onCopy: () => void }) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  return (
    <Space size={2} className="redemption-key">
      <Typography.Text code className="mono-text">
        {shown ? codeKey : maskRedemptionKey(codeKey)}
      </Typography.Text>
      <Tooltip title={shown ? t('redemption.hide_key') : t('redemption.show_key')}>
        <Button
          type="text"
          size="small"
          icon={shown ? <EyeInvisibleOutlined /> : <EyeOutlined />}
          aria-label={shown ? t('redemption.hide_key') : t('redemption.show_key')}
          onClick={() => setShown(!shown)}
        />
      </Tooltip>
      <Tooltip title={t('redemption.copy_key')}>
        <Button
          type="text"
          size="small"
          icon={<CopyOutlined />}
          aria-label={t('redemption.copy_key')}
          onClick={onCopy}
        />
      </Tooltip>
    </Space>
  );
}

/** Who redeemed the code and when; a dash while unused. */
export function RedeemedBy({ code }: { code: Redemption }) {
  const { t } = useTranslation();
  if (!code.used_user_id) return <Typography.Text type="secondary">{t('redemption.not_redeemed')}</Typography.Text>;
  return (
    <div className="redemption-redeemed">
      <Typography.Text>{t('redemption.user_id', { id: code.used_user_id })}</Typography.Text>
      {code.redeemed_time > 0 && (
        <Typography.Text type="secondary" className="nowrap">
          {formatTime(code.redeemed_time)}
        </Typography.Text>
      )}
    </div>
  );
}

export function ExpiryText({ seconds }: { seconds: number }) {
  const { t } = useTranslation();
  if (seconds === 0) return <Typography.Text type="secondary">{t('redemption.expiry_never')}</Typography.Text>;
  return (
    <Typography.Text className="nowrap" type={seconds < Date.now() / 1000 ? 'danger' : undefined}>
      {formatTime(seconds)}
    </Typography.Text>
  );
}

export interface RedemptionActionHandlers {
  /** Copies the full key (the key cell's copy button). */
  onCopy: (code: Redemption) => void;
  onEdit: (code: Redemption) => void;
  onToggleStatus: (code: Redemption) => void;
  onDelete: (code: Redemption) => void;
  /** The code whose status change is in flight. */
  togglingId: number | undefined;
}

/**
 * Edit (unused codes only), enable/disable (a used code cannot be enabled) and delete; copying sits beside the key.
 * `labelled` spells the actions out (phone cards); the table uses icons with tooltips.
 */
export function RedemptionActions({
  code,
  labelled = false,
  onEdit,
  onToggleStatus,
  onDelete,
  togglingId,
}: Omit<RedemptionActionHandlers, 'onCopy'> & { code: Redemption; labelled?: boolean }) {
  const { t } = useTranslation();
  const used = code.status === RedemptionStatus.Used;
  const enabled = code.status === RedemptionStatus.Unused;
  const toggleLabel = enabled ? t('redemption.disable') : t('redemption.enable');
  const editButton = (
    <Button size="small" icon={<EditOutlined />} disabled={used} aria-label={t('ui.edit')} onClick={() => onEdit(code)}>
      {labelled ? t('ui.edit') : null}
    </Button>
  );
  return (
    <Space size={4} wrap={labelled}>
      <Tooltip title={used ? t('redemption.used_cannot_edit') : labelled ? undefined : t('ui.edit')}>
        {/* A disabled button swallows pointer events; the span keeps the tooltip working. */}
        <span>{editButton}</span>
      </Tooltip>
      <Tooltip title={used ? t('redemption.used_cannot_enable') : undefined}>
        <span>
          <Button
            size="small"
            icon={enabled ? <PauseCircleOutlined /> : <PlayCircleOutlined />}
            disabled={used}
            loading={togglingId === code.id}
            onClick={() => onToggleStatus(code)}
            data-action="toggle-status"
          >
            {toggleLabel}
          </Button>
        </span>
      </Tooltip>
      <Popconfirm
        title={t('redemption.delete_confirm', { name: code.name })}
        okText={t('ui.delete')}
        okButtonProps={{ danger: true }}
        cancelText={t('ui.cancel')}
        onConfirm={() => onDelete(code)}
      >
        <Button size="small" danger icon={<DeleteOutlined />} aria-label={t('ui.delete')}>
          {labelled ? t('ui.delete') : null}
        </Button>
      </Popconfirm>
    </Space>
  );
}
