import { Modal, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface PayConfirmModalProps {
  open: boolean;
  loading: boolean;
  onOk: () => void;
  onCancel: () => void;
  /** What is bought and what it costs. */
  children: ReactNode;
}

/** The last look before the payer leaves for the payment page (every way of paying asks the same way). */
export function PayConfirmModal({ open, loading, onOk, onCancel, children }: PayConfirmModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      open={open}
      title={t('wallet.confirm_title')}
      okText={t('wallet.confirm_pay')}
      cancelText={t('ui.cancel')}
      onOk={onOk}
      onCancel={onCancel}
      confirmLoading={loading}
      destroyOnHidden
    >
      {children}
      <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
        {t('wallet.confirm_hint')}
      </Typography.Paragraph>
    </Modal>
  );
}
