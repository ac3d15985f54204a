import { LogoutOutlined, UserOutlined, WalletOutlined } from '@ant-design/icons';
import type { SessionUser } from '@gateway/shared';
import { Avatar, Button, Dropdown, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useLogout } from '../../features/auth/api/use-logout';
import { useFormatQuota } from '../../hooks/use-format-quota';
import { useSelf } from '../../hooks/use-self';
import { useIsMobile } from '../../lib/use-media-query';

export function UserMenu({ user }: { user: SessionUser }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const isMobile = useIsMobile();
  const logout = useLogout();
  const self = useSelf();
  const formatQuota = useFormatQuota();
  const name = user.display_name || user.username;

  const onLogout = () => logout.mutate();

  const balance = self.data ? formatQuota(self.data.quota) : '…';

  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: [
          {
            key: 'who',
            disabled: true,
            label: (
              <div className="user-menu-head">
                <Typography.Text strong>{name}</Typography.Text>
                <Typography.Text type="secondary" data-testid="user-balance">
                  {t('header.balance', { value: balance })}
                </Typography.Text>
              </div>
            ),
          },
          { type: 'divider' },
          { key: 'topup', icon: <WalletOutlined />, label: t('nav.topup'), onClick: () => navigate('/topup') },
          { key: 'personal', icon: <UserOutlined />, label: t('nav.personal'), onClick: () => navigate('/personal') },
          { type: 'divider' },
          { key: 'logout', icon: <LogoutOutlined />, label: t('header.logout'), danger: true, onClick: onLogout },
        ],
      }}
    >
      <Button type="text" className="user-menu-button" aria-label={t('header.user_menu')} data-testid="user-menu">
        <Avatar size="small" style={{ backgroundColor: '#4f46e5' }}>
          {name.slice(0, 1).toUpperCase()}
        </Avatar>
        {!isMobile && <span className="user-menu-name">{name}</span>}
      </Button>
    </Dropdown>
  );
}
