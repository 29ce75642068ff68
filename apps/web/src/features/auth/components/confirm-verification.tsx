import { useMutation } from '@tanstack/react-query';
import { CircleCheck, CircleX, Loader2 } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link, useParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/errors';
import { authApi } from '../api';
import { useSession } from '../hooks/use-session';
import { AuthCard } from './auth-card';

export function ConfirmVerification() {
  const { key } = useParams();
  const { status } = useSession();
  const verify = useMutation({ mutationFn: () => authApi.verifyEmail(key ?? '') });
  const sent = useRef(false);
  const { mutate } = verify;

  useEffect(() => {
    // Verify once, even when React mounts effects twice in development.
    if (sent.current) return;
    sent.current = true;
    mutate();
  }, [mutate]);

  if (verify.isSuccess) {
    return (
      <AuthCard title="E-mail verified" description="Your account is ready.">
        <div className="grid grid-cols-1 gap-4">
          <CircleCheck className="mx-auto size-12 text-success" aria-hidden="true" />
          <Button asChild>
            <Link to={status === 'authenticated' ? '/' : '/auth/login'}>
              {status === 'authenticated' ? 'Open the dashboard' : 'Sign in'}
            </Link>
          </Button>
        </div>
      </AuthCard>
    );
  }
  if (verify.isError) {
    return (
      <AuthCard title="Verification failed" description={errorMessage(verify.error)}>
        <div className="grid grid-cols-1 gap-4">
          <CircleX className="mx-auto size-12 text-destructive" aria-hidden="true" />
          <Button asChild variant="outline">
            <Link to="/auth/verification-sent">Send a new link</Link>
          </Button>
        </div>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Verifying your e-mail" description="One moment…">
      <div role="status" className="flex items-center justify-center gap-2 text-muted-foreground text-sm">
        <Loader2 className="size-5 animate-spin" aria-hidden="true" />
        <span>Loading...</span>
      </div>
    </AuthCard>
  );
}
