import { useEffect, useState } from 'react';
import { Navigate } from 'react-router';
import { Spinner } from '@/components/ui/spinner';
import { logout } from '@/features/auth/session';

/** /auth/logout: ends the session, then shows the login page. */
export function Component() {
  const [done, setDone] = useState(false);
  useEffect(() => {
    let cancelled = false;
    void logout().then(() => {
      if (!cancelled) setDone(true);
    });
    return () => {
      cancelled = true;
    };
  }, []);
  return done ? <Navigate to="/auth/login" replace /> : <Spinner fullScreen />;
}
