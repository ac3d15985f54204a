import type { PublicStatus } from '@gateway/shared';
import { Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOAuthStart } from '../../hooks/oauth/use-oauth-start';
import { isRedirectProvider, type OAuthProvider } from '../../lib/oauth-urls';
import { ProviderDialog } from './provider-dialog';

export type BindableProvider = OAuthProvider | 'wechat' | 'telegram';

interface BindProviderButtonProps {
  provider: BindableProvider;
  bound: boolean;
  status: Partial<PublicStatus>;
}

/** The personal page's bind (or rebind) button for one provider: a redirect, or the provider's dialog. */
export function BindProviderButton({ provider, bound, status }: BindProviderButtonProps) {
  const { t } = useTranslation();
  const start = useOAuthStart();
  const [dialogOpen, setDialogOpen] = useState(false);

  const onClick = () => {
    if (isRedirectProvider(provider)) start.mutate({ provider, intent: 'bind' });
    else setDialogOpen(true);
  };

  return (
    <>
      <Button
        size="small"
        onClick={onClick}
        loading={start.isPending || start.isSuccess}
        data-testid={`bind-${provider}`}
      >
        {bound ? t('personal.rebind') : t('personal.bind')}
      </Button>
      <ProviderDialog
        provider={dialogOpen && !isRedirectProvider(provider) ? provider : null}
        mode="bind"
        status={status}
        onClose={() => setDialogOpen(false)}
      />
    </>
  );
}
