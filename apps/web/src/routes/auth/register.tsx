import { AuthLayout } from '@/components/layout/auth-layout';
import { RegisterForm } from '@/features/auth/components/register-form';

export function Component() {
  return (
    <AuthLayout>
      <RegisterForm />
    </AuthLayout>
  );
}
