import { isRoot } from '@gateway/shared';
import { Alert, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useHref } from 'react-router';
import { useSessionUser } from '../../../lib/session';

/** The server's refusal names this setting when an upstream on a private address was not fetched. */
const SETTING_KEY = 'fetch_setting.allow_private_ip';

/**
 * Under "fetch models": when the upstream sits on a private address, root gets a way to the setting that allows it
 * (an admin who is not root can only ask root, which the message already says).
 */
export function PrivateAddressHint({ error }: { error: Error | null }) {
  const { t } = useTranslation();
  // A new tab: the half-filled channel form stays as it is here while root changes the setting there.
  const settingsHref = useHref('/setting?tab=system');
  const user = useSessionUser();
  if (!error?.message.includes(SETTING_KEY) || !isRoot(user?.role)) return null;
  return (
    <Alert
      type="warning"
      showIcon
      style={{ marginBottom: 16 }}
      message={t('channel_form.private_address_title')}
      description={t('channel_form.private_address_hint')}
      action={
        <Button size="small" href={settingsHref} target="_blank" rel="noopener">
          {t('channel_form.private_address_open_setting')}
        </Button>
      }
      data-testid="private-address-hint"
    />
  );
}
