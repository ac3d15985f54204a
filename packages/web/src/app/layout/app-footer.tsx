import { Layout, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBrand } from '../../components/brand';
import { usePublicStatus } from '../../hooks/use-status';
import { sanitizeHtml } from '../../lib/rich-text';
import { readStorage } from '../../lib/storage';
import { STORAGE_KEYS } from '../../lib/storage-keys';

// The family's footer re-reads the stored HTML a few times after mounting, because /api/status usually answers
// just after the first paint (spec 001, Navigation: every 200 ms, 5 times).
export const FOOTER_POLL_INTERVAL_MS = 200;
export const FOOTER_POLL_TIMES = 5;

function useStoredFooterHtml(): string {
  const status = usePublicStatus();
  const [html, setHtml] = useState(() => readStorage(STORAGE_KEYS.footerHtml) ?? '');

  useEffect(() => {
    let reads = 0;
    const timer = window.setInterval(() => {
      setHtml(readStorage(STORAGE_KEYS.footerHtml) ?? '');
      reads += 1;
      if (reads >= FOOTER_POLL_TIMES) window.clearInterval(timer);
    }, FOOTER_POLL_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, []);

  // A status fetched later (a slow server, a refetch) is picked up too.
  useEffect(() => {
    if (status.footer_html !== undefined) setHtml(readStorage(STORAGE_KEYS.footerHtml) ?? '');
  }, [status.footer_html]);

  return html;
}

export function AppFooter() {
  const { t } = useTranslation();
  const brand = useBrand();
  const html = useStoredFooterHtml();

  return (
    <Layout.Footer className="app-footer" data-testid="footer">
      {html.trim() ? (
        // biome-ignore lint/security/noDangerouslySetInnerHtml: admin HTML, sanitised by DOMPurify
        <div className="custom-footer" dangerouslySetInnerHTML={{ __html: sanitizeHtml(html) }} />
      ) : (
        <Typography.Text type="secondary">
          {t('footer.default', { name: brand.name, year: new Date().getFullYear() })}
        </Typography.Text>
      )}
    </Layout.Footer>
  );
}
