import { MailOutlined } from '@ant-design/icons';
import { emailBindSchema } from '@gateway/shared';
import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { useBindEmail } from '../../hooks/account/use-bind-email';
import { usePublicStatus } from '../../hooks/use-status';
import { notify } from '../../lib/notify';
import { useTurnstile } from './turnstile-widget';
import { VerificationCodeInput } from './verification-code-input';

interface EmailBindValues {
  email?: string;
  code?: string;
}

/** Binds (or changes) the signed-in user's e-mail: the address, a mailed code, then `GET /api/oauth/email/bind`. */
export function EmailBindModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const status = usePublicStatus();
  const humanCheck = useTurnstile(status);
  const bind = useBindEmail();
  const [form] = Form.useForm<EmailBindValues>();
  const email = Form.useWatch('email', form) ?? '';

  const onOk = () => {
    const values = form.getFieldsValue();
    const parsed = emailBindSchema.safeParse({ email: values.email ?? '', code: values.code ?? '' });
    if (!parsed.success) {
      notify.error(t(`errors:${parsed.error.issues[0]?.message ?? 'invalid_params'}`));
      return;
    }
    bind.mutate(parsed.data, {
      onSuccess: (envelope) => {
        notify.success(envelope.message);
        form.resetFields();
        onClose();
      },
    });
  };

  return (
    <Modal
      open={open}
      title={t('account.bind_email_title')}
      okText={t('account.bind_email_submit')}
      onOk={onOk}
      onCancel={onClose}
      confirmLoading={bind.isPending}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" requiredMark={false} data-testid="email-bind-form">
        <Form.Item name="email" label={t('account.email')}>
          <Input
            prefix={<MailOutlined />}
            type="email"
            placeholder={t('account.email_placeholder')}
            autoComplete="email"
          />
        </Form.Item>
        {humanCheck.widget}
        <Form.Item name="code" label={t('account.code')}>
          <VerificationCodeInput email={email} humanCheck={humanCheck} size="middle" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
