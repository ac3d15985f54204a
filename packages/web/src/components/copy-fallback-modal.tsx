import { Input, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

interface CopyFallbackModalProps {
  /** The text the clipboard refused; null keeps the modal closed. */
  text: string | null;
  onClose: () => void;
}

/** When the browser refuses the clipboard (plain http, permissions), the text is shown to copy by hand. */
export function CopyFallbackModal({ text, onClose }: CopyFallbackModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      open={text !== null}
      title={t('token.copy_manual_title')}
      onCancel={onClose}
      onOk={onClose}
      okText={t('ui.close')}
      cancelButtonProps={{ style: { display: 'none' } }}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('token.copy_failed')}</Typography.Paragraph>
      <Input.TextArea
        aria-label={t('token.copy_manual_title')}
        value={text ?? ''}
        readOnly
        autoSize={{ minRows: 2, maxRows: 10 }}
        onFocus={(event) => event.target.select()}
        className="mono-text"
      />
    </Modal>
  );
}
