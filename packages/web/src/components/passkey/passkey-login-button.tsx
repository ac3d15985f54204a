import { KeyOutlined } from '@ant-design/icons';
import type { PublicStatus } from '@gateway/shared';
import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { usePasskeyLogin } from '../../hooks/passkey/use-passkeys';
import { notify } from '../../lib/notify';
import { passkeyErrorText } from './passkey-errors';

/** "Sign in with a passkey" on the login page, when the operator turned passkeys on and the browser has them. */
export function PasskeyLoginButton({ status, onSignedIn }: { status: Partial<PublicStatus>; onSignedIn: () => void }) {
  const { t } = useTranslation();
  const login = usePasskeyLogin();
  if (!status.passkey_login || !browserSupportsWebAuthn()) return null;

  const signIn = () =>
    login.mutate(undefined, {
      onSuccess: () => {
        notify.success(t('login.success'));
        onSignedIn();
      },
      onError: (error) => notify.error(passkeyErrorText(t, error)),
    });

  return (
    // Right under the password form's button, without an "or" divider of its own: the third-party logins below
    // bring theirs, and two would stack.
    <div data-testid="passkey-login" style={{ marginTop: 12 }}>
      <Button block size="large" icon={<KeyOutlined />} loading={login.isPending} onClick={signIn}>
        {t('passkey.sign_in')}
      </Button>
    </div>
  );
}
