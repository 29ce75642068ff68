import { useMutation } from '@tanstack/react-query';
import { CircleCheck } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link, useParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Field, fieldAria } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import {
  type FieldErrors,
  fieldErrors,
  hasErrors,
  MIN_PASSWORD,
  serverFieldErrors,
  validateNewPassword,
} from '@/lib/validation';
import { authApi } from '../api';
import { AuthCard } from './auth-card';

export function ConfirmPasswordResetForm() {
  const { uidb64, token } = useParams();
  const [password1, setPassword1] = useState('');
  const [password2, setPassword2] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const mutation = useMutation({
    mutationFn: () =>
      authApi.confirmPasswordReset({
        uid: uidb64 ?? '',
        token: token ?? '',
        new_password1: password1,
        new_password2: password2,
      }),
    onError: (error) => setErrors(serverFieldErrors(error)),
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const pw = validateNewPassword(password1, password2);
    const next = fieldErrors({ new_password1: pw.password, new_password2: pw.confirm });
    setErrors(next);
    if (!hasErrors(next)) mutation.mutate();
  };

  if (mutation.isSuccess) {
    return (
      <AuthCard title="Password changed" description="You can now sign in with your new password.">
        <div className="grid grid-cols-1 gap-4">
          <CircleCheck className="mx-auto size-12 text-success" aria-hidden="true" />
          <Button asChild>
            <Link to="/auth/login">Sign in</Link>
          </Button>
        </div>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Choose a new password">
      <form onSubmit={onSubmit} noValidate className="grid grid-cols-1 gap-4">
        <Field
          id="new_password1"
          label="New password"
          description={`At least ${MIN_PASSWORD} characters.`}
          errors={errors.new_password1 ?? errors.token ?? errors.uid}
        >
          <Input
            {...fieldAria('new_password1', errors.new_password1)}
            type="password"
            autoComplete="new-password"
            value={password1}
            onChange={(e) => setPassword1(e.target.value)}
            autoFocus
          />
        </Field>
        <Field id="new_password2" label="Confirm new password" errors={errors.new_password2}>
          <Input
            {...fieldAria('new_password2', errors.new_password2)}
            type="password"
            autoComplete="new-password"
            value={password2}
            onChange={(e) => setPassword2(e.target.value)}
          />
        </Field>
        <Button type="submit" disabled={mutation.isPending}>
          Change password
        </Button>
      </form>
    </AuthCard>
  );
}
