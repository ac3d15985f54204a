import { Layout } from 'antd';
import { Suspense, useEffect, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { PageLoading } from '../../components/page-loading';
import { useSessionUser } from '../../lib/session';
import { useIsMobile } from '../../lib/use-media-query';
import { AppFooter } from './app-footer';
import { MobileNavDrawer } from './mobile-nav-drawer';
import { Sidebar } from './sidebar';
import { isSidebarHiddenOn } from './sidebar-items';
import { TopBar } from './top-bar';
import { TwoFactorNotice } from './two-factor-notice';

export function AppLayout() {
  const { pathname } = useLocation();
  const isMobile = useIsMobile();
  const user = useSessionUser();
  const [drawerOpen, setDrawerOpen] = useState(false);
  // A signed-out visitor has nothing to open in the console menu: every entry would send them to /login.
  const showSidebar = !isMobile && user !== null && !isSidebarHiddenOn(pathname);

  // Leaving a page closes the phone drawer, whichever way the navigation happened.
  // biome-ignore lint/correctness/useExhaustiveDependencies: pathname is the trigger, not an input
  useEffect(() => setDrawerOpen(false), [pathname]);

  return (
    <Layout className="app-shell">
      <TopBar onOpenMenu={() => setDrawerOpen(true)} />
      <Layout hasSider={showSidebar}>
        {showSidebar && <Sidebar />}
        <Layout className="app-main">
          <Layout.Content className="app-content">
            <TwoFactorNotice />
            <Suspense fallback={<PageLoading />}>
              <Outlet />
            </Suspense>
          </Layout.Content>
          <AppFooter />
        </Layout>
      </Layout>
      {isMobile && <MobileNavDrawer open={drawerOpen} onClose={() => setDrawerOpen(false)} />}
    </Layout>
  );
}
