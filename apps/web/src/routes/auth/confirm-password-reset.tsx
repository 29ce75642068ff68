import { AuthLayout } from '@/components/layout/auth-layout';
import { ConfirmPasswordResetForm } from '@/features/auth/components/confirm-password-reset';

export function Component() {
  return (
    <AuthLayout>
      <ConfirmPasswordResetForm />
    </AuthLayout>
  );
}
