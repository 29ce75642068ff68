import { AuthLayout } from '@/components/layout/auth-layout';
import { VerificationSent } from '@/features/auth/components/verification-sent';

export function Component() {
  return (
    <AuthLayout>
      <VerificationSent />
    </AuthLayout>
  );
}
