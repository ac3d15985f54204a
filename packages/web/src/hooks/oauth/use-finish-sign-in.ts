import type { SessionUser } from '@gateway/shared';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { notify } from '../../lib/notify';
import { clearSessionExpired, setStoredUser } from '../../lib/session';

/** Where a third-party sign-in lands (spec 001, "Third-party callback"). */
export const AFTER_OAUTH_LOGIN_PATH = '/token';

/** Every third-party sign-in ends the same way a password login does: the user stored, a toast, the landing page. */
export function useFinishSignIn() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return useCallback(
    (user: SessionUser) => {
      clearSessionExpired();
      setStoredUser(user);
      notify.success(t('login.success'));
      navigate(AFTER_OAUTH_LOGIN_PATH, { replace: true });
    },
    [navigate, t],
  );
}
