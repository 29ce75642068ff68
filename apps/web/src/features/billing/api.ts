import type { ApiResponse } from '@app/api';
import { useMutation } from '@tanstack/react-query';
import type { Project } from '@/features/projects/api';
import { api } from '@/lib/api-client-typed';

type Redirect = ApiResponse<'/api/projects/{project_uuid}/subscriptions/checkout/', 'post'>;

export const billingApi = {
  checkout: (projectUuid: string): Promise<Redirect> =>
    api.POST('/api/projects/{project_uuid}/subscriptions/checkout/', {
      params: { path: { project_uuid: projectUuid } },
    }),
  portal: (projectUuid: string): Promise<Redirect> =>
    api.POST('/api/projects/{project_uuid}/subscriptions/portal/', { params: { path: { project_uuid: projectUuid } } }),
};

/** Stripe's hosted pages live elsewhere: the browser goes there and comes back to the project page. */
function useRedirectTo(call: (projectUuid: string) => Promise<Redirect>) {
  return useMutation({
    mutationFn: call,
    onSuccess: ({ url }) => window.location.assign(url),
  });
}

export const useCheckout = () => useRedirectTo(billingApi.checkout);
export const usePortal = () => useRedirectTo(billingApi.portal);

/** A subscription that still bills (or may again): managed in the portal rather than bought anew. */
export function hasLiveSubscription(project: Pick<Project, 'subscription'>): boolean {
  const status = project.subscription?.status;
  return !!status && status !== 'canceled' && status !== 'incomplete_expired';
}

const STATUS_LABELS: Record<string, string> = {
  active: 'Active',
  trialing: 'Trial',
  past_due: 'Payment failed',
  unpaid: 'Unpaid',
  canceled: 'Ended',
  incomplete: 'Awaiting payment',
  incomplete_expired: 'Payment not completed',
  paused: 'Paused',
};

export const subscriptionStatusLabel = (status: string) => STATUS_LABELS[status] ?? status.replace(/_/g, ' ');
