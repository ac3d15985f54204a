import { CopyOutlined, KeyOutlined } from '@ant-design/icons';
import { passwordResetConfirmSchema } from '@gateway/shared';
import { Alert, Button, Input, Result, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { FormCard } from '../../../components/form-card';
import { useCopyText } from '../../../hooks/use-copy-text';
import { useConfirmReset } from '../api/use-confirm-reset';

/**
 * /user/reset?email=…&token=… (the mailed link): one click spends the link, then the new password is shown and
 * copied, because it will not be shown again.
 */
export default function ResetConfirmPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const confirm = useConfirmReset();
  const { copy, fallback } = useCopyText();
  const link = passwordResetConfirmSchema.safeParse({
    email: params.get('email') ?? '',
    token: params.get('token') ?? '',
  });

  if (!link.success) {
    return (
      <FormCard title={t('account.reset_confirm_title')}>
        <Result
          status="warning"
          title={t('errors:reset_link_invalid')}
          subTitle={t('account.reset_link_hint')}
          extra={
            <Link to="/reset">
              <Button type="primary">{t('account.reset_again')}</Button>
            </Link>
          }
        />
      </FormCard>
    );
  }

  const onConfirm = () =>
    confirm.mutate(link.data, {
      onSuccess: (password) => void copy(password, t('account.password_copied')),
    });
  const password = confirm.data;

  return (
    <FormCard title={t('account.reset_confirm_title')} subtitle={link.data.email}>
      {password ? (
        <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="new-password">
          <Alert
            type="success"
            showIcon
            title={t('account.reset_done_title')}
            description={t('account.reset_done_body')}
          />
          <Space.Compact style={{ width: '100%' }}>
            <Input
              readOnly
              value={password}
              aria-label={t('account.new_password')}
              className="mono-text"
              size="large"
              onFocus={(event) => event.target.select()}
            />
            <Button
              size="large"
              icon={<CopyOutlined />}
              onClick={() => void copy(password, t('account.password_copied'))}
            >
              {t('account.copy')}
            </Button>
          </Space.Compact>
          <Link to="/login">
            <Button type="primary" size="large" block>
              {t('account.to_login_now')}
            </Button>
          </Link>
        </Space>
      ) : (
        <Space orientation="vertical" size={16} style={{ width: '100%' }}>
          <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
            {t('account.reset_confirm_body')}
          </Typography.Paragraph>
          {confirm.isError && (
            <Alert
              type="error"
              showIcon
              title={confirm.error.message}
              action={
                <Link to="/reset">
                  <Button size="small">{t('account.reset_again')}</Button>
                </Link>
              }
            />
          )}
          <Button
            type="primary"
            size="large"
            block
            icon={<KeyOutlined />}
            loading={confirm.isPending}
            onClick={onConfirm}
          >
            {t('account.reset_confirm_submit')}
          </Button>
        </Space>
      )}
      {fallback}
    </FormCard>
  );
}
