import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingHelpers } from '../../../test/billing.js';
import { createUser, type TestUser } from '../../../test/factories.js';
import { StripeMock } from '../../../test/stripe-mock.js';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { billingEvents, projects, subscriptions } from '../../db/schema.js';
import { purgeDue } from '../trash/trash.purge.js';

describe('the Stripe webhook: signatures, duplicates, replays and order', () => {
  let t: TestApp;
  const stripe = new StripeMock();
  let owner: TestUser;
  const { call, deliver, project, subscribedProject } = billingHelpers(() => t, stripe);
  const eventRows = async (id: string) => t.ctx.db.select().from(billingEvents).where(eq(billingEvents.eventId, id));

  beforeAll(async () => {
    await stripe.start();
    t = await createTestApp({ env: stripe.env() });
    owner = await createUser(t.ctx);
  });
  afterAll(async () => {
    await t.close();
    await stripe.stop();
  });

  /** A draft project with an open checkout session, not yet paid. */
  async function pendingCheckout(name: string) {
    const uuid = (await call(owner, 'POST', '/api/projects/', { name })).json().project_uuid as string;
    const checkout = await call(owner, 'POST', `/api/projects/${uuid}/subscriptions/checkout/`);
    return { uuid, sessionId: new URL(checkout.json().url).pathname.split('/').pop()! };
  }

  it('refuses a bad signature with 400 and changes nothing', async () => {
    const { uuid, sessionId } = await pendingCheckout('Forged');
    const event = stripe.completeCheckout(sessionId);
    const refused = [
      await deliver(event, { secret: 'whsec_someone_else' }),
      // A valid signature over a different body.
      await (async () => {
        const { headers } = stripe.signed(event);
        const tampered = JSON.stringify({ ...event, data: { object: { ...(event.data.object as object), id: 'x' } } });
        return t.app.inject({ method: 'POST', url: '/api/billing/webhook/', headers, payload: tampered });
      })(),
      await t.app.inject({
        method: 'POST',
        url: '/api/billing/webhook/',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(event),
      }),
    ];
    for (const response of refused) {
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ errors: 'The webhook signature could not be verified.' });
    }
    expect((await project(owner, uuid)).status).toBe('draft');
    expect(await eventRows(event.id)).toEqual([]);
    expect(await t.ctx.db.select().from(subscriptions).where(eq(subscriptions.projectUuid, uuid))).toEqual([]);

    // The genuine delivery of the same event still works afterwards.
    expect((await deliver(event)).statusCode).toBe(200);
    expect((await project(owner, uuid)).status).toBe('active');
  });

  it('handles a duplicate delivery once', async () => {
    const { uuid, sessionId } = await pendingCheckout('Twice');
    const event = stripe.completeCheckout(sessionId);
    const first = await deliver(event);
    const second = await deliver(event);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect(second.json()).toEqual({ received: true });
    expect(await eventRows(event.id)).toHaveLength(1);
    const subscriptionId = stripe.sessions.get(sessionId)!.subscription as string;
    // The second delivery did not even ask Stripe again.
    expect(stripe.callsTo('GET', `/v1/subscriptions/${subscriptionId}`)).toHaveLength(1);
    expect((await project(owner, uuid)).status).toBe('active');
  });

  it('a replayed old event cannot undo a later change; a stale signature timestamp is refused', async () => {
    const { uuid, subscriptionId, checkoutEvent } = await subscribedProject(owner, 'Replayed');
    stripe.updateSubscription(subscriptionId, { status: 'canceled' });
    await deliver(stripe.subscriptionEvent('customer.subscription.deleted', subscriptionId));
    expect((await project(owner, uuid)).status).toBe('locked');

    // The checkout event delivered again (a retry or a replay, freshly signed): already handled, nothing changes.
    expect((await deliver(checkoutEvent)).statusCode).toBe(200);
    expect((await project(owner, uuid)).status).toBe('locked');
    // A captured delivery replayed after the signature tolerance (5 minutes) is refused.
    const old = await deliver(stripe.subscriptionEvent('customer.subscription.updated', subscriptionId), {
      timestamp: Math.floor(Date.now() / 1000) - 3600,
    });
    expect(old.statusCode).toBe(400);
  });

  it('events out of order end in Stripe’s current state, not in the last arrival’s', async () => {
    const { uuid, subscriptionId } = await subscribedProject(owner, 'Shuffled');
    // Stripe: payment fails (past_due), then the subscription is cancelled. The events arrive the other way round.
    stripe.updateSubscription(subscriptionId, { status: 'past_due' });
    const pastDue = stripe.subscriptionEvent('customer.subscription.updated', subscriptionId);
    const failed = stripe.paymentFailedEvent(subscriptionId);
    stripe.updateSubscription(subscriptionId, { status: 'canceled' });
    const deleted = stripe.subscriptionEvent('customer.subscription.deleted', subscriptionId);

    await deliver(deleted);
    expect((await project(owner, uuid)).status).toBe('locked');
    // The older events carry `past_due` in their payload; the project stays locked.
    expect((pastDue.data.object as { status: string }).status).toBe('past_due');
    await deliver(pastDue);
    await deliver(failed);
    expect(await project(owner, uuid)).toMatchObject({ status: 'locked', subscription: { status: 'canceled' } });
  });

  it('a report read from Stripe earlier never overwrites one read later', async () => {
    const { uuid, subscriptionId } = await subscribedProject(owner, 'Raced');
    // Two deliveries handled at once: whichever commits last, the newer read wins.
    stripe.updateSubscription(subscriptionId, { status: 'unpaid' });
    const a = stripe.subscriptionEvent('customer.subscription.updated', subscriptionId);
    const b = stripe.subscriptionEvent('customer.subscription.updated', subscriptionId);
    await Promise.all([deliver(a), deliver(b)]);
    expect((await project(owner, uuid)).status).toBe('locked');
    // A stored report read "later" than the next read (as when a slower delivery commits after a faster one):
    // the older read is ignored.
    await t.ctx.db
      .update(subscriptions)
      .set({ syncedAt: new Date(Date.now() + 60_000) })
      .where(eq(subscriptions.projectUuid, uuid));
    stripe.updateSubscription(subscriptionId, { status: 'active' });
    await deliver(stripe.subscriptionEvent('customer.subscription.updated', subscriptionId));
    expect((await project(owner, uuid)).status).toBe('locked');
  });

  it('ignores events about other objects and subscriptions of unknown projects, answering 200', async () => {
    const customerEvent = stripe.event('customer.created', { id: 'cus_x', object: 'customer' });
    const reads = stripe.callsTo('GET', /^\/v1\/subscriptions\//).length;
    expect((await deliver(customerEvent)).statusCode).toBe(200);
    expect(stripe.callsTo('GET', /^\/v1\/subscriptions\//)).toHaveLength(reads);
    expect(await eventRows(customerEvent.id)).toHaveLength(1);
    const { sessionId } = await pendingCheckout('Orphan');
    const event = stripe.completeCheckout(sessionId);
    const subscriptionId = stripe.sessions.get(sessionId)!.subscription as string;
    // A subscription whose project is gone (deleted and purged meanwhile) changes nothing.
    const uuid = stripe.sessions.get(sessionId)!.client_reference_id!;
    expect((await call(owner, 'DELETE', `/api/projects/${uuid}/?confirm_name=Orphan`)).statusCode).toBe(204);
    await t.ctx.db
      .update(projects)
      .set({ purgeAt: new Date(Date.now() - 1000) })
      .where(eq(projects.projectUuid, uuid));
    expect(await purgeDue(t.ctx)).toMatchObject({ projects: 1 });
    expect((await deliver(event)).statusCode).toBe(200);
    expect(
      await t.ctx.db.select().from(subscriptions).where(eq(subscriptions.stripeSubscriptionId, subscriptionId)),
    ).toEqual([]);
  });

  it('answers 500 when Stripe cannot be read, so that Stripe delivers the event again', async () => {
    const { uuid, sessionId } = await pendingCheckout('Retried');
    const event = stripe.completeCheckout(sessionId);
    stripe.failing = true;
    try {
      expect((await deliver(event)).statusCode).toBe(500);
    } finally {
      stripe.failing = false;
    }
    expect(await eventRows(event.id)).toEqual([]);
    expect((await project(owner, uuid)).status).toBe('draft');
    expect((await deliver(event)).statusCode).toBe(200);
    expect((await project(owner, uuid)).status).toBe('active');
  });
});
