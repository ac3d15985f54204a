import type { PublicStatus } from '@gateway/shared';
import { App, Button, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { CustomProviderIcon } from '../../../components/oauth/custom-provider-icon';
import { useMyCustomBindings, useUnbindCustom } from '../../../hooks/oauth/use-custom-bindings';
import { useOAuthStart } from '../../../hooks/oauth/use-oauth-start';
import { notify } from '../../../lib/notify';

/**
 * The custom providers the root added, one row each: the enabled ones with a bind button, and any the account is
 * bound to (with unbind, as the family allows; the password and the other ways in stay).
 */
export function CustomBindingRows({ status }: { status: Partial<PublicStatus> }) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const bindings = useMyCustomBindings();
  const unbind = useUnbindCustom();
  const start = useOAuthStart();
  const enabled = status.custom_oauth_providers ?? [];
  const bound = bindings.data ?? [];

  const rows = [
    ...enabled.map((provider) => ({
      id: provider.id,
      slug: provider.slug,
      name: provider.name,
      icon: provider.icon,
      enabled: true,
    })),
    // Bound to a provider that is switched off: still shown, so it can be unbound.
    ...bound
      .filter((binding) => !enabled.some((provider) => provider.id === binding.provider_id))
      .map((binding) => ({
        id: binding.provider_id,
        slug: binding.provider_slug,
        name: binding.provider_name,
        icon: binding.provider_icon,
        enabled: false,
      })),
  ];

  const confirmUnbind = (id: number, name: string) =>
    modal.confirm({
      title: t('custom_oauth.unbind_title', { name }),
      content: t('custom_oauth.unbind_content'),
      okButtonProps: { danger: true },
      okText: t('custom_oauth.unbind'),
      onOk: () => unbind.mutateAsync(id).then(() => notify.success(t('custom_oauth.unbound', { name }))),
    });

  return rows.map((row) => {
    const binding = bound.find((item) => item.provider_id === row.id);
    return (
      <Flex
        key={`custom-${row.id}`}
        align="center"
        gap={12}
        className="personal-binding"
        data-testid={`custom-binding-${row.slug}`}
      >
        <span className="personal-binding-icon">
          <CustomProviderIcon icon={row.icon} />
        </span>
        <Flex vertical style={{ minWidth: 0, flex: 1 }}>
          <Typography.Text>{row.name}</Typography.Text>
          <Typography.Text type="secondary" ellipsis className="personal-hint">
            {binding ? binding.provider_user_id : t('personal.not_bound')}
          </Typography.Text>
        </Flex>
        {binding ? (
          <Button size="small" danger onClick={() => confirmUnbind(row.id, row.name)}>
            {t('custom_oauth.unbind')}
          </Button>
        ) : (
          row.enabled && (
            <Button
              size="small"
              loading={(start.isPending || start.isSuccess) && start.variables?.provider === row.slug}
              onClick={() => start.mutate({ provider: row.slug, intent: 'bind' })}
            >
              {t('personal.bind')}
            </Button>
          )
        )}
      </Flex>
    );
  });
}
