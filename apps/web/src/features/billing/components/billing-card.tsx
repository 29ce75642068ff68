import { CreditCard, ExternalLink, Loader2 } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useAppConfig } from '@/features/config/api';
import type { Project } from '@/features/projects/api';
import type { ProjectPermissions } from '@/features/projects/permissions';
import { formatDate } from '@/lib/format';
import { hasLiveSubscription, subscriptionStatusLabel, useCheckout, usePortal } from '../api';

const PLAN_NAMES: Record<Project['plan'], string> = { pro: 'Pro', institutional: 'Institutional' };

/** Plan, status and period end; the owner subscribes or manages billing in Stripe's pages. */
export function BillingCard({ project, permissions }: { project: Project; permissions: ProjectPermissions }) {
  const config = useAppConfig();
  const checkout = useCheckout();
  const portal = usePortal();

  if (!config.billing_enabled) {
    return (
      <Card className="h-fit" id="billing">
        <CardHeader>
          <CardTitle>Billing</CardTitle>
          <CardDescription>Billing is not configured on this server: every project is active.</CardDescription>
        </CardHeader>
      </Card>
    );
  }

  const subscription = project.subscription;
  const live = hasLiveSubscription(project);
  const periodEnd = subscription?.current_period_end ?? null;
  const rows = [
    { label: 'Plan', value: PLAN_NAMES[project.plan] },
    {
      label: 'Subscription',
      value: subscription ? subscriptionStatusLabel(subscription.status) : 'None yet',
    },
    ...(periodEnd
      ? [
          {
            label: !live ? 'Ended' : subscription?.cancel_at_period_end ? 'Ends' : 'Renews',
            value: formatDate(periodEnd),
          },
        ]
      : []),
  ];

  return (
    <Card className="h-fit" id="billing" data-testid="billing-card">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          Billing
          <Badge
            variant={project.status === 'active' ? 'success' : project.status === 'draft' ? 'warning' : 'secondary'}
          >
            {project.status === 'active' ? 'Active' : project.status === 'draft' ? 'Draft' : 'Locked'}
          </Badge>
        </CardTitle>
        <CardDescription>
          {project.plan === 'institutional' && !subscription
            ? `Institutional plans are activated by an operator. Questions: ${config.support_email}.`
            : 'Pro: paid by card, monthly, through Stripe.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-4">
        <dl className="grid grid-cols-1 gap-2 text-sm">
          {rows.map((row) => (
            <div key={row.label} className="flex items-baseline justify-between gap-3">
              <dt className="text-muted-foreground">{row.label}</dt>
              <dd className="font-medium">{row.value}</dd>
            </div>
          ))}
        </dl>
        {permissions.canManageBilling ? (
          live ? (
            <Button variant="outline" onClick={() => portal.mutate(project.project_uuid)} disabled={portal.isPending}>
              {portal.isPending ? (
                <Loader2 className="animate-spin" aria-hidden="true" />
              ) : (
                <ExternalLink aria-hidden="true" />
              )}
              Manage billing
            </Button>
          ) : project.plan === 'pro' || subscription ? (
            <Button onClick={() => checkout.mutate(project.project_uuid)} disabled={checkout.isPending}>
              {checkout.isPending ? (
                <Loader2 className="animate-spin" aria-hidden="true" />
              ) : (
                <CreditCard aria-hidden="true" />
              )}
              {subscription ? 'Subscribe again' : 'Subscribe'}
            </Button>
          ) : null
        ) : (
          <p className="text-muted-foreground text-xs">The project owner manages billing.</p>
        )}
      </CardContent>
    </Card>
  );
}
