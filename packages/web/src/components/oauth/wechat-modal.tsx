import { WechatOutlined } from '@ant-design/icons';
import type { PublicStatus } from '@gateway/shared';
import { Button, Form, Input, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFinishSignIn } from '../../hooks/oauth/use-finish-sign-in';
import { useWechatBind, useWechatLogin } from '../../hooks/oauth/use-wechat-auth';
import { notify } from '../../lib/notify';
import './oauth.css';

interface WechatModalProps {
  open: boolean;
  mode: 'login' | 'bind';
  status: Partial<PublicStatus>;
  onClose: () => void;
}

/**
 * The chat-app dialog (spec 000 §2): scan the official account's QR code, send it the keyword, type the code it
 * replies with. The code signs in (or registers), or binds the signed-in account.
 */
export function WechatModal({ open, mode, status, onClose }: WechatModalProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ code: string }>();
  const login = useWechatLogin();
  const bind = useWechatBind();
  const finishSignIn = useFinishSignIn();
  const pending = login.isPending || bind.isPending;

  const submit = ({ code }: { code?: string }) => {
    const value = (code ?? '').trim();
    if (!value) {
      notify.error(t('oauth.wechat_code_required'));
      return;
    }
    if (mode === 'login') {
      login.mutate(value, { onSuccess: finishSignIn });
    } else {
      bind.mutate(value, {
        onSuccess: () => {
          notify.success(t('oauth.wechat_bound'));
          form.resetFields();
          onClose();
        },
      });
    }
  };

  return (
    <Modal
      open={open}
      onCancel={onClose}
      title={
        <span>
          <WechatOutlined style={{ color: '#07c160', marginInlineEnd: 8 }} />
          {mode === 'login' ? t('oauth.wechat_login_title') : t('oauth.wechat_bind_title')}
        </span>
      }
      footer={null}
      destroyOnHidden
      width={380}
    >
      {status.wechat_qrcode ? (
        <div className="oauth-qr">
          <img src={status.wechat_qrcode} alt={t('oauth.wechat_qr_alt')} />
        </div>
      ) : null}
      <Typography.Paragraph type="secondary" style={{ textAlign: 'center' }}>
        {t('oauth.wechat_hint')}
      </Typography.Paragraph>
      <Form form={form} layout="vertical" requiredMark={false} onFinish={submit} data-testid="wechat-form">
        <Form.Item name="code" label={t('oauth.wechat_code')}>
          <Input
            placeholder={t('oauth.wechat_code_placeholder')}
            autoComplete="one-time-code"
            size="large"
            maxLength={64}
          />
        </Form.Item>
        <Button type="primary" htmlType="submit" block size="large" loading={pending}>
          {mode === 'login' ? t('oauth.wechat_login_submit') : t('oauth.wechat_bind_submit')}
        </Button>
      </Form>
    </Modal>
  );
}
