import { Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { USAGE_MODES } from '../usage-mode';

export function UsageModeHelp({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      open={open}
      onCancel={onClose}
      onOk={onClose}
      title={t('setup.mode_help_title')}
      cancelButtonProps={{ style: { display: 'none' } }}
    >
      {USAGE_MODES.map((mode) => (
        <div key={mode} className="mode-help-item">
          <Typography.Title level={5}>{t(`setup.mode.${mode}`)}</Typography.Title>
          <Typography.Paragraph type="secondary">{t(`setup.mode_desc.${mode}`)}</Typography.Paragraph>
        </div>
      ))}
    </Modal>
  );
}
