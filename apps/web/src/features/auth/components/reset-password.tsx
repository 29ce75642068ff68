import { useMutation } from '@tanstack/react-query';
import { MailCheck } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Field, fieldAria } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { type FieldErrors, fieldErrors, hasErrors, serverFieldErrors, validateEmail } from '@/lib/validation';
import { authApi } from '../api';
import { AuthCard } from './auth-card';

export function ResetPasswordForm() {
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const mutation = useMutation({
    mutationFn: () => authApi.resetPassword(email.trim()),
    onError: (error) => setErrors(serverFieldErrors(error)),
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const next = fieldErrors({ email: validateEmail(email) });
    setErrors(next);
    if (!hasErrors(next)) mutation.mutate();
  };
  const back = (
    <Link to="/auth/login" className="font-medium text-primary underline-offset-4 hover:underline">
      Back to sign in
    </Link>
  );

  if (mutation.isSuccess) {
    return (
      <AuthCard
        title="Check your inbox"
        description={`If an account exists for ${email.trim()}, we sent it a link to choose a new password.`}
        footer={back}
      >
        <MailCheck className="mx-auto size-12 text-primary" aria-hidden="true" />
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Reset your password" description="We will e-mail you a link to choose a new one." footer={back}>
      <form onSubmit={onSubmit} noValidate className="grid grid-cols-1 gap-4">
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
        <Button type="submit" disabled={mutation.isPending}>
          Send reset link
        </Button>
      </form>
    </AuthCard>
  );
}
