import { KeyOutlined } from '@ant-design/icons';
import { App, Button, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useResetUserPasskeys } from '../../hooks/passkey/use-passkeys';
import { notify } from '../../lib/notify';

/** Admin, in the user's edit drawer: removes every passkey of the user, after a confirmation. */
export function PasskeyResetButton({ userId, username }: { userId: number; username: string }) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const reset = useResetUserPasskeys();
  const confirm = () =>
    modal.confirm({
      title: t('passkey.reset_title'),
      content: t('passkey.reset_confirm', { name: username }),
      okText: t('passkey.reset'),
      okButtonProps: { danger: true },
      cancelText: t('ui.cancel'),
      onOk: () =>
        reset.mutateAsync(userId).then(
          (message) => notify.success(message || t('passkey.reset_done')),
          (error: unknown) => notify.error(error instanceof Error ? error.message : t('passkey.failed')),
        ),
    });
  return (
    <Flex justify="space-between" align="center" gap={8} wrap style={{ marginBottom: 24 }}>
      <Typography.Text type="secondary">{t('passkey.reset_hint')}</Typography.Text>
      <Button danger icon={<KeyOutlined />} loading={reset.isPending} onClick={confirm} data-testid="passkey-reset">
        {t('passkey.reset')}
      </Button>
    </Flex>
  );
}
