import { useMutation } from '@tanstack/react-query';
import { MailCheck } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Field, fieldAria } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { validateEmail } from '@/lib/validation';
import { authApi } from '../api';
import { AuthCard } from './auth-card';

/**
 * The same words whether the address was new or already had an account (the server answers both alike and the
 * e-mail says which), so this page tells nobody who has an account.
 */
const NEXT_STEP =
  'Open the link in it to activate your account. If this address already had an account, the e-mail tells you how ' +
  'to sign in instead.';

export function VerificationSent() {
  const location = useLocation();
  const initial = (location.state as { email?: string } | null)?.email ?? '';
  const [email, setEmail] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const resend = useMutation({
    mutationFn: () => authApi.resendEmail(email.trim()),
    onSuccess: () => toast.success('We sent a new verification link.'),
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const problem = validateEmail(email);
    setError(problem);
    if (!problem) resend.mutate();
  };

  return (
    <AuthCard
      title="Check your inbox"
      description={
        initial ? (
          <>
            We sent an e-mail to <strong className="text-foreground">{initial}</strong>. {NEXT_STEP}
          </>
        ) : (
          `We sent you an e-mail. ${NEXT_STEP}`
        )
      }
      footer={
        <Link to="/auth/login" className="font-medium text-primary underline-offset-4 hover:underline">
          Back to sign in
        </Link>
      }
    >
      <div className="mb-4 flex justify-center">
        <span className="flex size-12 items-center justify-center rounded-full bg-primary/10 text-primary">
          <MailCheck className="size-6" aria-hidden="true" />
        </span>
      </div>
      <form onSubmit={onSubmit} noValidate className="grid grid-cols-1 gap-3">
        <Field id="email" label="Didn't get it? Resend to" errors={error ? [error] : undefined}>
          <Input
            {...fieldAria('email', error ? [error] : undefined)}
            type="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </Field>
        <Button type="submit" variant="outline" disabled={resend.isPending}>
          Resend verification e-mail
        </Button>
      </form>
    </AuthCard>
  );
}
