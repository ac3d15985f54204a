import { useTranslation } from 'react-i18next';
import { PageLoading } from '../../../components/page-loading';
import { RichContent } from '../../../components/rich-content';
import { isEmbeddedPage } from '../../../lib/rich-text';
import { useHomeContent } from '../api/use-home-content';
import { DefaultLanding } from '../components/default-landing';
import { NoticeModal } from '../components/notice-modal';

export default function HomePage() {
  const { t } = useTranslation();
  const home = useHomeContent();
  const content = (home.data ?? '').trim();

  let body: React.ReactNode;
  if (home.isPending) body = <PageLoading rows={10} />;
  // No custom content, or it could not be loaded (already reported): the built-in landing page.
  else if (!content) body = <DefaultLanding />;
  else if (isEmbeddedPage(content)) body = <RichContent content={content} frameTitle={t('home.frame_title')} />;
  else
    body = (
      <div className="page-container">
        <RichContent content={content} frameTitle={t('home.frame_title')} testId="home-content" />
      </div>
    );

  return (
    <>
      {body}
      <NoticeModal />
    </>
  );
}
