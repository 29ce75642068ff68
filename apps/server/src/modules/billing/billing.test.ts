import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingHelpers } from '../../../test/billing.js';
import { addMember, createUser, type TestUser } from '../../../test/factories.js';
import { STRIPE_TEST_PRICE, StripeMock } from '../../../test/stripe-mock.js';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { billingCustomers, projects, subscriptions, videos } from '../../db/schema.js';
import { LOCKED_MESSAGE } from '../../lib/access.js';
import { purgeDue } from '../trash/trash.purge.js';

describe('billing with Stripe: plans, checkout, portal and the project states', () => {
  let t: TestApp;
  const stripe = new StripeMock();
  let owner: TestUser;
  const { call, deliver, project, subscribedProject } = billingHelpers(() => t, stripe);

  beforeAll(async () => {
    await stripe.start();
    t = await createTestApp({ env: stripe.env(), listen: true });
    owner = await createUser(t.ctx, { email: 'olga.owner@lab.test', firstName: 'Olga', lastName: 'Owner' });
  });
  afterAll(async () => {
    await t.close();
    await stripe.stop();
  });

  it('reports billing on in /api/config/', async () => {
    const config = await t.app.inject({ method: 'GET', url: '/api/config/' });
    expect(config.json().billing_enabled).toBe(true);
  });

  it('a new project chooses its plan and starts as a draft: set-up works, uploads and analyses wait with the reason', async () => {
    const pro = (await call(owner, 'POST', '/api/projects/', { name: 'Pro draft' })).json();
    expect(pro).toMatchObject({ plan: 'pro', status: 'draft', subscription: null });
    const institutional = (await call(owner, 'POST', '/api/projects/', { name: 'Inst', plan: 'institutional' })).json();
    expect(institutional).toMatchObject({ plan: 'institutional', status: 'draft' });
    const badPlan = await call(owner, 'POST', '/api/projects/', { name: 'Free', plan: 'free' });
    expect(badPlan.json()).toEqual({ errors: { plan: ['Choose pro or institutional.'] } });

    // Reading and setting up (subjects, description, team) work on a draft.
    const subject = await call(owner, 'POST', `/api/projects/${pro.project_uuid}/subjects/`, { name: 'M1' });
    expect(subject.statusCode).toBe(201);
    expect(
      (await call(owner, 'PATCH', `/api/projects/${pro.project_uuid}/`, { metadata: { description: 'd' } })).statusCode,
    ).toBe(200);
    expect(
      (await call(owner, 'POST', `/api/projects/${pro.project_uuid}/invitations/`, { email: 'x@lab.test' })).statusCode,
    ).toBe(201);

    // Uploads wait: multipart, and the resumable (tus) endpoint.
    const videosUrl = `/api/projects/${pro.project_uuid}/subjects/${subject.json().subject_uuid}/videos/`;
    const upload = await t.app.inject({
      method: 'POST',
      url: videosUrl,
      headers: { ...owner.headers, 'content-type': 'multipart/form-data; boundary=x' },
      payload: '--x--\r\n',
    });
    expect(upload.statusCode).toBe(403);
    expect(upload.json().errors).toBe(
      'This project is a draft: uploads and analyses start once its Pro subscription is active. The project owner can subscribe on the project page.',
    );
    const meta = { project_uuid: pro.project_uuid, subject_uuid: subject.json().subject_uuid, filename: 'a.mp4' };
    const tus = await fetch(`${t.url}/api/uploads/`, {
      method: 'POST',
      headers: {
        ...owner.headers,
        'tus-resumable': '1.0.0',
        'upload-length': '100',
        'upload-metadata': Object.entries(meta)
          .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
          .join(','),
      },
    });
    expect(tus.status).toBe(403);
    expect(((await tus.json()) as { errors: string }).errors).toContain('This project is a draft');
    expect(await t.ctx.db.select().from(videos).where(eq(videos.projectUuid, pro.project_uuid))).toEqual([]);

    // Analyses wait too (a video row put there directly: drafts cannot upload one).
    const [video] = await t.ctx.db
      .insert(videos)
      .values({
        projectUuid: pro.project_uuid,
        subjectUuid: subject.json().subject_uuid,
        name: 'v',
        originalFilename: 'v.mp4',
        status: 'ready',
      })
      .returning();
    const analysis = await call(owner, 'POST', `${videosUrl}${video!.videoUuid}/analysis/`, {
      kind: 'movement_detection',
      parameters: {},
    });
    expect(analysis.statusCode).toBe(403);
    expect(analysis.json().errors).toContain('This project is a draft');

    // An institutional draft says who activates it.
    const instSubject = await call(owner, 'POST', `/api/projects/${institutional.project_uuid}/subjects/`, {
      name: 'M1',
    });
    const instUpload = await t.app.inject({
      method: 'POST',
      url: `/api/projects/${institutional.project_uuid}/subjects/${instSubject.json().subject_uuid}/videos/`,
      headers: { ...owner.headers, 'content-type': 'multipart/form-data; boundary=x' },
      payload: '--x--\r\n',
    });
    expect(instUpload.json().errors).toBe(
      'This project is a draft: uploads and analyses start once an operator activates its Institutional plan. Write to support@localhost to have it activated.',
    );
  });

  it('checkout creates one customer per owner and a Checkout Session for the project, answering its URL', async () => {
    const first = (await call(owner, 'POST', '/api/projects/', { name: 'Checkout one' })).json();
    const answer = await call(owner, 'POST', `/api/projects/${first.project_uuid}/subscriptions/checkout/`);
    expect(answer.statusCode).toBe(200);
    expect(answer.json().url).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/);

    const [customerCall] = stripe.callsTo('POST', '/v1/customers');
    expect(customerCall!.body).toEqual({
      email: 'olga.owner@lab.test',
      name: 'Olga Owner',
      metadata: { user_id: String(owner.id) },
    });
    const sessionCall = stripe.callsTo('POST', '/v1/checkout/sessions').at(-1)!;
    expect(sessionCall.headers['stripe-version']).toBeTruthy();
    expect(sessionCall.headers['idempotency-key']).toBeTruthy();
    const [customer] = await t.ctx.db.select().from(billingCustomers).where(eq(billingCustomers.userId, owner.id));
    expect(sessionCall.body).toEqual({
      mode: 'subscription',
      customer: customer!.stripeCustomerId,
      client_reference_id: first.project_uuid,
      line_items: [{ price: STRIPE_TEST_PRICE, quantity: '1' }],
      metadata: { project_uuid: first.project_uuid },
      subscription_data: { metadata: { project_uuid: first.project_uuid } },
      success_url: `${t.ctx.config.publicUrl}/projects/${first.project_uuid}?checkout=success`,
      cancel_url: `${t.ctx.config.publicUrl}/projects/${first.project_uuid}?checkout=canceled`,
    });

    // A second project of the same owner reuses the customer.
    const second = (await call(owner, 'POST', '/api/projects/', { name: 'Checkout two' })).json();
    expect((await call(owner, 'POST', `/api/projects/${second.project_uuid}/subscriptions/checkout/`)).statusCode).toBe(
      200,
    );
    expect(stripe.callsTo('POST', '/v1/customers')).toHaveLength(1);
    expect(stripe.callsTo('POST', '/v1/checkout/sessions').at(-1)!.body.customer).toBe(customer!.stripeCustomerId);
  });

  it('completing checkout activates the project and keeps plan, status, period end and provider ids', async () => {
    const { uuid, subscriptionId } = await subscribedProject(owner, 'Paid study');
    const subscription = stripe.subscriptions.get(subscriptionId)!;
    const body = await project(owner, uuid);
    expect(body.status).toBe('active');
    expect(body.plan).toBe('pro');
    expect(body.subscription).toEqual({
      status: 'active',
      current_period_end: new Date(subscription.items.data[0]!.current_period_end * 1000).toISOString(),
      cancel_at_period_end: false,
    });
    const [row] = await t.ctx.db.select().from(subscriptions).where(eq(subscriptions.projectUuid, uuid));
    expect(row).toMatchObject({
      plan: 'pro',
      status: 'active',
      stripeSubscriptionId: subscriptionId,
      stripeCustomerId: subscription.customer,
      stripePriceId: STRIPE_TEST_PRICE,
    });
    // The webhook read the subscription from Stripe rather than trusting the event.
    expect(stripe.callsTo('GET', `/v1/subscriptions/${subscriptionId}`)).toHaveLength(1);

    // One live subscription per project.
    const again = await call(owner, 'POST', `/api/projects/${uuid}/subscriptions/checkout/`);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ errors: 'This project already has a subscription: manage it with Manage billing.' });
  });

  it('the portal answers the Billing Portal URL of the paying customer, returning to the project page', async () => {
    const { uuid, subscriptionId } = await subscribedProject(owner, 'Portal study');
    const answer = await call(owner, 'POST', `/api/projects/${uuid}/subscriptions/portal/`);
    expect(answer.statusCode).toBe(200);
    expect(answer.json().url).toMatch(/^https:\/\/billing\.stripe\.test\/p\/session\/bps_/);
    expect(stripe.callsTo('POST', '/v1/billing_portal/sessions').at(-1)!.body).toEqual({
      customer: stripe.subscriptions.get(subscriptionId)!.customer,
      return_url: `${t.ctx.config.publicUrl}/projects/${uuid}`,
    });

    // Someone who never subscribed has nothing to manage.
    const newcomer = await createUser(t.ctx);
    const own = (await call(newcomer, 'POST', '/api/projects/', { name: 'Unpaid' })).json();
    const nothing = await call(newcomer, 'POST', `/api/projects/${own.project_uuid}/subscriptions/portal/`);
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json()).toEqual({ errors: 'There is no billing account to manage yet: subscribe first.' });
  });

  it('past_due keeps the project active with a warning; unpaid locks it; renewal unlocks it with nothing lost', async () => {
    const { uuid, subscriptionId } = await subscribedProject(owner, 'Lapsing study');
    const subject = (await call(owner, 'POST', `/api/projects/${uuid}/subjects/`, { name: 'M7' })).json();

    stripe.updateSubscription(subscriptionId, { status: 'past_due' });
    expect((await deliver(stripe.paymentFailedEvent(subscriptionId))).statusCode).toBe(200);
    expect(await project(owner, uuid)).toMatchObject({ status: 'active', subscription: { status: 'past_due' } });
    expect((await call(owner, 'POST', `/api/projects/${uuid}/subjects/`, { name: 'M8' })).statusCode).toBe(201);

    stripe.updateSubscription(subscriptionId, { status: 'unpaid' });
    await deliver(stripe.subscriptionEvent('customer.subscription.updated', subscriptionId));
    expect(await project(owner, uuid)).toMatchObject({ status: 'locked', subscription: { status: 'unpaid' } });

    // Locked: every write refused with the one message; reads work; nothing was deleted.
    const member = await createUser(t.ctx);
    await addMember(t.ctx, uuid, member.id, 'member');
    const writes = [
      call(owner, 'POST', `/api/projects/${uuid}/subjects/`, { name: 'M9' }),
      call(owner, 'PATCH', `/api/projects/${uuid}/subjects/${subject.subject_uuid}/`, { notes: 'n' }),
      call(owner, 'PATCH', `/api/projects/${uuid}/`, { metadata: { description: 'x' } }),
      call(owner, 'POST', `/api/projects/${uuid}/invitations/`, { email: 'late@lab.test' }),
      call(owner, 'PATCH', `/api/projects/${uuid}/members/${member.id}/`, { role: 'viewer' }),
      call(owner, 'DELETE', `/api/projects/${uuid}/members/${member.id}/`),
      call(owner, 'DELETE', `/api/projects/${uuid}/`),
      call(member, 'DELETE', `/api/projects/${uuid}/subjects/${subject.subject_uuid}/`),
    ];
    for (const response of await Promise.all(writes)) {
      expect(response.statusCode, response.body).toBe(403);
      expect(response.json()).toEqual({ errors: LOCKED_MESSAGE });
    }
    const list = await call(member, 'GET', `/api/projects/${uuid}/subjects/`);
    expect(
      list
        .json()
        .results.map((s: { name: string }) => s.name)
        .sort(),
    ).toEqual(['M7', 'M8']);
    // The owner can still reach billing to renew.
    expect((await call(owner, 'POST', `/api/projects/${uuid}/subscriptions/portal/`)).statusCode).toBe(200);

    stripe.updateSubscription(subscriptionId, { status: 'active' });
    await deliver(stripe.subscriptionEvent('customer.subscription.updated', subscriptionId));
    expect(await project(owner, uuid)).toMatchObject({ status: 'active', subscription: { status: 'active' } });
    expect((await call(member, 'POST', `/api/projects/${uuid}/subjects/`, { name: 'M9' })).statusCode).toBe(201);
    expect((await call(owner, 'GET', `/api/projects/${uuid}/`)).json().counts.subjects).toBe(3);
  });

  it('customer.subscription.updated: trialing keeps the project active, canceled locks it', async () => {
    const { uuid, subscriptionId } = await subscribedProject(owner, 'Trial study');
    stripe.updateSubscription(subscriptionId, { status: 'trialing' });
    await deliver(stripe.subscriptionEvent('customer.subscription.updated', subscriptionId));
    expect(await project(owner, uuid)).toMatchObject({ status: 'active', subscription: { status: 'trialing' } });
    stripe.updateSubscription(subscriptionId, { status: 'canceled' });
    await deliver(stripe.subscriptionEvent('customer.subscription.updated', subscriptionId));
    expect(await project(owner, uuid)).toMatchObject({ status: 'locked', subscription: { status: 'canceled' } });
  });

  it('cancellation at the period end keeps the project active until Stripe deletes the subscription, then locks it', async () => {
    const { uuid, subscriptionId } = await subscribedProject(owner, 'Ending study');
    stripe.updateSubscription(subscriptionId, { cancel_at_period_end: true });
    await deliver(stripe.subscriptionEvent('customer.subscription.updated', subscriptionId));
    expect(await project(owner, uuid)).toMatchObject({
      status: 'active',
      subscription: { status: 'active', cancel_at_period_end: true },
    });
    stripe.updateSubscription(subscriptionId, { status: 'canceled' });
    await deliver(stripe.subscriptionEvent('customer.subscription.deleted', subscriptionId));
    expect(await project(owner, uuid)).toMatchObject({ status: 'locked', subscription: { status: 'canceled' } });

    // A new checkout is possible once the old subscription has ended, and it replaces it.
    const checkout = await call(owner, 'POST', `/api/projects/${uuid}/subscriptions/checkout/`);
    expect(checkout.statusCode).toBe(200);
    const sessionId = new URL(checkout.json().url).pathname.split('/').pop()!;
    await deliver(stripe.completeCheckout(sessionId, { created: Math.floor(Date.now() / 1000) + 5 }));
    expect(await project(owner, uuid)).toMatchObject({ status: 'active', subscription: { status: 'active' } });
    // The old subscription's late events no longer touch the project.
    await deliver(stripe.subscriptionEvent('customer.subscription.deleted', subscriptionId));
    expect((await project(owner, uuid)).status).toBe('active');
  });

  it('a deleted project keeps its subscription while it can be restored, and cancels it at Stripe when purged', async () => {
    const { uuid, subscriptionId } = await subscribedProject(owner, 'Deleted study');
    const confirm = encodeURIComponent('Deleted study');
    expect((await call(owner, 'DELETE', `/api/projects/${uuid}/?confirm_name=${confirm}`)).statusCode).toBe(204);
    // In the trash it can still be restored, and a canceled subscription would lock it: nothing is called yet.
    expect(stripe.callsTo('DELETE', `/v1/subscriptions/${subscriptionId}`)).toHaveLength(0);
    await t.ctx.db
      .update(projects)
      .set({ purgeAt: new Date(Date.now() - 1000) })
      .where(eq(projects.projectUuid, uuid));
    expect(await purgeDue(t.ctx)).toMatchObject({ projects: 1 });
    expect(stripe.callsTo('DELETE', `/v1/subscriptions/${subscriptionId}`)).toHaveLength(1);
    expect(stripe.subscriptions.get(subscriptionId)!.status).toBe('canceled');
  });

  it('after a transfer the subscription stays with the payer: the new owner cannot open their portal', async () => {
    const { uuid } = await subscribedProject(owner, 'Handed over');
    const heir = await createUser(t.ctx);
    await addMember(t.ctx, uuid, heir.id, 'admin');
    expect(
      (await call(owner, 'POST', `/api/projects/${uuid}/members/transfer-ownership/`, { user_id: heir.id })).statusCode,
    ).toBe(200);
    const portal = await call(heir, 'POST', `/api/projects/${uuid}/subscriptions/portal/`);
    expect(portal.statusCode).toBe(403);
    expect(portal.json().errors).toContain("billed to its previous owner's account");
  });

  it('when Stripe cannot be reached, checkout answers 502 and nothing changes', async () => {
    const newcomer = await createUser(t.ctx);
    const own = (await call(newcomer, 'POST', '/api/projects/', { name: 'Offline' })).json();
    stripe.failing = true;
    try {
      const answer = await call(newcomer, 'POST', `/api/projects/${own.project_uuid}/subscriptions/checkout/`);
      expect(answer.statusCode).toBe(502);
      expect(answer.json()).toEqual({
        errors: 'The payment provider could not be reached. Nothing was changed; try again in a moment.',
      });
    } finally {
      stripe.failing = false;
    }
    expect(await t.ctx.db.select().from(billingCustomers).where(eq(billingCustomers.userId, newcomer.id))).toEqual([]);
    expect((await project(newcomer, own.project_uuid)).status).toBe('draft');
  });
});

describe('billing off (no STRIPE_SECRET_KEY)', () => {
  let t: TestApp;
  let owner: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await createUser(t.ctx);
  });
  afterAll(() => t.close());

  it('projects are active, /api/config/ says billing is off, and billing calls say it is not configured', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/config/' })).json().billing_enabled).toBe(false);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/projects/',
      headers: owner.headers,
      payload: { name: 'Free lab', plan: 'institutional' },
    });
    expect(created.json()).toMatchObject({ status: 'active', subscription: null });
    const uuid = created.json().project_uuid;
    for (const path of ['checkout', 'portal']) {
      const answer = await t.app.inject({
        method: 'POST',
        url: `/api/projects/${uuid}/subscriptions/${path}/`,
        headers: owner.headers,
      });
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toEqual({ errors: 'Billing is not configured on this server: every project is active.' });
    }
    const webhook = await t.app.inject({
      method: 'POST',
      url: '/api/billing/webhook/',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=abc' },
      payload: '{}',
    });
    expect(webhook.statusCode).toBe(404);
  });
});
