import { Button, Form, InputNumber, Modal, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatQuota } from '../../../hooks/use-format-quota';
import { usePublicStatus } from '../../../hooks/use-status';
import { notify } from '../../../lib/notify';
import { quotaDisplayFrom } from '../../../lib/quota';
import { useManageUser } from '../api/use-manage-user';
import type { AdminUser } from '../types';

/** Shortcuts in dollars; each also has its negative, since the dialog adds or takes away. */
const PRESETS_USD = [1, 10, 100] as const;

interface AddQuotaModalProps {
  /** The user to credit; null keeps the dialog closed. */
  user: AdminUser | null;
  onClose: () => void;
}

/**
 * Adds (or, with a negative amount, removes) quota through `manage add_quota` and shows the arithmetic live:
 * old + added = new (spec 000 §4). The amount is in raw quota units, like the rest of the user form.
 */
export function AddQuotaModal({ user, onClose }: AddQuotaModalProps) {
  const { t } = useTranslation();
  const formatQuota = useFormatQuota();
  const { quotaPerUnit } = quotaDisplayFrom(usePublicStatus());
  const manage = useManageUser();
  const [amount, setAmount] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (user) {
      setAmount(null);
      setError(null);
    }
  }, [user]);

  const old = user?.quota ?? 0;
  const added = amount ?? 0;
  const sum = old + added;
  const formula =
    added < 0
      ? t('users.add_quota_formula_minus', {
          old: formatQuota(old),
          added: formatQuota(-added),
          result: formatQuota(sum),
        })
      : t('users.add_quota_formula', { old: formatQuota(old), added: formatQuota(added), result: formatQuota(sum) });

  const submit = () => {
    if (!user) return;
    if (amount === null || !Number.isSafeInteger(amount) || amount === 0) {
      setError(t('users.add_quota_required'));
      return;
    }
    manage.mutate(
      { id: user.id, action: 'add_quota', value: amount },
      {
        onSuccess: () => {
          notify.success(t('errors:user_action_done'));
          onClose();
        },
      },
    );
  };

  return (
    <Modal
      open={user !== null}
      title={t('users.add_quota_title', { name: user?.username ?? '' })}
      onCancel={onClose}
      onOk={submit}
      okText={t('users.add_quota_submit')}
      cancelText={t('ui.cancel')}
      confirmLoading={manage.isPending}
      destroyOnHidden
    >
      <div data-testid="user-add-quota">
        <Form layout="vertical" onFinish={submit}>
          <Form.Item
            label={t('users.add_quota_amount')}
            extra={t('users.add_quota_help')}
            validateStatus={error ? 'error' : undefined}
            help={error ?? undefined}
          >
            <InputNumber
              aria-label={t('users.add_quota_amount')}
              value={amount}
              precision={0}
              style={{ width: '100%' }}
              placeholder={t('users.add_quota_placeholder')}
              onChange={(value) => {
                setAmount(typeof value === 'number' ? value : null);
                setError(null);
              }}
              onPressEnter={submit}
              autoFocus
            />
          </Form.Item>
          <Space size={4} wrap style={{ marginBottom: 16 }}>
            {[...PRESETS_USD, ...PRESETS_USD.map((usd) => -usd)].map((usd) => (
              <Button
                key={usd}
                size="small"
                onClick={() => {
                  setAmount(Math.round(usd * quotaPerUnit));
                  setError(null);
                }}
              >
                {usd > 0 ? `+$${usd}` : `-$${-usd}`}
              </Button>
            ))}
          </Space>
        </Form>
        <div className="add-quota-formula">
          <Typography.Text type="secondary">{t('users.add_quota_result')}</Typography.Text>
          <Typography.Text strong data-testid="user-add-quota-formula" type={sum < 0 ? 'danger' : undefined}>
            {formula}
          </Typography.Text>
        </div>
      </div>
    </Modal>
  );
}
