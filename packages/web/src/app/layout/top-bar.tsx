import { MenuOutlined } from '@ant-design/icons';
import { Button, Layout, Menu, Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { BrandLogo, useBrand } from '../../components/brand';
import { canRegister } from '../../features/auth/can-register';
import { usePublicStatus } from '../../hooks/use-status';
import { useSessionUser } from '../../lib/session';
import { useIsMobile } from '../../lib/use-media-query';
import { LanguageMenu } from './language-menu';
import { ThemeToggle } from './theme-toggle';
import { selectedTopNavKey, TOP_NAV } from './top-nav-items';
import { UserMenu } from './user-menu';

// Inline so it outranks antd's own horizontal-menu border and background.
const TOP_NAV_STYLE = { flex: 1, minWidth: 0, borderBottom: 'none', background: 'transparent' };

export function TopBar({ onOpenMenu }: { onOpenMenu: () => void }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const isMobile = useIsMobile();
  const user = useSessionUser();
  const status = usePublicStatus();
  const brand = useBrand();
  const selected = selectedTopNavKey(pathname);

  return (
    <Layout.Header className="app-header" style={{ paddingInline: isMobile ? 8 : 16 }} data-testid="top-bar">
      {isMobile && (
        <Button
          type="text"
          icon={<MenuOutlined />}
          onClick={onOpenMenu}
          aria-label={t('nav.open_menu')}
          data-testid="open-menu"
        />
      )}
      <Link to="/" className="brand" aria-label={t('nav.home')}>
        <BrandLogo />
        <span className="brand-name">{brand.name}</span>
      </Link>
      {!isMobile && (
        <Menu
          className="top-nav"
          mode="horizontal"
          style={TOP_NAV_STYLE}
          selectedKeys={selected ? [selected] : []}
          items={TOP_NAV.map((item) => ({ key: item.path, label: <Link to={item.path}>{t(item.labelKey)}</Link> }))}
        />
      )}
      <div className="header-actions">
        {!isMobile && status.self_use_mode_enabled && <Tag color="purple">{t('header.self_use_badge')}</Tag>}
        {!isMobile && status.demo_site_enabled && <Tag color="orange">{t('header.demo_badge')}</Tag>}
        <ThemeToggle />
        <LanguageMenu />
        {user ? (
          <UserMenu user={user} />
        ) : (
          // The page itself offers sign-in (or sign-up): a second button with the same name only confuses.
          <Space size={8}>
            {pathname !== '/login' && (
              <Button type={isMobile ? 'primary' : 'default'} onClick={() => navigate('/login')}>
                {t('header.login')}
              </Button>
            )}
            {!isMobile && pathname !== '/register' && canRegister(status) && (
              <Button type="primary" onClick={() => navigate('/register')}>
                {t('header.register')}
              </Button>
            )}
          </Space>
        )}
      </div>
    </Layout.Header>
  );
}
