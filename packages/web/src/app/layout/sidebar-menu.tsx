import { Menu, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { usePublicStatus } from '../../hooks/use-status';
import { useSessionUser } from '../../lib/session';
import { buildSidebarGroups, readSidebarFlags, selectedSidebarKey } from './sidebar-items';

interface SidebarMenuProps {
  collapsed?: boolean;
  onNavigate?: () => void;
}

/** The console menu, shared by the desktop sidebar and the phone drawer. */
export function SidebarMenu({ collapsed = false, onNavigate }: SidebarMenuProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const user = useSessionUser();
  // The flags live in localStorage; reading the status here re-renders the menu when a fresh one is stored.
  usePublicStatus();
  const groups = buildSidebarGroups(user?.role, readSidebarFlags());

  const items: MenuProps['items'] = groups.map((group) => ({
    type: 'group',
    key: group.key,
    label: collapsed ? null : t(group.labelKey),
    children: group.entries.map((item) => ({
      key: item.path,
      icon: item.icon,
      label: (
        <Link to={item.path} onClick={onNavigate}>
          {t(item.labelKey)}
        </Link>
      ),
    })),
  }));
  const selected = selectedSidebarKey(pathname, groups);

  return (
    <Menu
      mode="inline"
      inlineCollapsed={collapsed}
      items={items}
      selectedKeys={selected ? [selected] : []}
      style={{ borderInlineEnd: 'none' }}
      data-testid="sidebar-menu"
    />
  );
}
