/** What the test Stripe server speaks: Stripe's object shapes (typed with the SDK's types) and its form encoding. */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type Stripe from 'stripe';

export const STRIPE_TEST_KEY = 'sk_test_mock_0123456789';
export const STRIPE_TEST_WEBHOOK_SECRET = 'whsec_test_mock_secret';
export const STRIPE_TEST_PRICE = 'price_pro_monthly';

export type Customer = Pick<Stripe.Customer, 'id' | 'object' | 'email' | 'name' | 'metadata' | 'created' | 'livemode'>;
export type CheckoutSession = Pick<
  Stripe.Checkout.Session,
  | 'id'
  | 'object'
  | 'url'
  | 'mode'
  | 'status'
  | 'payment_status'
  | 'customer'
  | 'client_reference_id'
  | 'metadata'
  | 'subscription'
  | 'success_url'
  | 'cancel_url'
  | 'created'
  | 'livemode'
>;
export type PortalSession = Pick<
  Stripe.BillingPortal.Session,
  'id' | 'object' | 'url' | 'customer' | 'return_url' | 'created' | 'livemode'
>;
export type SubscriptionItem = Pick<
  Stripe.SubscriptionItem,
  'id' | 'object' | 'current_period_start' | 'current_period_end' | 'quantity' | 'created' | 'subscription'
> & { price: Pick<Stripe.Price, 'id' | 'object' | 'active' | 'currency' | 'unit_amount'> };
export type MockSubscription = Pick<
  Stripe.Subscription,
  'id' | 'object' | 'customer' | 'status' | 'cancel_at_period_end' | 'created' | 'metadata' | 'livemode'
> & { items: { object: 'list'; data: SubscriptionItem[]; has_more: boolean; url: string } };
export type Invoice = Pick<Stripe.Invoice, 'id' | 'object' | 'customer' | 'status' | 'created' | 'livemode'> & {
  parent: {
    type: 'subscription_details';
    quote_details: null;
    subscription_details: { subscription: string; metadata: Record<string, string> };
  };
};
export type MockEvent = Pick<
  Stripe.Event,
  'id' | 'object' | 'api_version' | 'created' | 'livemode' | 'pending_webhooks'
> & {
  type: string;
  data: { object: unknown };
  request: { id: null; idempotency_key: null };
};

export interface RecordedCall {
  method: string;
  path: string;
  body: Record<string, unknown>;
  headers: IncomingMessage['headers'];
}

export const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
export const now = () => Math.floor(Date.now() / 1000);
export const DAY = 24 * 60 * 60;

/** Stripe's form encoding (`a[b][0][c]=v`) back into nested objects and arrays. */
export function parseStripeForm(raw: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    const parts = key.split('[').map((part) => part.replace(/]$/, ''));
    let node: Record<string, unknown> = root;
    parts.forEach((part, index) => {
      if (index === parts.length - 1) {
        node[part] = value;
        return;
      }
      const nextIsIndex = /^\d+$/.test(parts[index + 1]!);
      node[part] ??= nextIsIndex ? [] : {};
      node = node[part] as Record<string, unknown>;
    });
  }
  return root;
}

export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code = 'parameter_missing',
    readonly param?: string,
  ) {
    super(message);
  }
}

export function required(body: Record<string, unknown>, path: string): string {
  const value = path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)?.[key], body);
  if (typeof value !== 'string' || value === '') throw new StripeApiError(400, `Missing required param: ${path}.`);
  return value;
}

export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
