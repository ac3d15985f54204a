import { ReloadOutlined } from '@ant-design/icons';
import { Button, Card, Flex, Result, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { PasskeysCard } from '../../../components/passkey/passkeys-card';
import { useCopyText } from '../../../hooks/use-copy-text';
import { useSelf } from '../../../hooks/use-self';
import { usePublicStatus } from '../../../hooks/use-status';
import { useMediaQuery } from '../../../lib/use-media-query';
import { AccountCard } from '../components/account-card';
import { InviteCard } from '../components/invite-card';
import { ProfileCard } from '../components/profile-card';
import { SettingsCard } from '../components/settings-card';
import { TwoFactorCard } from '../components/two-factor-card';
import '../personal.css';

/**
 * Personal settings (spec 000 "Personal settings"). Also served at `/user/edit` (edit own account): everything a
 * user may change about themselves lives here.
 */
export default function PersonalPage() {
  const { t } = useTranslation();
  const self = useSelf();
  const status = usePublicStatus();
  const { copy, fallback } = useCopyText();
  const wide = useMediaQuery('(min-width: 1100px)');
  const onCopy = (text: string, successText?: string) => void copy(text, successText);

  if (self.isPending) {
    return (
      <div className="page-container personal-page" data-testid="personal-loading">
        <Flex vertical gap={16}>
          <Card>
            <Skeleton active avatar paragraph={{ rows: 4 }} />
          </Card>
          <Card>
            <Skeleton active paragraph={{ rows: 6 }} />
          </Card>
        </Flex>
      </div>
    );
  }

  if (self.isError || !self.data) {
    return (
      <div className="page-container personal-page">
        <Card>
          <Result
            status="warning"
            title={t('personal.load_failed')}
            subTitle={self.error instanceof Error ? self.error.message : undefined}
            extra={
              <Button icon={<ReloadOutlined />} onClick={() => void self.refetch()}>
                {t('common.retry')}
              </Button>
            }
          />
        </Card>
      </div>
    );
  }

  const user = self.data;
  const profile = <ProfileCard user={user} onCopy={onCopy} />;
  const invite = <InviteCard user={user} onCopy={onCopy} />;
  const account = <AccountCard user={user} status={status} onCopy={onCopy} />;
  const settings = <SettingsCard user={user} />;
  const passkeys = <PasskeysCard status={status} />;
  const twoFactor = <TwoFactorCard onCopy={onCopy} />;

  return (
    <div className="page-container personal-page">
      {wide ? (
        <div className="personal-columns">
          <Flex vertical gap={16} className="personal-column-main">
            {profile}
            {settings}
          </Flex>
          <Flex vertical gap={16} className="personal-column-side">
            {invite}
            {account}
            {passkeys}
            {twoFactor}
          </Flex>
        </div>
      ) : (
        <Flex vertical gap={16}>
          {profile}
          {invite}
          {account}
          {passkeys}
          {twoFactor}
          {settings}
        </Flex>
      )}
      {fallback}
    </div>
  );
}
