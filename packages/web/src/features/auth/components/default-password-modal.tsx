import { ExclamationCircleFilled } from '@ant-design/icons';
import { Button, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

interface DefaultPasswordModalProps {
  open: boolean;
  onChangeNow: () => void;
  onLater: () => void;
}

/** Shown after signing in with the factory root account (root / 123456), spec 000 §4. */
export function DefaultPasswordModal({ open, onChangeNow, onLater }: DefaultPasswordModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      open={open}
      title={
        <span>
          <ExclamationCircleFilled style={{ color: '#faad14', marginInlineEnd: 8 }} />
          {t('login.default_password_title')}
        </span>
      }
      closable={false}
      mask={{ closable: false }}
      footer={[
        <Button key="later" onClick={onLater}>
          {t('login.change_later')}
        </Button>,
        <Button key="now" type="primary" danger onClick={onChangeNow}>
          {t('login.change_now')}
        </Button>,
      ]}
    >
      <Typography.Paragraph data-testid="default-password-warning">
        {t('login.default_password_body')}
      </Typography.Paragraph>
    </Modal>
  );
}
