import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

export default function NotFoundPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <div className="page-container" data-testid="not-found">
      <Result
        status="404"
        title="404"
        subTitle={t('not_found.subtitle')}
        extra={
          <Button type="primary" onClick={() => navigate('/')}>
            {t('common.back_home')}
          </Button>
        }
      />
    </div>
  );
}
