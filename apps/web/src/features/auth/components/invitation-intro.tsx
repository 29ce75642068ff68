import { MailOpen } from 'lucide-react';
import type { InvitationLanding } from '../invitation-landing';

/** Above the sign-in or sign-up form of an invitation link: which project, who invited, which address. */
export function InvitationIntro({ landing, action }: { landing: InvitationLanding; action: 'sign in' | 'sign up' }) {
  return (
    <div className="flex gap-3 rounded-lg border bg-muted/40 p-3 text-sm" data-testid="invitation-intro">
      <MailOpen className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
      <p>
        {landing.invited_by ? <strong>{landing.invited_by}</strong> : 'A project admin'} invited{' '}
        <strong>{landing.email}</strong> to the project <strong>{landing.project_name}</strong>.{' '}
        {action === 'sign in'
          ? 'Sign in with that address to join, or create an account with it.'
          : 'Create your account with that address; after verifying it, sign in to join.'}
      </p>
    </div>
  );
}
