/** The top bar's links (spec 001, Navigation): home, console, and the about page ("announcement"). */
export const TOP_NAV = [
  { path: '/', labelKey: 'nav.home' },
  { path: '/token', labelKey: 'nav.console' },
  { path: '/about', labelKey: 'nav.about' },
] as const;

export function selectedTopNavKey(pathname: string): string | undefined {
  if (pathname === '/') return '/';
  if (pathname === '/about') return '/about';
  if (pathname === '/login' || pathname === '/register' || pathname === '/reset' || pathname === '/setup') {
    return undefined;
  }
  return '/token';
}
