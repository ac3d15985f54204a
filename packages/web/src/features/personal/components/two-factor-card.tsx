import { SafetyCertificateOutlined } from '@ant-design/icons';
import type { TwoFactorSetupView } from '@gateway/shared';
import { Alert, Button, Card, Flex, Modal, Skeleton, Tag, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../lib/notify';
import {
  useDisableTwoFactor,
  useRegenerateBackupCodes,
  useStartTwoFactorSetup,
  useTwoFactorStatus,
} from '../api/use-two-factor';
import { BackupCodes } from './backup-codes';
import { CodePromptModal } from './code-prompt-modal';
import { TwoFactorSetup } from './two-factor-setup';

/**
 * Two-factor sign-in on the personal page: its state; setting it up (QR code, key and backup codes shown once,
 * then a code); and, once on, new backup codes or turning it off, each for a code.
 */
export function TwoFactorCard({ onCopy }: { onCopy: (text: string, successText?: string) => void }) {
  const { t } = useTranslation();
  const status = useTwoFactorStatus();
  const start = useStartTwoFactorSetup();
  const disable = useDisableTwoFactor();
  const regenerate = useRegenerateBackupCodes();
  const [setup, setSetup] = useState<TwoFactorSetupView | null>(null);
  const [prompt, setPrompt] = useState<'disable' | 'regenerate' | null>(null);
  const [newCodes, setNewCodes] = useState<string[] | null>(null);

  const enabled = status.data?.enabled === true;
  const title = (
    <Flex gap={8} align="center">
      <SafetyCertificateOutlined />
      {t('two_factor.title')}
      {status.data && (
        <Tag color={enabled ? 'green' : 'default'} data-testid="two-factor-state">
          {enabled ? t('two_factor.on') : t('two_factor.off')}
        </Tag>
      )}
    </Flex>
  );

  const submitCode = (code: string) => {
    if (prompt === 'disable') {
      disable.mutate(code, {
        onSuccess: () => {
          notify.success(t('two_factor.disabled_done'));
          setPrompt(null);
        },
      });
    } else {
      regenerate.mutate(code, {
        onSuccess: (answer) => {
          setPrompt(null);
          setNewCodes(answer.backup_codes);
        },
      });
    }
  };

  let body: ReactNode;
  if (status.isPending) body = <Skeleton active paragraph={{ rows: 2 }} data-testid="two-factor-loading" />;
  else if (status.isError) {
    body = (
      <Alert
        type="error"
        showIcon
        title={t('two_factor.load_failed')}
        action={<Button onClick={() => void status.refetch()}>{t('common.retry')}</Button>}
      />
    );
  } else if (setup) {
    body = (
      <TwoFactorSetup setup={setup} onCopy={onCopy} onDone={() => setSetup(null)} onCancel={() => setSetup(null)} />
    );
  } else if (enabled) {
    body = (
      <Flex vertical gap={12}>
        <Typography.Paragraph type="secondary" className="personal-hint" style={{ margin: 0 }}>
          {t('two_factor.enabled_text')}
        </Typography.Paragraph>
        <Typography.Text data-testid="two-factor-remaining">
          {t('two_factor.backup_remaining', { count: status.data.backup_codes_remaining ?? 0 })}
        </Typography.Text>
        {status.data.locked && <Alert type="warning" showIcon title={t('two_factor.locked')} />}
        <Flex gap={8} wrap>
          <Button onClick={() => setPrompt('regenerate')} data-testid="two-factor-regenerate">
            {t('two_factor.regenerate')}
          </Button>
          <Button danger onClick={() => setPrompt('disable')} data-testid="two-factor-disable">
            {t('two_factor.disable')}
          </Button>
        </Flex>
      </Flex>
    );
  } else {
    body = (
      <Flex vertical gap={12} align="flex-start">
        <Typography.Paragraph type="secondary" className="personal-hint" style={{ margin: 0 }}>
          {t('two_factor.intro')}
        </Typography.Paragraph>
        <Button
          type="primary"
          loading={start.isPending}
          onClick={() => start.mutate(undefined, { onSuccess: setSetup })}
          data-testid="two-factor-start"
        >
          {t('two_factor.setup')}
        </Button>
      </Flex>
    );
  }

  return (
    <Card title={title} className="personal-card" data-testid="two-factor-card">
      {status.data?.setup_required && !setup && (
        <Alert
          type="warning"
          showIcon
          title={t('two_factor.setup_required')}
          style={{ marginBottom: 12 }}
          data-testid="two-factor-required"
        />
      )}
      {body}
      <CodePromptModal
        open={prompt !== null}
        title={prompt === 'disable' ? t('two_factor.disable_title') : t('two_factor.regenerate_title')}
        hint={prompt === 'disable' ? t('two_factor.disable_hint') : t('two_factor.regenerate_hint')}
        okText={prompt === 'disable' ? t('two_factor.disable') : t('two_factor.regenerate')}
        danger={prompt === 'disable'}
        loading={disable.isPending || regenerate.isPending}
        onSubmit={submitCode}
        onClose={() => setPrompt(null)}
      />
      <Modal
        open={newCodes !== null}
        title={t('two_factor.new_codes_title')}
        onCancel={() => setNewCodes(null)}
        onOk={() => setNewCodes(null)}
        okText={t('two_factor.done')}
        cancelButtonProps={{ style: { display: 'none' } }}
        destroyOnHidden
      >
        <Typography.Paragraph type="secondary">{t('two_factor.backup_hint')}</Typography.Paragraph>
        {newCodes && <BackupCodes codes={newCodes} onCopy={onCopy} />}
      </Modal>
    </Card>
  );
}
