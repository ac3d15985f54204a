import { Navigate, Outlet } from 'react-router';
import { sessionExpired, useSessionUser } from '../../lib/session';

/** Pages for signed-in users: without a stored user, go sign in (spec 000 §2). */
export function RequireAuth() {
  const user = useSessionUser();
  if (!user) return <Navigate to={sessionExpired() ? '/login?expired=true' : '/login'} replace />;
  return <Outlet />;
}
