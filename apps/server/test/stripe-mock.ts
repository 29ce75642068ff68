/**
 * A Stripe-compatible HTTP server for tests (stripe-mock cannot be installed here). The app's real `stripe` SDK is
 * pointed at it with STRIPE_API_URL; it checks what the SDK sends (secret key, API version, form-encoded bodies,
 * paths) and answers in Stripe's shapes, typed against the SDK's own types. Customers, checkout sessions and
 * subscriptions live in memory; tests move subscriptions along (as Stripe would) and sign the webhook events that
 * follow with the SDK's test-header helper.
 *
 * For browser tests it can also play Stripe's hosted pages and deliver webhooks itself (`pagesUrl`, `webhookUrl`):
 * its checkout page has a Pay button that completes the session, sends checkout.session.completed to the app and
 * returns to the success URL; `POST /__test/projects/{uuid}/subscription {"status"}` moves a project's subscription
 * and sends the event Stripe would.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

import {
  type CheckoutSession,
  type Customer,
  DAY,
  escapeHtml,
  type Invoice,
  type MockEvent,
  type MockSubscription,
  newId,
  now,
  type PortalSession,
  parseStripeForm,
  type RecordedCall,
  required,
  STRIPE_TEST_KEY,
  STRIPE_TEST_PRICE,
  STRIPE_TEST_WEBHOOK_SECRET,
  StripeApiError,
} from './stripe-mock-shapes.js';

export {
  type MockEvent,
  type MockSubscription,
  parseStripeForm,
  STRIPE_TEST_KEY,
  STRIPE_TEST_PRICE,
  STRIPE_TEST_WEBHOOK_SECRET,
} from './stripe-mock-shapes.js';

export interface StripeMockOptions {
  /** Where checkout and portal URLs point (default: unreachable stripe.test hosts); set to this server's URL for pages. */
  pagesUrl?: string;
  /** When set, the mock delivers the webhooks its pages and control calls cause, signed, to this URL. */
  webhookUrl?: string;
}

export class StripeMock {
  readonly calls: RecordedCall[] = [];
  readonly customers = new Map<string, Customer>();
  readonly sessions = new Map<string, CheckoutSession & { subscriptionMetadata: Record<string, string> }>();
  readonly subscriptions = new Map<string, MockSubscription>();
  /** Makes the next calls fail as if Stripe were down (the SDK's retries included). */
  failing = false;
  private server: Server | undefined;
  url = '';
  /** The SDK, for its webhook test helper. */
  readonly sdk = new Stripe(STRIPE_TEST_KEY);

  constructor(private readonly options: StripeMockOptions = {}) {}

  private checkoutUrl = (id: string) =>
    this.options.pagesUrl ? `${this.options.pagesUrl}/checkout/${id}` : `https://checkout.stripe.test/c/pay/${id}`;
  private portalUrl = (id: string) =>
    this.options.pagesUrl ? `${this.options.pagesUrl}/portal/${id}` : `https://billing.stripe.test/p/session/${id}`;

