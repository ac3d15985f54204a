import { InfoCircleOutlined } from '@ant-design/icons';
import { Card, Empty, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { PageLoading } from '../../../components/page-loading';
import { RichContent } from '../../../components/rich-content';
import { isEmbeddedPage } from '../../../lib/rich-text';
import { useAbout } from '../api/use-about';

export default function AboutPage() {
  const { t } = useTranslation();
  const about = useAbout();

  if (about.isPending) return <PageLoading />;
  const content = (about.data ?? '').trim();
  if (content && isEmbeddedPage(content)) return <RichContent content={content} frameTitle={t('about.title')} />;

  return (
    <div className="page-container">
      <Card>
        {content ? (
          <RichContent content={content} frameTitle={t('about.title')} testId="about-content" />
        ) : (
          <Empty
            image={<InfoCircleOutlined className="empty-icon" />}
            description={
              <div data-testid="about-empty">
                <Typography.Title level={4}>{t('about.title')}</Typography.Title>
                <Typography.Paragraph type="secondary">
                  {about.isError ? t('about.load_failed') : t('about.empty')}
                </Typography.Paragraph>
              </div>
            }
          />
        )}
      </Card>
    </div>
  );
}
