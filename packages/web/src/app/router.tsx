import { createBrowserRouter, type RouteObject } from 'react-router';
import { PageLoading } from '../components/page-loading';
import NotFoundPage from '../features/not-found/pages/not-found-page';
import { setUnauthorizedHandler } from '../lib/api';
import { GuestOnly } from './guards/guest-only';
import { RequireAdmin } from './guards/require-admin';
import { RequireAuth } from './guards/require-auth';
import { SetupGate } from './guards/setup-gate';
import { AppLayout } from './layout/app-layout';
import { RouteError } from './route-error';
import { PAGE_ROUTES, type PageRoute, type RouteAccess } from './routes';

function toRouteObject(route: PageRoute): RouteObject {
  const load = route.page!;
  return {
    path: route.path,
    lazy: async () => ({ Component: (await load()).default }),
  };
}

/** The route tree: setup gate → layout → guard per access level → pages, and not-found for the rest. */
export function buildRoutes(table: PageRoute[] = PAGE_ROUTES): RouteObject[] {
  const built = table.filter((route) => route.page);
  const pagesFor = (access: RouteAccess) => built.filter((route) => route.access === access).map(toRouteObject);
  return [
    {
      element: <SetupGate />,
      errorElement: <RouteError />,
      hydrateFallbackElement: <PageLoading />,
      children: [
        {
          element: <AppLayout />,
          children: [
            ...pagesFor('public'),
            { element: <GuestOnly />, children: pagesFor('guest') },
            { element: <RequireAuth />, children: pagesFor('user') },
            { element: <RequireAdmin />, children: pagesFor('admin') },
            { element: <RequireAdmin root />, children: pagesFor('root') },
            { path: '*', element: <NotFoundPage /> },
          ],
        },
      ],
    },
  ];
}

export function createAppRouter() {
  const router = createBrowserRouter(buildRoutes());
  // A 401 anywhere: the API client has already cleared the stored user; go sign in without a full reload.
  setUnauthorizedHandler(() => void router.navigate('/login?expired=true'));
  return router;
}
