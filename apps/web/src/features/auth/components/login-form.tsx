import { useMutation } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { Field, fieldAria } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { type FieldErrors, fieldErrors, hasErrors, serverFieldErrors, validateEmail } from '@/lib/validation';
import { redirectTarget } from '@/routes/guards';
import { useInvitationLanding } from '../invitation-landing';
import { login } from '../session';
import { AuthCard } from './auth-card';
import { InvitationIntro } from './invitation-intro';

export function LoginForm() {
  const navigate = useNavigate();
  const location = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  // Sent here by an invitation link: name the project and the inviter, and fill in the invited address.
  const landing = useInvitationLanding(location.state);
  useEffect(() => {
    if (landing) setEmail((current) => current || landing.email);
  }, [landing]);

  const mutation = useMutation({
    mutationFn: () => login(email.trim(), password),
    onSuccess: () => navigate(redirectTarget(location.state), { replace: true }),
    onError: (error) => setErrors(serverFieldErrors(error)),
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const next = fieldErrors({ email: validateEmail(email), password: password ? null : 'Enter your password.' });
    setErrors(next);
    if (!hasErrors(next)) mutation.mutate();
  };

  return (
    <AuthCard
      title={landing ? `Join ${landing.project_name}` : 'Sign in'}
      description={landing ? 'You have been invited to a project.' : "Welcome back. Sign in to your lab's projects."}
      footer={
        <span>
          New here?{' '}
          <Link
            to="/auth/register"
            state={location.state}
            className="font-medium text-primary underline-offset-4 hover:underline"
          >
            Create an account
          </Link>
        </span>
      }
    >
      <form onSubmit={onSubmit} noValidate className="grid grid-cols-1 gap-4">
        {landing ? <InvitationIntro landing={landing} action="sign in" /> : null}
        <Field id="email" label="E-mail" errors={errors.email}>
          <Input
            {...fieldAria('email', errors.email)}
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            autoFocus
          />
        </Field>
        <Field
          id="password"
          label={
            <span className="flex w-full items-center justify-between">
              Password
              <Link
                to="/auth/reset-password"
                className="font-normal text-muted-foreground text-xs underline-offset-4 hover:text-foreground hover:underline"
              >
                Forgot password?
              </Link>
            </span>
          }
          errors={errors.password}
        >
          <Input
            {...fieldAria('password', errors.password)}
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </Field>
        <Button type="submit" className="w-full" disabled={mutation.isPending}>
          {mutation.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
          Sign in
        </Button>
      </form>
    </AuthCard>
  );
}
