import { AcceptInvite } from '@/features/auth/components/accept-invite';

export function Component() {
  return <AcceptInvite />;
}
