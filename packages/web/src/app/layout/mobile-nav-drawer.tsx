import { Drawer, Menu, Tag } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { BrandLogo, useBrand } from '../../components/brand';
import { canRegister } from '../../features/auth/can-register';
import { usePublicStatus } from '../../hooks/use-status';
import { useSessionUser } from '../../lib/session';
import { SidebarMenu } from './sidebar-menu';
import { selectedTopNavKey, TOP_NAV } from './top-nav-items';

interface MobileNavDrawerProps {
  open: boolean;
  onClose: () => void;
}

/** On phones the top links and the sidebar share one drawer, opened from the menu button. */
export function MobileNavDrawer({ open, onClose }: MobileNavDrawerProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const user = useSessionUser();
  const status = usePublicStatus();
  const brand = useBrand();
  const selected = selectedTopNavKey(pathname);

  const topItems: Array<{ key: string; label: ReactNode }> = TOP_NAV.map((item) => ({
    key: item.path,
    label: (
      <Link to={item.path} onClick={onClose}>
        {t(item.labelKey)}
      </Link>
    ),
  }));
  if (!user) {
    topItems.push({
      key: '/login',
      label: (
        <Link to="/login" onClick={onClose}>
          {t('header.login')}
        </Link>
      ),
    });
    if (canRegister(status)) {
      topItems.push({
        key: '/register',
        label: (
          <Link to="/register" onClick={onClose}>
            {t('header.register')}
          </Link>
        ),
      });
    }
  }

  return (
    <Drawer
      open={open}
      onClose={onClose}
      placement="left"
      size={260}
      title={
        <span className="brand">
          <BrandLogo size={28} />
          <span className="brand-name">{brand.name}</span>
        </span>
      }
      styles={{ body: { padding: 8 } }}
      data-testid="mobile-nav"
    >
      {(status.self_use_mode_enabled || status.demo_site_enabled) && (
        <div className="drawer-badges">
          {status.self_use_mode_enabled && <Tag color="purple">{t('header.self_use_badge')}</Tag>}
          {status.demo_site_enabled && <Tag color="orange">{t('header.demo_badge')}</Tag>}
        </div>
      )}
      <Menu
        mode="inline"
        items={topItems}
        selectedKeys={selected ? [selected] : [pathname]}
        style={{ borderInlineEnd: 'none' }}
      />
      {user && <SidebarMenu onNavigate={onClose} />}
    </Drawer>
  );
}
