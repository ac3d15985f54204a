import { isAdmin, isRoot } from '@gateway/shared';
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useNavigate } from 'react-router';
import { useSessionUser } from '../../lib/session';

/**
 * Admin pages (role ≥ 10, decided on the client from the stored user, spec 000 §6); with `root`, root-only pages.
 * The server checks the role again on every call: this only spares people a page they cannot use.
 */
export function RequireAdmin({ root = false }: { root?: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useSessionUser();
  if (!user) return <Navigate to="/login" replace />;
  if (!(root ? isRoot(user.role) : isAdmin(user.role))) {
    return (
      <Result
        status="403"
        title="403"
        subTitle={t('forbidden.subtitle')}
        extra={
          <Button type="primary" onClick={() => navigate('/')}>
            {t('common.back_home')}
          </Button>
        }
      />
    );
  }
  return <Outlet />;
}
