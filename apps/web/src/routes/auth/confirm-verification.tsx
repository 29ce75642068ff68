import { AuthLayout } from '@/components/layout/auth-layout';
import { ConfirmVerification } from '@/features/auth/components/confirm-verification';

export function Component() {
  return (
    <AuthLayout>
      <ConfirmVerification />
    </AuthLayout>
  );
}
