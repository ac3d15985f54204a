import { isAdmin, type TwoFactorStatusView } from '@gateway/shared';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { api } from '../../lib/api';
import { twoFactorStatusQueryKey } from '../../lib/query-keys';
import { useSessionUser } from '../../lib/session';

/**
 * When root requires two-factor sign-in for admins (AdminTwoFARequired), an admin who has not set it up is asked
 * to on every page (the admin pages refuse them until then); the personal page's own card says it there.
 */
export function TwoFactorNotice() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const user = useSessionUser();
  const admin = user !== null && isAdmin(user.role);
  const status = useQuery({
    queryKey: twoFactorStatusQueryKey,
    queryFn: () => api.get<TwoFactorStatusView>('/api/user/2fa/status'),
    enabled: admin,
    meta: { silentError: true },
  });
  if (!admin || !status.data?.setup_required || pathname === '/personal') return null;
  return (
    <Alert
      type="warning"
      showIcon
      banner
      title={t('two_factor.setup_required')}
      action={
        <Link to="/personal">
          <Button size="small" type="primary">
            {t('two_factor.setup')}
          </Button>
        </Link>
      }
      data-testid="two-factor-required-banner"
    />
  );
}
