/**
 * Subscriptions with a payment provider (Stripe), behind the few calls the app makes. Present in the context only
 * when billing is configured (STRIPE_SECRET_KEY); with billing off every project is active and nothing calls it.
 */
export interface BillingProvider {
  readonly kind: 'stripe';
  /** A new customer for a project owner; answers the provider's customer id. */
  createCustomer(input: { email: string; name: string; userId: number }): Promise<string>;
  /** A hosted checkout page for a Pro subscription of one project. */
  createCheckoutSession(input: CheckoutInput): Promise<{ id: string; url: string }>;
  /** The hosted page where a customer manages payment methods, invoices and cancellation. */
  createPortalSession(input: { customerId: string; returnUrl: string }): Promise<{ url: string }>;
  /** The subscription as the provider knows it now (never the possibly stale copy inside a webhook). */
  retrieveSubscription(subscriptionId: string): Promise<SubscriptionFacts>;
  /** Ends a subscription at once (the project is being deleted). */
  cancelSubscription(subscriptionId: string): Promise<void>;
  /**
   * Checks a webhook's signature against the raw body and reads what the app needs from it.
   * Throws `InvalidWebhookSignature` when the signature, the body or its timestamp do not hold up.
   */
  verifyWebhook(rawBody: Buffer, signature: string): WebhookEvent;
}

export interface CheckoutInput {
  customerId: string;
  priceId: string;
  projectUuid: string;
  successUrl: string;
  cancelUrl: string;
}

export interface SubscriptionFacts {
  id: string;
  customerId: string;
  /** The provider's status: trialing, active, past_due, unpaid, canceled, incomplete, incomplete_expired, paused. */
  status: string;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  priceId: string | null;
  createdAt: Date;
  /** The project the subscription was bought for (its metadata), when set. */
  projectUuid: string | null;
}

/** A verified webhook event, reduced to what decides a project's state. */
export interface WebhookEvent {
  id: string;
  type: string;
  /** The subscription the event is about, when it is about one. */
  subscriptionId: string | null;
  /** The project named by the event itself (a checkout session's metadata or client reference). */
  projectUuid: string | null;
}

export class InvalidWebhookSignature extends Error {}
