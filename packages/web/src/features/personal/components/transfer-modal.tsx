import { Form, InputNumber, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFormatQuota } from '../../../hooks/use-format-quota';
import { usePublicStatus } from '../../../hooks/use-status';
import { notify } from '../../../lib/notify';
import { quotaDisplayFrom } from '../../../lib/quota';
import { useAffTransfer } from '../api/use-aff-transfer';

interface TransferModalProps {
  open: boolean;
  /** The pending invitation quota. */
  available: number;
  onClose: () => void;
}

/** Moves invitation quota to the balance: a whole amount of at least one quota unit (spec 000 §5). */
export function TransferModal({ open, available, onClose }: TransferModalProps) {
  const { t } = useTranslation();
  const formatQuota = useFormatQuota();
  const { quotaPerUnit } = quotaDisplayFrom(usePublicStatus());
  const transfer = useAffTransfer();
  const [form] = Form.useForm<{ quota: number | null }>();
  const amount = Form.useWatch('quota', form);

  const onFinish = ({ quota }: { quota: number | null }) =>
    transfer.mutate(quota ?? 0, {
      onSuccess: () => {
        notify.success(t('errors:aff_transfer_done'));
        onClose();
      },
    });

  return (
    <Modal
      open={open}
      title={t('personal.transfer_title')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('personal.transfer_submit')}
      cancelText={t('ui.cancel')}
      confirmLoading={transfer.isPending}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{ quota: Math.max(available, quotaPerUnit) }}
        onFinish={onFinish}
        data-testid="personal-transfer-form"
      >
        <Typography.Paragraph type="secondary">
          {t('personal.transfer_available', { value: formatQuota(available) })}
        </Typography.Paragraph>
        <Form.Item
          name="quota"
          label={t('personal.transfer_amount')}
          extra={t('personal.transfer_equals', { value: formatQuota(amount ?? 0) })}
          rules={[
            {
              validator: (_, value: number | null) => {
                if (!Number.isSafeInteger(value) || (value ?? 0) <= 0)
                  return Promise.reject(new Error(t('errors:aff_transfer_invalid')));
                if ((value ?? 0) < quotaPerUnit)
                  return Promise.reject(new Error(t('errors:aff_transfer_min', { min: formatQuota(quotaPerUnit) })));
                if ((value ?? 0) > available) return Promise.reject(new Error(t('errors:aff_transfer_insufficient')));
                return Promise.resolve();
              },
            },
          ]}
        >
          <InputNumber precision={0} min={0} style={{ width: '100%' }} aria-label={t('personal.transfer_amount')} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
