import { Form, Input, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

interface CodePromptModalProps {
  open: boolean;
  title: string;
  hint: string;
  okText: string;
  danger?: boolean;
  loading: boolean;
  onSubmit: (code: string) => void;
  onClose: () => void;
}

/** Asks for one code (from the authenticator app, or a backup code where the action takes one). */
export function CodePromptModal({
  open,
  title,
  hint,
  okText,
  danger,
  loading,
  onSubmit,
  onClose,
}: CodePromptModalProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ code: string }>();
  return (
    <Modal
      open={open}
      title={title}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={okText}
      okButtonProps={danger ? { danger: true } : undefined}
      cancelText={t('ui.cancel')}
      confirmLoading={loading}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{hint}</Typography.Paragraph>
      <Form<{ code: string }>
        form={form}
        layout="vertical"
        onFinish={(values) => onSubmit(values.code.trim())}
        data-testid="two-factor-code-form"
      >
        <Form.Item
          name="code"
          label={t('two_factor.code_label')}
          rules={[{ required: true, whitespace: true, message: t('two_factor.code_required') }]}
        >
          <Input autoComplete="one-time-code" className="mono-text" autoFocus data-testid="two-factor-code-input" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
