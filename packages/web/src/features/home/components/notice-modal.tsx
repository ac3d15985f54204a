import { NotificationOutlined } from '@ant-design/icons';
import { Button, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RichContent } from '../../../components/rich-content';
import { readStorage, writeStorage } from '../../../lib/storage';
import { STORAGE_KEYS } from '../../../lib/storage-keys';
import { useNotice } from '../api/use-notice';

/** Short, stable fingerprint of a notice: a new notice shows again even after the last one was dismissed. */
export function noticeFingerprint(text: string): string {
  let hash = 0;
  for (let i = 0; i < text.length; i += 1) hash = (Math.imul(31, hash) + text.charCodeAt(i)) | 0;
  return `${text.length}:${(hash >>> 0).toString(36)}`;
}

export function NoticeModal() {
  const { t } = useTranslation();
  const notice = useNotice();
  const [closed, setClosed] = useState(false);
  const text = (notice.data ?? '').trim();
  const dismissed = text !== '' && readStorage(STORAGE_KEYS.noticeDismissed) === noticeFingerprint(text);

  const dismissForGood = () => {
    writeStorage(STORAGE_KEYS.noticeDismissed, noticeFingerprint(text));
    setClosed(true);
  };

  return (
    <Modal
      open={text !== '' && !dismissed && !closed}
      title={
        <span>
          <NotificationOutlined style={{ marginInlineEnd: 8 }} />
          {t('home.notice_title')}
        </span>
      }
      onCancel={() => setClosed(true)}
      footer={[
        <Button key="dismiss" onClick={dismissForGood}>
          {t('home.notice_dismiss')}
        </Button>,
        <Button key="close" type="primary" onClick={() => setClosed(true)}>
          {t('home.notice_close')}
        </Button>,
      ]}
      width={640}
    >
      <div className="notice-body" data-testid="notice">
        <RichContent content={text} frameTitle={t('home.notice_title')} allowEmbed={false} />
      </div>
    </Modal>
  );
}
