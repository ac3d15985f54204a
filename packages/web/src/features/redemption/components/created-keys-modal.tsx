import { CopyOutlined, DownloadOutlined } from '@ant-design/icons';
import { Alert, Button, Flex, Modal, Tooltip, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { downloadText } from '../../../lib/download';

interface CreatedKeysModalProps {
  /** The keys just created; null keeps the modal closed. */
  keys: string[] | null;
  /** The codes' name, used for the download's file name. */
  name: string;
  onCopy: (text: string, successText: string) => void;
  onClose: () => void;
}

/** Saves the keys as a text file, one per line. */
function downloadKeys(keys: string[], name: string): void {
  const safeName = name.replace(/[^\p{L}\p{N}._-]+/gu, '_').slice(0, 40) || 'codes';
  downloadText(`redemption-${safeName}-${dayjs().format('YYYYMMDD-HHmmss')}.txt`, `${keys.join('\n')}\n`, 'text/plain');
}

/** Right after creation: every new key, one per line, to copy (all or one) or download before closing. */
export function CreatedKeysModal({ keys, name, onCopy, onClose }: CreatedKeysModalProps) {
  const { t } = useTranslation();
  const list = keys ?? [];
  const copyAll = () => onCopy(list.join('\n'), t('redemption.keys_copied', { count: list.length }));

  return (
    <Modal
      open={keys !== null}
      title={t('redemption.created_title', { count: list.length })}
      onCancel={onClose}
      width={560}
      destroyOnHidden
      footer={
        <Flex gap={8} justify="flex-end" wrap>
          <Button icon={<DownloadOutlined />} onClick={() => downloadKeys(list, name)}>
            {t('redemption.download_keys')}
          </Button>
          <Button onClick={onClose}>{t('ui.close')}</Button>
          <Button type="primary" icon={<CopyOutlined />} onClick={copyAll}>
            {t('redemption.copy_all')}
          </Button>
        </Flex>
      }
    >
      <Flex vertical gap={12} data-testid="redemption-created-keys">
        <Alert type="success" showIcon title={t('redemption.created_hint')} />
        <div className="redemption-created-list">
          {list.map((key, index) => (
            <div key={key} className="redemption-created-row">
              <Typography.Text type="secondary" className="redemption-created-index">
                {index + 1}
              </Typography.Text>
              <Typography.Text className="mono-text redemption-created-key">{key}</Typography.Text>
              <Tooltip title={t('redemption.copy_key')}>
                <Button
                  type="text"
                  size="small"
                  icon={<CopyOutlined />}
                  aria-label={t('redemption.copy_key')}
                  onClick={() => onCopy(key, t('redemption.key_copied'))}
                />
              </Tooltip>
            </div>
          ))}
        </div>
      </Flex>
    </Modal>
  );
}
