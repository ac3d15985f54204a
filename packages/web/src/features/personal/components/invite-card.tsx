import { CopyOutlined, SwapOutlined } from '@ant-design/icons';
import type { SelfUser } from '@gateway/shared';
import { Button, Card, Col, Flex, Input, Row, Skeleton, Space, Statistic, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatQuota } from '../../../hooks/use-format-quota';
import { useAffCode } from '../api/use-aff-code';
import { TransferModal } from './transfer-modal';

interface InviteCardProps {
  user: SelfUser;
  onCopy: (text: string, successText?: string) => void;
}

export function inviteLink(code: string, origin = window.location.origin): string {
  return `${origin}/register?aff=${encodeURIComponent(code)}`;
}

/** The invite link, what inviting has earned, and the pending invitation quota with its transfer dialog. */
export function InviteCard({ user, onCopy }: InviteCardProps) {
  const { t } = useTranslation();
  const formatQuota = useFormatQuota();
  const aff = useAffCode();
  const [transferring, setTransferring] = useState(false);
  const link = aff.data ? inviteLink(aff.data) : '';

  return (
    <Card title={t('personal.invite_title')} data-testid="personal-invite" className="personal-card">
      <Flex vertical gap={16}>
        <Row gutter={[12, 12]}>
          <Col span={8}>
            <Statistic title={t('personal.invite_pending')} value={formatQuota(user.aff_quota)} />
          </Col>
          <Col span={8}>
            <Statistic title={t('personal.invite_earnings')} value={formatQuota(user.aff_history_quota)} />
          </Col>
          <Col span={8}>
            <Statistic title={t('personal.invite_count')} value={user.aff_count} />
          </Col>
        </Row>
        <Button icon={<SwapOutlined />} onClick={() => setTransferring(true)} block>
          {t('personal.transfer')}
        </Button>
        <div>
          <Typography.Text strong>{t('personal.invite_link')}</Typography.Text>
          <Typography.Paragraph type="secondary" className="personal-hint" style={{ margin: '2px 0 8px' }}>
            {t('personal.invite_hint')}
          </Typography.Paragraph>
          {aff.isPending ? (
            <Skeleton.Input active block />
          ) : (
            <Space.Compact style={{ width: '100%' }}>
              <Input
                readOnly
                value={link}
                aria-label={t('personal.invite_link')}
                className="mono-text"
                onFocus={(event) => event.target.select()}
                status={aff.isError ? 'error' : undefined}
                placeholder={aff.isError ? t('personal.invite_failed') : undefined}
              />
              <Button
                type="primary"
                icon={<CopyOutlined />}
                disabled={!link}
                onClick={() => onCopy(link, t('personal.invite_copied'))}
              >
                {t('personal.copy')}
              </Button>
            </Space.Compact>
          )}
        </div>
      </Flex>
      <TransferModal open={transferring} available={user.aff_quota} onClose={() => setTransferring(false)} />
    </Card>
  );
}
