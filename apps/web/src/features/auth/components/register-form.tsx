import { useMutation } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { Field, fieldAria } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import {
  type FieldErrors,
  fieldErrors,
  hasErrors,
  MIN_PASSWORD,
  serverFieldErrors,
  validateEmail,
  validateNewPassword,
} from '@/lib/validation';
import { authApi } from '../api';
import { useInvitationLanding } from '../invitation-landing';
import { AuthCard } from './auth-card';
import { InvitationIntro } from './invitation-intro';

export function RegisterForm() {
  const navigate = useNavigate();
  const [values, setValues] = useState({ first_name: '', last_name: '', email: '', password1: '', password2: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  // From an invitation link (through the sign-in page): name the project and fill in the invited address.
  const location = useLocation();
  const landing = useInvitationLanding(location.state);
  useEffect(() => {
    if (landing) setValues((v) => (v.email ? v : { ...v, email: landing.email }));
  }, [landing]);
  const set = (key: keyof typeof values) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setValues((v) => ({ ...v, [key]: e.target.value }));

  const mutation = useMutation({
    mutationFn: () =>
      authApi.register({
        email: values.email.trim(),
        password1: values.password1,
        password2: values.password2,
        first_name: values.first_name.trim(),
        last_name: values.last_name.trim(),
      }),
    onSuccess: () => navigate('/auth/verification-sent', { state: { email: values.email.trim() } }),
    onError: (error) => setErrors(serverFieldErrors(error)),
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const pw = validateNewPassword(values.password1, values.password2);
    const next = fieldErrors({ email: validateEmail(values.email), password1: pw.password, password2: pw.confirm });
    setErrors(next);
    if (!hasErrors(next)) mutation.mutate();
  };

  return (
    <AuthCard
      title={landing ? `Join ${landing.project_name}` : 'Create your account'}
      description={
        landing ? 'Create your account to accept the invitation.' : 'Start organising subjects and videos in minutes.'
      }
      footer={
        <span>
          Already have an account?{' '}
          <Link
            to="/auth/login"
            state={location.state}
            className="font-medium text-primary underline-offset-4 hover:underline"
          >
            Sign in
          </Link>
        </span>
      }
    >
      <form onSubmit={onSubmit} noValidate className="grid grid-cols-1 gap-4">
        {landing ? <InvitationIntro landing={landing} action="sign up" /> : null}
        <div className="grid grid-cols-2 gap-3">
          <Field id="first_name" label="First name" errors={errors.first_name}>
            <Input
              {...fieldAria('first_name', errors.first_name)}
              autoComplete="given-name"
              value={values.first_name}
              onChange={set('first_name')}
            />
          </Field>
          <Field id="last_name" label="Last name" errors={errors.last_name}>
            <Input
              {...fieldAria('last_name', errors.last_name)}
              autoComplete="family-name"
              value={values.last_name}
              onChange={set('last_name')}
            />
          </Field>
        </div>
        <Field id="email" label="E-mail" errors={errors.email}>
          <Input
            {...fieldAria('email', errors.email)}
            type="email"
            autoComplete="email"
            value={values.email}
            onChange={set('email')}
          />
        </Field>
        <Field
          id="password1"
          label="Password"
          description={`At least ${MIN_PASSWORD} characters.`}
          errors={errors.password1}
        >
          <Input
            {...fieldAria('password1', errors.password1)}
            type="password"
            autoComplete="new-password"
            value={values.password1}
            onChange={set('password1')}
          />
        </Field>
        <Field id="password2" label="Confirm password" errors={errors.password2}>
          <Input
            {...fieldAria('password2', errors.password2)}
            type="password"
            autoComplete="new-password"
            value={values.password2}
            onChange={set('password2')}
          />
        </Field>
        <Button type="submit" className="w-full" disabled={mutation.isPending}>
          {mutation.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
          Create account
        </Button>
      </form>
    </AuthCard>
  );
}
