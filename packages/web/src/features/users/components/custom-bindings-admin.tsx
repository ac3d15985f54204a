import { App, Button, Descriptions, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useUnbindCustom, useUserCustomBindings } from '../../../hooks/oauth/use-custom-bindings';
import { notify } from '../../../lib/notify';

/** A user's bindings to the custom providers the root added, beside the built-in ones; an admin may unbind. */
export function CustomBindingsAdmin({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const bindings = useUserCustomBindings(userId);
  const unbind = useUnbindCustom(userId);
  const rows = bindings.data ?? [];
  if (rows.length === 0) return null;
  return (
    <Descriptions
      size="small"
      bordered
      column={1}
      style={{ marginTop: -12, marginBottom: 24 }}
      data-testid="user-custom-bindings"
      items={rows.map((binding) => ({
        key: binding.provider_id,
        label: binding.provider_name,
        children: (
          <>
            <Typography.Text className="mono-text" copyable>
              {binding.provider_user_id}
            </Typography.Text>{' '}
            <Button
              size="small"
              type="link"
              danger
              onClick={() =>
                modal.confirm({
                  title: t('custom_oauth.unbind_title', { name: binding.provider_name }),
                  okButtonProps: { danger: true },
                  okText: t('custom_oauth.unbind'),
                  onOk: () =>
                    unbind
                      .mutateAsync(binding.provider_id)
                      .then(() => notify.success(t('custom_oauth.unbound', { name: binding.provider_name }))),
                })
              }
            >
              {t('custom_oauth.unbind')}
            </Button>
          </>
        ),
      }))}
    />
  );
}
