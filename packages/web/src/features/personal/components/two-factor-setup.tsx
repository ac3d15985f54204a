import type { TwoFactorSetupView } from '@gateway/shared';
import { Alert, Button, Flex, Input, QRCode, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../lib/notify';
import { useEnableTwoFactor } from '../api/use-two-factor';
import { BackupCodes } from './backup-codes';

interface TwoFactorSetupProps {
  setup: TwoFactorSetupView;
  onCopy: (text: string, successText?: string) => void;
  onDone: () => void;
  onCancel: () => void;
}

/**
 * The three steps of turning it on: scan the QR code (drawn here in the browser, no outside service) or type the
 * key, keep the backup codes, prove it works with a code. Nothing is on until the code is accepted.
 */
export function TwoFactorSetup({ setup, onCopy, onDone, onCancel }: TwoFactorSetupProps) {
  const { t } = useTranslation();
  const enable = useEnableTwoFactor();
  const [code, setCode] = useState('');

  const submit = () => {
    if (!code.trim()) {
      notify.error(t('two_factor.code_required'));
      return;
    }
    enable.mutate(code.trim(), {
      onSuccess: () => {
        notify.success(t('two_factor.enabled_done'));
        onDone();
      },
    });
  };

  return (
    <Flex vertical gap={16} data-testid="two-factor-setup">
      <Alert type="info" showIcon title={t('two_factor.secret_once')} />
      <div>
        <Typography.Text strong>{t('two_factor.setup_scan')}</Typography.Text>
        <Flex gap={16} wrap align="center" className="two-factor-scan">
          <QRCode value={setup.qr_code_data} size={168} bgColor="#fff" color="#000" data-testid="two-factor-qr" />
          <div className="two-factor-secret">
            <Typography.Paragraph type="secondary" style={{ marginBottom: 4 }}>
              {t('two_factor.setup_secret')}
            </Typography.Paragraph>
            <Typography.Text
              code
              copyable={{ text: setup.secret }}
              className="mono-text two-factor-secret-text"
              data-testid="two-factor-secret"
            >
              {setup.secret}
            </Typography.Text>
          </div>
        </Flex>
      </div>
      <div>
        <Typography.Text strong>{t('two_factor.setup_backup')}</Typography.Text>
        <Typography.Paragraph type="secondary" className="personal-hint">
          {t('two_factor.backup_hint')}
        </Typography.Paragraph>
        <BackupCodes codes={setup.backup_codes} onCopy={onCopy} />
      </div>
      <div>
        <Typography.Text strong>{t('two_factor.setup_verify')}</Typography.Text>
        <Space.Compact style={{ width: '100%', maxWidth: 360, marginTop: 8, display: 'flex' }}>
          <Input
            value={code}
            onChange={(event) => setCode(event.target.value)}
            onPressEnter={submit}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={8}
            placeholder={t('two_factor.code_placeholder')}
            aria-label={t('two_factor.code_label')}
            className="mono-text"
            data-testid="two-factor-enable-code"
          />
          <Button type="primary" loading={enable.isPending} onClick={submit} data-testid="two-factor-enable">
            {t('two_factor.enable')}
          </Button>
        </Space.Compact>
      </div>
      <div>
        <Button onClick={onCancel}>{t('ui.cancel')}</Button>
      </div>
    </Flex>
  );
}
