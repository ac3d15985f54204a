import { SafetyCertificateOutlined } from '@ant-design/icons';
import { Button, Form, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLoginSecondStep } from '../api/use-login';

interface SecondStepFormProps {
  flowToken: string;
  onSignedIn: () => void;
  onBack: () => void;
}

/** After the password: the code from the authenticator app, or a backup code. */
export function SecondStepForm({ flowToken, onSignedIn, onBack }: SecondStepFormProps) {
  const { t } = useTranslation();
  const verify = useLoginSecondStep();
  return (
    <Form<{ code: string }>
      layout="vertical"
      requiredMark={false}
      onFinish={({ code }) => verify.mutate({ code: code.trim(), flow_token: flowToken }, { onSuccess: onSignedIn })}
      data-testid="login-2fa-form"
    >
      <Typography.Paragraph type="secondary">{t('two_factor.login_hint')}</Typography.Paragraph>
      <Form.Item
        name="code"
        label={t('two_factor.code_label')}
        rules={[{ required: true, whitespace: true, message: t('two_factor.code_required') }]}
      >
        <Input
          prefix={<SafetyCertificateOutlined />}
          placeholder={t('two_factor.login_code_placeholder')}
          autoComplete="one-time-code"
          autoFocus
          size="large"
          className="mono-text"
          data-testid="login-2fa-code"
        />
      </Form.Item>
      <Button type="primary" htmlType="submit" size="large" block loading={verify.isPending}>
        {t('two_factor.login_submit')}
      </Button>
      <Button type="link" block onClick={onBack} style={{ marginTop: 8 }}>
        {t('two_factor.login_back')}
      </Button>
    </Form>
  );
}