  async start(port = 0): Promise<this> {
    this.server = createServer((request, response) => {
      void this.handle(request, response);
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  /** The settings that turn billing on against this server. */
  env(): NodeJS.ProcessEnv {
    return {
      STRIPE_SECRET_KEY: STRIPE_TEST_KEY,
      STRIPE_WEBHOOK_SECRET: STRIPE_TEST_WEBHOOK_SECRET,
      STRIPE_PRICE_PRO: STRIPE_TEST_PRICE,
      STRIPE_API_URL: this.url,
    };
  }

  callsTo(method: string, path: string | RegExp): RecordedCall[] {
    return this.calls.filter(
      (call) => call.method === method && (typeof path === 'string' ? call.path === path : path.test(call.path)),
    );
  }

  private async handle(request: IncomingMessage, response: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(request.url ?? '/', this.url);
    if (!url.pathname.startsWith('/v1/')) {
      await this.handlePage(request.method ?? 'GET', url.pathname, raw, response).catch((error: unknown) => {
        response.writeHead(500, { 'content-type': 'text/plain' });
        response.end(String(error));
      });
      return;
    }
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json', 'request-id': newId('req') });
      response.end(JSON.stringify(body));
    };
    try {
      if (this.failing) throw new StripeApiError(500, 'Stripe is down (test).', 'api_error');
      if (request.headers.authorization !== `Bearer ${STRIPE_TEST_KEY}`) {
        throw new StripeApiError(401, 'Invalid API Key provided.', 'api_key_invalid');
      }
      if (!request.headers['stripe-version']) throw new StripeApiError(400, 'No Stripe-Version header.');
      if (
        request.method === 'POST' &&
        !String(request.headers['content-type']).startsWith('application/x-www-form-urlencoded')
      ) {
        throw new StripeApiError(400, 'Stripe takes form-encoded bodies.');
      }
      const body = parseStripeForm(raw);
      this.calls.push({ method: request.method ?? '', path: url.pathname, body, headers: request.headers });
      send(200, this.route(request.method ?? '', url.pathname, body));
    } catch (error) {
      const failure = error instanceof StripeApiError ? error : new StripeApiError(500, String(error), 'api_error');
      send(failure.status, {
        error: {
          type:
            failure.status === 401
              ? 'invalid_request_error'
              : failure.status >= 500
                ? 'api_error'
                : 'invalid_request_error',
          code: failure.code,
          message: failure.message,
          ...(failure.param ? { param: failure.param } : {}),
        },
      });
    }
  }

  private route(method: string, path: string, body: Record<string, unknown>): unknown {
    if (method === 'POST' && path === '/v1/customers') {
      const customer = {
        id: newId('cus'),
        object: 'customer',
        email: required(body, 'email'),
        name: (body.name as string) ?? null,
        metadata: (body.metadata as Record<string, string>) ?? {},
        created: now(),
        livemode: false,
      } satisfies Customer;
      this.customers.set(customer.id, customer);
      return customer;
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      if (body.mode !== 'subscription') throw new StripeApiError(400, 'Only subscription mode is expected here.');
      const customer = required(body, 'customer');
      if (!this.customers.has(customer))
        throw new StripeApiError(400, `No such customer: '${customer}'`, 'resource_missing', 'customer');
      const items = body.line_items as { price?: string; quantity?: string }[] | undefined;
      if (items?.length !== 1 || items[0]?.price !== STRIPE_TEST_PRICE || items[0]?.quantity !== '1') {
        throw new StripeApiError(
          400,
          `No such price: '${items?.[0]?.price}'`,
          'resource_missing',
          'line_items[0][price]',
        );
      }
      const id = newId('cs_test');
      const session = {
        id,
        object: 'checkout.session',
        url: this.checkoutUrl(id),
        mode: 'subscription',
        status: 'open',
        payment_status: 'unpaid',
        customer,
        client_reference_id: (body.client_reference_id as string) ?? null,
        metadata: (body.metadata as Record<string, string>) ?? {},
        subscription: null,
        success_url: required(body, 'success_url'),
        cancel_url: required(body, 'cancel_url'),
        created: now(),
        livemode: false,
      } satisfies CheckoutSession;
      const subscriptionData = body.subscription_data as { metadata?: Record<string, string> } | undefined;
      this.sessions.set(id, { ...session, subscriptionMetadata: subscriptionData?.metadata ?? {} });
      return session;
    }
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      const customer = required(body, 'customer');
      if (!this.customers.has(customer))
        throw new StripeApiError(400, `No such customer: '${customer}'`, 'resource_missing', 'customer');
      const id = newId('bps');
      return {
        id,
        object: 'billing_portal.session',
        url: this.portalUrl(id),
        customer,
        return_url: (body.return_url as string) ?? null,
        created: now(),
        livemode: false,
      } satisfies PortalSession;
    }
    const subscriptionPath = /^\/v1\/subscriptions\/([^/]+)$/.exec(path);
    if (subscriptionPath) {
      const subscription = this.subscriptions.get(subscriptionPath[1]!);
      if (!subscription)
        throw new StripeApiError(404, `No such subscription: '${subscriptionPath[1]}'`, 'resource_missing', 'id');
      if (method === 'GET') return subscription;
      if (method === 'DELETE') return this.updateSubscription(subscription.id, { status: 'canceled' });
    }
    throw new StripeApiError(404, `Unrecognized request URL (${method}: ${path}).`, 'resource_missing');
  }

  /** Stripe's hosted pages, played for browser tests, and the control calls of those tests. */
  private async handlePage(method: string, path: string, raw: string, response: ServerResponse) {
    const html = (status: number, body: string) => {
      response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
      response.end(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Test Stripe</title></head><body>${body}</body></html>`,
      );
    };
    const checkout = /^\/checkout\/([^/]+)(\/pay)?$/.exec(path);
    const session = checkout ? this.sessions.get(checkout[1]!) : undefined;
    if (method === 'GET' && path === '/__test/health') {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('ok');
    } else if (checkout && session && method === 'GET' && !checkout[2]) {
      html(
        200,
        `<h1>Test checkout</h1><p>Pro plan for project ${escapeHtml(session.client_reference_id ?? '')}</p>` +
          `<form method="post" action="/checkout/${session.id}/pay"><button type="submit">Pay</button></form>` +
          `<a href="${escapeHtml(session.cancel_url ?? '/')}">Cancel</a>`,
      );
    } else if (checkout && session && method === 'POST' && checkout[2]) {
      await this.deliver(this.completeCheckout(session.id));
      response.writeHead(303, { location: session.success_url ?? '/' });
      response.end();
    } else if (method === 'GET' && path.startsWith('/portal/')) {
      const call = this.callsTo('POST', '/v1/billing_portal/sessions').at(-1);
      html(200, `<h1>Test billing portal</h1><a href="${escapeHtml(String(call?.body.return_url ?? '/'))}">Return</a>`);
    } else if (method === 'POST' && /^\/__test\/projects\/[^/]+\/subscription$/.test(path)) {
      const projectUuid = path.split('/')[3]!;
      const { status } = JSON.parse(raw) as { status: Stripe.Subscription.Status };
      const subscription = [...this.subscriptions.values()]
        .filter((candidate) => candidate.metadata.project_uuid === projectUuid)
        .at(-1);
      if (!subscription) throw new Error(`no subscription for project ${projectUuid}`);
      this.updateSubscription(subscription.id, { status });
      const type = status === 'canceled' ? 'customer.subscription.deleted' : 'customer.subscription.updated';
      const delivered = await this.deliver(this.subscriptionEvent(type, subscription.id));
      response.writeHead(delivered.status, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ subscription: subscription.id, webhook_status: delivered.status }));
    } else {
      html(404, '<h1>Not found</h1>');
    }
  }

  /** Sends a signed event to the app's webhook, as Stripe does. */
  async deliver(event: MockEvent): Promise<Response> {
    if (!this.options.webhookUrl) throw new Error('this mock has no webhookUrl to deliver to');
    const { payload, headers } = this.signed(event);
    return fetch(this.options.webhookUrl, { method: 'POST', headers, body: payload });
  }

  // What Stripe does on its side, and the events it then sends.

  /** The customer pays: the session completes with a new active subscription. Answers the event Stripe sends. */
  completeCheckout(sessionId: string, options: { status?: string; created?: number } = {}): MockEvent {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error(`unknown session ${sessionId}`);
    const created = options.created ?? now();
    const id = newId('sub');
    const subscription: MockSubscription = {
      id,
      object: 'subscription',
      customer: session.customer as string,
      status: (options.status ?? 'active') as Stripe.Subscription.Status,
      cancel_at_period_end: false,
      created,
      metadata: session.subscriptionMetadata,
      livemode: false,
      items: {
        object: 'list',
        has_more: false,
        url: `/v1/subscription_items?subscription=${id}`,
        data: [
          {
            id: newId('si'),
            object: 'subscription_item',
            current_period_start: created,
            current_period_end: created + 30 * DAY,
            quantity: 1,
            created,
            subscription: id,
            price: { id: STRIPE_TEST_PRICE, object: 'price', active: true, currency: 'eur', unit_amount: 2900 },
          },
        ],
      },
    };
    this.subscriptions.set(id, subscription);
    const completed = { ...session, status: 'complete' as const, payment_status: 'paid' as const, subscription: id };
    this.sessions.set(sessionId, completed);
    const { subscriptionMetadata: _, ...sessionObject } = completed;
    return this.event('checkout.session.completed', sessionObject);
  }

  updateSubscription(
    id: string,
    changes: Partial<Pick<MockSubscription, 'status' | 'cancel_at_period_end'>> & { periodEnd?: number },
  ): MockSubscription {
    const subscription = this.subscriptions.get(id);
    if (!subscription) throw new Error(`unknown subscription ${id}`);
    const { periodEnd, ...fields } = changes;
    const item = subscription.items.data[0]!;
    const next: MockSubscription = {
      ...subscription,
      ...fields,
      items: {
        ...subscription.items,
        data: [{ ...item, ...(periodEnd ? { current_period_end: periodEnd } : {}) }],
      },
    };
    this.subscriptions.set(id, next);
    return next;
  }

  /** An event about a subscription, carrying the subscription as it is now (a copy, like Stripe's payloads). */
  subscriptionEvent(type: string, id: string, created?: number): MockEvent {
    const subscription = this.subscriptions.get(id);
    if (!subscription) throw new Error(`unknown subscription ${id}`);
    return this.event(type, structuredClone(subscription), created);
  }

  /** invoice.payment_failed for a subscription's renewal invoice. */
  paymentFailedEvent(subscriptionId: string): MockEvent {
    const subscription = this.subscriptions.get(subscriptionId)!;
    const invoice = {
      id: newId('in'),
      object: 'invoice',
      customer: subscription.customer,
      status: 'open',
      created: now(),
      livemode: false,
      parent: {
        type: 'subscription_details',
        quote_details: null,
        subscription_details: { subscription: subscriptionId, metadata: subscription.metadata },
      },
    } satisfies Invoice;
    return this.event('invoice.payment_failed', invoice);
  }

  event(type: string, object: unknown, created = now()): MockEvent {
    return {
      id: newId('evt'),
      object: 'event',
      api_version: Stripe.API_VERSION,
      created,
      livemode: false,
      pending_webhooks: 1,
      type,
      data: { object },
      request: { id: null, idempotency_key: null },
    };
  }

  /** The body and Stripe-Signature header of a webhook delivery, signed as Stripe signs them. */
  signed(event: MockEvent, options: { secret?: string; timestamp?: number } = {}) {
    const payload = JSON.stringify(event);
    const signature = this.sdk.webhooks.generateTestHeaderString({
      payload,
      secret: options.secret ?? STRIPE_TEST_WEBHOOK_SECRET,
      ...(options.timestamp ? { timestamp: options.timestamp } : {}),
    });
    return { payload, headers: { 'content-type': 'application/json', 'stripe-signature': signature } };
  }
}
