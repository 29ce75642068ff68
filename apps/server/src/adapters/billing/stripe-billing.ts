import Stripe from 'stripe';
import type { BillingConfig } from '../../config.js';
import {
  type BillingProvider,
  type CheckoutInput,
  InvalidWebhookSignature,
  type SubscriptionFacts,
  type WebhookEvent,
} from './billing.js';

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === 'string' ? value : value.id;

/** Stripe through its official SDK; STRIPE_API_URL points the SDK at another host (a Stripe-compatible test server). */
export class StripeBilling implements BillingProvider {
  readonly kind = 'stripe';
  private readonly stripe: Stripe;

  constructor(private readonly config: BillingConfig) {
    const url = config.apiUrl;
    this.stripe = new Stripe(config.secretKey, {
      appInfo: { name: 'video-analysis' },
      ...(url
        ? {
            host: url.hostname,
            port: url.port || (url.protocol === 'https:' ? 443 : 80),
            protocol: url.protocol === 'https:' ? 'https' : 'http',
          }
        : {}),
    });
  }

  async createCustomer(input: { email: string; name: string; userId: number }): Promise<string> {
    const customer = await this.stripe.customers.create({
      email: input.email,
      name: input.name,
      metadata: { user_id: String(input.userId) },
    });
    return customer.id;
  }

  async createCheckoutSession(input: CheckoutInput): Promise<{ id: string; url: string }> {
    const session = await this.stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: input.customerId,
      client_reference_id: input.projectUuid,
      line_items: [{ price: input.priceId, quantity: 1 }],
      metadata: { project_uuid: input.projectUuid },
      subscription_data: { metadata: { project_uuid: input.projectUuid } },
      success_url: input.successUrl,
      cancel_url: input.cancelUrl,
    });
    if (!session.url) throw new Error(`Stripe answered checkout session ${session.id} without a URL`);
    return { id: session.id, url: session.url };
  }

  async createPortalSession(input: { customerId: string; returnUrl: string }): Promise<{ url: string }> {
    const session = await this.stripe.billingPortal.sessions.create({
      customer: input.customerId,
      return_url: input.returnUrl,
    });
    return { url: session.url };
  }

  async retrieveSubscription(subscriptionId: string): Promise<SubscriptionFacts> {
    const subscription = await this.stripe.subscriptions.retrieve(subscriptionId);
    // Since API version 2025-03-31 the billing period belongs to each item; a one-price subscription has one.
    const ends = subscription.items.data.map((item) => item.current_period_end).filter((end) => end > 0);
    return {
      id: subscription.id,
      customerId: idOf(subscription.customer) ?? '',
      status: subscription.status,
      currentPeriodEnd: ends.length > 0 ? new Date(Math.max(...ends) * 1000) : null,
      cancelAtPeriodEnd: subscription.cancel_at_period_end,
      priceId: subscription.items.data[0]?.price.id ?? null,
      createdAt: new Date(subscription.created * 1000),
      projectUuid: subscription.metadata?.project_uuid || null,
    };
  }

  async cancelSubscription(subscriptionId: string): Promise<void> {
    await this.stripe.subscriptions.cancel(subscriptionId);
  }

  verifyWebhook(rawBody: Buffer, signature: string): WebhookEvent {
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(rawBody, signature, this.config.webhookSecret);
    } catch (error) {
      throw new InvalidWebhookSignature(error instanceof Error ? error.message : String(error));
    }
    return { id: event.id, type: event.type, ...subjectOf(event) };
  }
}

/** Which subscription and project an event is about; other events change nothing here. */
function subjectOf(event: Stripe.Event): Pick<WebhookEvent, 'subscriptionId' | 'projectUuid'> {
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = event.data.object;
      return {
        subscriptionId: session.mode === 'subscription' ? idOf(session.subscription) : null,
        projectUuid: session.metadata?.project_uuid || session.client_reference_id || null,
      };
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
    case 'customer.subscription.paused':
    case 'customer.subscription.resumed':
      return { subscriptionId: event.data.object.id, projectUuid: event.data.object.metadata?.project_uuid || null };
    case 'invoice.payment_failed':
    case 'invoice.paid': {
      const details = event.data.object.parent?.subscription_details;
      return { subscriptionId: idOf(details?.subscription), projectUuid: details?.metadata?.project_uuid || null };
    }
    default:
      return { subscriptionId: null, projectUuid: null };
  }
}
