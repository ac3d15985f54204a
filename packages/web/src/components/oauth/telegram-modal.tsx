import { SendOutlined } from '@ant-design/icons';
import type { PublicStatus } from '@gateway/shared';
import { Modal, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFinishSignIn } from '../../hooks/oauth/use-finish-sign-in';
import { type TelegramAuthData, useTelegramBind, useTelegramLogin } from '../../hooks/oauth/use-telegram-auth';
import { notify } from '../../lib/notify';
import { TelegramWidget } from './telegram-widget';

interface TelegramModalProps {
  open: boolean;
  mode: 'login' | 'bind';
  status: Partial<PublicStatus>;
  onClose: () => void;
}

/** The messaging-app login (spec 000 §2): Telegram's own widget in a dialog; its signed data goes to the server. */
export function TelegramModal({ open, mode, status, onClose }: TelegramModalProps) {
  const { t } = useTranslation();
  const login = useTelegramLogin();
  const bind = useTelegramBind();
  const finishSignIn = useFinishSignIn();

  const onAuth = (data: TelegramAuthData) => {
    if (mode === 'login') {
      login.mutate(data, { onSuccess: finishSignIn });
      return;
    }
    bind.mutate(data, {
      onSuccess: () => {
        notify.success(t('oauth.bound', { provider: 'Telegram' }));
        onClose();
      },
    });
  };

  return (
    <Modal
      open={open}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
      width={380}
      title={
        <span>
          <SendOutlined style={{ color: '#229ed9', marginInlineEnd: 8 }} />
          {mode === 'login' ? t('oauth.telegram_login_title') : t('oauth.telegram_bind_title')}
        </span>
      }
    >
      <Typography.Paragraph type="secondary" style={{ textAlign: 'center' }}>
        {t('oauth.telegram_hint')}
      </Typography.Paragraph>
      <Spin spinning={login.isPending || bind.isPending}>
        <TelegramWidget botName={status.telegram_bot_name ?? ''} onAuth={onAuth} />
      </Spin>
    </Modal>
  );
}
