import { render } from '@testing-library/react';
import userEvent, { PointerEventsCheckLevel } from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { createMemoryRouter, type RouteObject, RouterProvider, useLocation } from 'react-router';
import { AppProviders } from '../app/providers';
import { createQueryClient } from '../lib/query-client';

/** Renders the current path, so a test can see where a navigation went. */
export function LocationProbe() {
  const location = useLocation();
  return <div data-testid="location">{`${location.pathname}${location.search}`}</div>;
}

/** Mounts routes inside the real providers (theme, antd, i18n, a retry-free query client). */
export function renderRoutes(routes: RouteObject[], initialPath = '/') {
  const router = createMemoryRouter(routes, { initialEntries: [initialPath] });
  const queryClient = createQueryClient({ retry: false });
  const view = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router, queryClient };
}

/** One page at one path, with a probe on every other path to catch navigations. */
export function renderPage(page: ReactNode, { path = '/', url = path }: { path?: string; url?: string } = {}) {
  return renderRoutes(
    [
      { path, element: page },
      { path: '*', element: <LocationProbe /> },
    ],
    url,
  );
}

/**
 * userEvent tuned for antd in jsdom: no per-keystroke timer, and no pointer-events check (it walks computed
 * styles up the tree on every click, which dominates the run time).
 */
export function setupUser() {
  return userEvent.setup({ delay: null, pointerEventsCheck: PointerEventsCheckLevel.Never });
}

/** Puts a whole value into a field in one input event (typing key by key re-renders antd forms per key). */
export async function fill(user: ReturnType<typeof setupUser>, field: HTMLElement, value: string) {
  await user.click(field);
  await user.paste(value);
}
