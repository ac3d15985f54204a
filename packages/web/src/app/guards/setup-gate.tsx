import { Button, Result, Spin } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router';
import { usePublicStatus, useStatusQuery } from '../../hooks/use-status';
import { notify } from '../../lib/notify';

/**
 * Root of every route. Until first-run setup is done, every path except /setup leads to /setup (spec 001 §2).
 * Only a fresh status decides that: a stored copy from an earlier visit could be out of date either way.
 */
export function SetupGate() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const query = useStatusQuery();
  const painted = usePublicStatus();
  const hasStoredStatus = painted.setup !== undefined;

  useEffect(() => {
    // With a stored copy the console keeps working; say that the live one could not be loaded.
    if (query.isError && hasStoredStatus) notify.error(t('status.load_failed'));
  }, [query.isError, hasStoredStatus, t]);

  if (query.data && !query.data.setup && pathname !== '/setup') return <Navigate to="/setup" replace />;

  if (query.isPending && !hasStoredStatus) {
    return (
      <div className="full-page-center">
        <Spin size="large" />
      </div>
    );
  }

  if (query.isError && !hasStoredStatus) {
    return (
      <div className="full-page-center">
        <Result
          status="warning"
          title={t('status.connect_failed')}
          subTitle={query.error.message}
          extra={
            <Button type="primary" onClick={() => void query.refetch()} loading={query.isFetching}>
              {t('common.retry')}
            </Button>
          }
        />
      </div>
    );
  }

  return <Outlet />;
}
