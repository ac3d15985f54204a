import { Navigate, Outlet } from 'react-router';
import { useSessionUser } from '../../lib/session';

/**
 * Sign-in, registration and password reset are for visitors: someone already signed in who opens them goes to the
 * console (where a sign-in lands) instead of seeing a sign-in form inside it.
 */
export function GuestOnly() {
  const user = useSessionUser();
  if (user) return <Navigate to="/token" replace />;
  return <Outlet />;
}
