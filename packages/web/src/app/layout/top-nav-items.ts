/**
 * The top bar's links (spec 001, Navigation): home, console, the public price list (people looked for it and could
 * not find it), and the about page ("announcement").
 */
export const TOP_NAV = [
  { path: '/', labelKey: 'nav.home' },
  { path: '/token', labelKey: 'nav.console' },
  { path: '/pricing', labelKey: 'nav.pricing' },
  { path: '/about', labelKey: 'nav.about' },
] as const;

export function selectedTopNavKey(pathname: string): string | undefined {
  if (pathname === '/') return '/';
  if (pathname === '/about') return '/about';
  if (pathname === '/pricing') return '/pricing';
  // Public pages outside the console highlight nothing; everything else belongs to the console.
  const outsideConsole = ['/login', '/register', '/reset', '/setup', '/user/reset'];
  if (outsideConsole.includes(pathname) || pathname.startsWith('/oauth/')) return undefined;
  return '/token';
}
