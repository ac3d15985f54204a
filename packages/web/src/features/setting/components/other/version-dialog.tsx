import { InfoCircleOutlined } from '@ant-design/icons';
import { Button, Descriptions, Modal } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePublicStatus } from '../../../../hooks/use-status';

/** The running version and start time, as /api/status reports them. */
export function VersionDialog() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const status = usePublicStatus();
  return (
    <>
      <Button icon={<InfoCircleOutlined />} onClick={() => setOpen(true)}>
        {t('setting.other.version_button')}
      </Button>
      <Modal
        open={open}
        title={t('setting.other.version_title')}
        onCancel={() => setOpen(false)}
        footer={<Button onClick={() => setOpen(false)}>{t('ui.close')}</Button>}
      >
        <Descriptions column={1} bordered size="small">
          <Descriptions.Item label={t('setting.other.version')}>
            <span data-testid="version-value">{status.version || '—'}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('setting.other.started')}>
            {status.start_time ? dayjs.unix(status.start_time).format('YYYY-MM-DD HH:mm:ss') : '—'}
          </Descriptions.Item>
        </Descriptions>
      </Modal>
    </>
  );
}
