import { useQuery } from '@tanstack/react-query';
import { AlertTriangle, CreditCard, ExternalLink, FileClock, Loader2, Lock } from 'lucide-react';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useAppConfig } from '@/features/config/api';
import { type Project, projectQueries } from '@/features/projects/api';
import { useProjectPermissions } from '@/features/projects/hooks/use-project-permissions';
import { draftMessage, LOCKED_MESSAGE } from '@/features/projects/permissions';
import { cn } from '@/lib/utils';
import { hasLiveSubscription, useCheckout, usePortal } from '../api';

/** While Stripe confirms a payment (back from checkout), the project is read again every 2 s until it is active. */
const CONFIRMING_POLL_MS = 2000;

/** Across every page of a project: why it is a draft, that a payment failed, or that it is locked, and what to do. */
export function ProjectStatusBanner({ project }: { project: Project }) {
  const [params] = useSearchParams();
  const config = useAppConfig();
  const permissions = useProjectPermissions(project);
  const checkout = useCheckout();
  const portal = usePortal();
  const confirming = params.get('checkout') === 'success' && project.status === 'draft';
  useQuery({
    ...projectQueries.detail(project.project_uuid),
    refetchInterval: confirming ? CONFIRMING_POLL_MS : false,
    enabled: confirming,
  });

  const subscriptionStatus = project.subscription?.status;
  const renew = () =>
    hasLiveSubscription(project) ? portal.mutate(project.project_uuid) : checkout.mutate(project.project_uuid);
  const busy = checkout.isPending || portal.isPending;
  const action = (label: string, onClick: () => void, icon: 'card' | 'portal') => (
    <Button size="sm" variant="outline" onClick={onClick} disabled={busy} className="mt-1">
      {busy ? (
        <Loader2 className="animate-spin" aria-hidden="true" />
      ) : icon === 'card' ? (
        <CreditCard aria-hidden="true" />
      ) : (
        <ExternalLink aria-hidden="true" />
      )}
      {label}
    </Button>
  );

  let banner: { tone: 'warning' | 'locked'; icon: typeof Lock; title: string; text: string; button?: ReactNode };
  if (project.status === 'locked') {
    banner = {
      tone: 'locked',
      icon: Lock,
      title: 'Locked',
      text: `${LOCKED_MESSAGE} ${
        permissions.canManageBilling
          ? 'Everything stays readable, and nothing has been deleted.'
          : project.plan === 'institutional' && !project.subscription
            ? `Write to ${config.support_email} to have it unlocked; nothing has been deleted.`
            : 'Ask the project owner to renew it; nothing has been deleted.'
      }`,
      button:
        permissions.canManageBilling && project.subscription
          ? action('Renew subscription', renew, hasLiveSubscription(project) ? 'portal' : 'card')
          : undefined,
    };
  } else if (project.status === 'draft') {
    banner = {
      tone: 'warning',
      icon: FileClock,
      title: confirming ? 'Confirming your payment…' : 'Draft',
      text: confirming
        ? 'Stripe is confirming the payment; the project becomes active in a moment.'
        : draftMessage(project.plan, config.support_email),
      button:
        permissions.canManageBilling && project.plan === 'pro' && !confirming
          ? action('Subscribe', () => checkout.mutate(project.project_uuid), 'card')
          : undefined,
    };
  } else if (subscriptionStatus === 'past_due') {
    banner = {
      tone: 'warning',
      icon: AlertTriangle,
      title: 'Payment failed',
      text: permissions.canManageBilling
        ? 'The last payment of the subscription failed. Update the payment method to keep the project active.'
        : 'The last payment of the subscription failed. The project owner needs to update the payment method to keep the project active.',
      button: permissions.canManageBilling
        ? action('Manage billing', () => portal.mutate(project.project_uuid), 'portal')
        : undefined,
    };
  } else {
    return null;
  }

  return (
    <Alert
      className={cn(
        'mb-6',
        banner.tone === 'warning'
          ? 'border-warning/50 bg-warning/10 text-amber-900 dark:text-warning'
          : 'border-muted-foreground/30 bg-muted text-foreground',
      )}
      role="status"
      data-testid="project-status-banner"
    >
      <banner.icon aria-hidden="true" />
      <AlertTitle>{banner.title}</AlertTitle>
      <AlertDescription className={banner.tone === 'warning' ? 'text-amber-900/90 dark:text-warning/90' : undefined}>
        <p>{banner.text}</p>
        {banner.button ?? null}
      </AlertDescription>
    </Alert>
  );
}
