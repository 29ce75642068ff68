import { expect } from 'vitest';
import type { TestUser } from './factories.js';
import type { MockEvent, StripeMock } from './stripe-mock.js';
import type { TestApp } from './test-app.js';

/** Helpers for tests of projects with billing on, against the Stripe mock. */
export function billingHelpers(getApp: () => TestApp, stripe: StripeMock) {
  const call = (user: TestUser, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    getApp().app.inject({ method, url, headers: user.headers, ...(payload ? { payload } : {}) });

  /** A webhook delivery, signed as Stripe signs it. */
  const deliver = (event: MockEvent, options: { secret?: string; timestamp?: number } = {}) => {
    const { payload, headers } = stripe.signed(event, options);
    return getApp().app.inject({ method: 'POST', url: '/api/billing/webhook/', headers, payload });
  };

  const project = async (user: TestUser, uuid: string) => (await call(user, 'GET', `/api/projects/${uuid}/`)).json();

  /** Creates a project, checks out and completes the payment: an active Pro project with its subscription id. */
  async function subscribedProject(owner: TestUser, name: string) {
    const created = await call(owner, 'POST', '/api/projects/', { name, plan: 'pro' });
    expect(created.statusCode, created.body).toBe(201);
    const uuid: string = created.json().project_uuid;
    const checkout = await call(owner, 'POST', `/api/projects/${uuid}/subscriptions/checkout/`);
    expect(checkout.statusCode, checkout.body).toBe(200);
    const sessionId = new URL(checkout.json().url).pathname.split('/').pop()!;
    const event = stripe.completeCheckout(sessionId);
    expect((await deliver(event)).statusCode).toBe(200);
    const subscriptionId = stripe.sessions.get(sessionId)!.subscription as string;
    return { uuid, sessionId, subscriptionId, checkoutEvent: event };
  }

  return { call, deliver, project, subscribedProject };
}
