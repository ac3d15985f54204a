import { Layout } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { readFlag, writeFlag } from '../../lib/storage';
import { STORAGE_KEYS } from '../../lib/storage-keys';
import { SidebarMenu } from './sidebar-menu';

export const SIDEBAR_WIDTH = 220;
export const SIDEBAR_COLLAPSED_WIDTH = 60;

// Sticks under the 64 px top bar while the page scrolls (inline: antd sets position on the same element).
const SIDER_STYLE = { position: 'sticky', top: 64, height: 'calc(100vh - 64px)', overflow: 'auto' } as const;

/** Desktop sidebar; the collapsed state is remembered in `default_collapse_sidebar`. */
export function Sidebar() {
  const { t } = useTranslation();
  const [collapsed, setCollapsed] = useState(() => readFlag(STORAGE_KEYS.defaultCollapseSidebar));

  const onCollapse = (next: boolean) => {
    writeFlag(STORAGE_KEYS.defaultCollapseSidebar, next);
    setCollapsed(next);
  };

  return (
    <Layout.Sider
      className="app-sider"
      theme="light"
      collapsible
      collapsed={collapsed}
      onCollapse={onCollapse}
      width={SIDEBAR_WIDTH}
      collapsedWidth={SIDEBAR_COLLAPSED_WIDTH}
      style={SIDER_STYLE}
      aria-label={t('nav.sidebar')}
      data-testid="sidebar"
    >
      <SidebarMenu collapsed={collapsed} />
    </Layout.Sider>
  );
}
