import {
  ApiOutlined,
  AppstoreOutlined,
  AuditOutlined,
  CrownOutlined,
  DashboardOutlined,
  ExperimentOutlined,
  GiftOutlined,
  KeyOutlined,
  PictureOutlined,
  ScheduleOutlined,
  SettingOutlined,
  TeamOutlined,
  UnorderedListOutlined,
  UserOutlined,
  WalletOutlined,
} from '@ant-design/icons';
import { isAdmin, isRoot } from '@gateway/shared';
import type { ReactNode } from 'react';
import { readFlag } from '../../lib/storage';
import { STORAGE_KEYS } from '../../lib/storage-keys';

export interface SidebarEntry {
  path: string;
  labelKey: string;
  icon: ReactNode;
}

export interface SidebarGroup {
  key: 'console' | 'admin' | 'personal';
  labelKey: string;
  entries: SidebarEntry[];
}

/** The locally stored status flags that switch optional entries on (spec 001, Navigation). */
export interface SidebarFlags {
  dataExport: boolean;
  drawing: boolean;
  task: boolean;
}

export function readSidebarFlags(): SidebarFlags {
  return {
    dataExport: readFlag(STORAGE_KEYS.enableDataExport),
    drawing: readFlag(STORAGE_KEYS.enableDrawing),
    task: readFlag(STORAGE_KEYS.enableTask),
  };
}

function entry(path: string, labelKey: string, icon: ReactNode, shown = true): SidebarEntry[] {
  return shown ? [{ path, labelKey, icon }] : [];
}

/** The sidebar's groups for a visitor; groups left empty are dropped. */
export function buildSidebarGroups(role: number | undefined, flags: SidebarFlags): SidebarGroup[] {
  const admin = isAdmin(role);
  const groups: SidebarGroup[] = [
    {
      key: 'console',
      labelKey: 'nav.group_console',
      entries: [
        ...entry('/detail', 'nav.detail', <DashboardOutlined />, flags.dataExport),
        ...entry('/token', 'nav.token', <KeyOutlined />),
        // Not in the spec's sidebar, but the playground needs a way in besides typing its address.
        ...entry('/playground', 'nav.playground', <ExperimentOutlined />),
        ...entry('/log', 'nav.log', <UnorderedListOutlined />),
        ...entry('/midjourney', 'nav.midjourney', <PictureOutlined />, flags.drawing),
        ...entry('/task', 'nav.task', <ScheduleOutlined />, flags.task),
      ],
    },
    {
      key: 'admin',
      labelKey: 'nav.group_admin',
      entries: [
        ...entry('/channel', 'nav.channel', <ApiOutlined />, admin),
        ...entry('/models', 'models.nav', <AppstoreOutlined />, admin),
        ...entry('/redemption', 'nav.redemption', <GiftOutlined />, admin),
        ...entry('/subscription', 'subscription.nav', <CrownOutlined />, admin),
        ...entry('/user', 'nav.user', <TeamOutlined />, admin),
        ...entry('/audit', 'audit.nav', <AuditOutlined />, admin),
        // System settings are root's (the server refuses admins: they hold the secrets that guard root itself).
        ...entry('/setting', 'nav.setting', <SettingOutlined />, isRoot(role)),
      ],
    },
    {
      key: 'personal',
      labelKey: 'nav.group_personal',
      entries: [
        ...entry('/topup', 'nav.topup', <WalletOutlined />),
        ...entry('/personal', 'nav.personal', <UserOutlined />),
      ],
    },
  ];
  return groups.filter((group) => group.entries.length > 0);
}

/** Home, chat and setup use the full width (spec 001, Navigation). */
export function isSidebarHiddenOn(pathname: string): boolean {
  return pathname === '/' || pathname === '/setup' || pathname === '/chat' || pathname.startsWith('/chat/');
}

/** The menu key to highlight: the entry whose path is the longest prefix of the current one. */
export function selectedSidebarKey(pathname: string, groups: SidebarGroup[]): string | undefined {
  const paths = groups.flatMap((group) => group.entries.map((item) => item.path));
  return paths
    .filter((path) => pathname === path || pathname.startsWith(`${path}/`))
    .sort((a, b) => b.length - a.length)[0];
}
