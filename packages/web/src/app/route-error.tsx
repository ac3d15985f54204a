import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';

/** A page that crashed or whose code failed to load (often: a new version was deployed meanwhile). */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  return (
    <div className="full-page-center">
      <Result
        status="error"
        title={t('route_error.title')}
        subTitle={error instanceof Error ? error.message : t('route_error.subtitle')}
        extra={
          <Button type="primary" onClick={() => window.location.reload()}>
            {t('route_error.reload')}
          </Button>
        }
      />
    </div>
  );
}
