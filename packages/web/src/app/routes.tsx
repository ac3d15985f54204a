import type { ComponentType } from 'react';

/**
 * The console's whole route table (spec 001 §2). Access decides the guard: `public` pages need nothing, `user`
 * pages a stored user, `admin` pages role ≥ 10. A route without `page` is not built yet and falls through to
 * the not-found page.
 *
 * Adding a page is one line: give its row a `page`, a lazy import of a module whose default export is the page.
 */
/** `guest`: sign-in pages, which send a signed-in user to the console. `root`: the system settings, which hold the secrets that could hand over the root account. */
export type RouteAccess = 'public' | 'guest' | 'user' | 'admin' | 'root';

export interface PageRoute {
  path: string;
  access: RouteAccess;
  page?: () => Promise<{ default: ComponentType }>;
}

export const PAGE_ROUTES: PageRoute[] = [
  // Public
  { path: '/', access: 'public', page: () => import('../features/home/pages/home-page') },
  { path: '/setup', access: 'public', page: () => import('../features/setup/pages/setup-page') },
  { path: '/login', access: 'guest', page: () => import('../features/auth/pages/login-page') },
  { path: '/register', access: 'guest', page: () => import('../features/auth/pages/register-page') },
  { path: '/reset', access: 'guest', page: () => import('../features/auth/pages/reset-page') },
  { path: '/user/reset', access: 'public', page: () => import('../features/auth/pages/reset-confirm-page') }, // password reset confirm: ?token&email
  { path: '/oauth/github', access: 'public', page: () => import('../features/oauth/pages/oauth-callback-page') },
  { path: '/oauth/oidc', access: 'public', page: () => import('../features/oauth/pages/oauth-callback-page') },
  { path: '/oauth/linuxdo', access: 'public', page: () => import('../features/oauth/pages/oauth-callback-page') },
  // Custom providers the root added: `/oauth/<slug>`
  { path: '/oauth/:slug', access: 'public', page: () => import('../features/oauth/pages/oauth-callback-page') },
  { path: '/pricing', access: 'public', page: () => import('../features/pricing/pages/pricing-page') },
  { path: '/about', access: 'public', page: () => import('../features/about/pages/about-page') },
  // Signed-in users
  { path: '/token', access: 'user', page: () => import('../features/token/pages/token-page') }, // where a password login lands
  { path: '/playground', access: 'user', page: () => import('../features/playground/pages/playground-page') },
  { path: '/log', access: 'user', page: () => import('../features/log/pages/log-page') },
  { path: '/detail', access: 'user', page: () => import('../features/detail/pages/detail-page') },
  { path: '/midjourney', access: 'user', page: () => import('../features/midjourney/pages/midjourney-page') },
  { path: '/task', access: 'user', page: () => import('../features/task/pages/task-page') },
  { path: '/topup', access: 'user', page: () => import('../features/wallet/pages/wallet-page') },
  { path: '/personal', access: 'user', page: () => import('../features/personal/pages/personal-page') },
  { path: '/user/edit', access: 'user', page: () => import('../features/personal/pages/personal-page') }, // edit own account: the personal page
  { path: '/chat/:id?', access: 'user', page: () => import('../features/chat/pages/chat-page') },
  { path: '/chat2link', access: 'user', page: () => import('../features/chat/pages/chat2link-page') },
  // Admins
  { path: '/channel', access: 'admin', page: () => import('../features/channel/pages/channel-page') },
  { path: '/channel/add', access: 'admin', page: () => import('../features/channel/pages/channel-edit-page') },
  { path: '/channel/edit/:id', access: 'admin', page: () => import('../features/channel/pages/channel-edit-page') },
  { path: '/models', access: 'admin', page: () => import('../features/models/pages/models-page') },
  { path: '/redemption', access: 'admin', page: () => import('../features/redemption/pages/redemption-page') },
  { path: '/subscription', access: 'admin', page: () => import('../features/subscription/pages/subscription-page') },
  { path: '/user', access: 'admin', page: () => import('../features/users/pages/user-page') },
  { path: '/user/edit/:id', access: 'admin', page: () => import('../features/users/pages/user-page') }, // opens that user's edit drawer
  { path: '/audit', access: 'admin', page: () => import('../features/audit/pages/audit-page') },
  { path: '/setting', access: 'root', page: () => import('../features/setting/pages/setting-page') },
];
