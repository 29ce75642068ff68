import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorSchema, projectErrorResponses } from '../../lib/openapi.js';
import { projectScope } from '../../lib/project-scope.js';
import { billingProjectParams, redirectSchema, webhookReceivedSchema } from './billing.schemas.js';
import * as service from './billing.service.js';

const tags = ['subscriptions'];
const base = '/projects/:project_uuid/subscriptions';
const billingErrors = { ...projectErrorResponses, 502: errorSchema };

/** Checkout and portal for the project owner (they work on a locked project: that is how it is renewed). */
async function subscriptionRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  api.addHook('onRequest', app.authenticate);

  api.post(
    `${base}/checkout/`,
    {
      config: { access: 'owner', work: 'renew' },
      schema: {
        tags,
        summary: 'Start a Pro subscription: answers the Stripe Checkout page to send the owner to (owner only)',
        description:
          'The subscription is billed to the owner (one Stripe customer per owner). Checkout returns to the project page; the project becomes active when Stripe confirms the payment (webhook). 400 when billing is off or the project already has a subscription.',
        params: billingProjectParams,
        response: { 200: redirectSchema, ...billingErrors },
      },
    },
    async (request) => {
      const { user, project } = projectScope(request);
      return service.startCheckout(ctx, user, project);
    },
  );

  api.post(
    `${base}/portal/`,
    {
      config: { access: 'owner', work: 'renew' },
      schema: {
        tags,
        summary: "Open Stripe's Billing Portal (payment method, invoices, cancellation) for the owner (owner only)",
        params: billingProjectParams,
        response: { 200: redirectSchema, ...billingErrors },
      },
    },
    async (request) => {
      const { user, project } = projectScope(request);
      return service.openPortal(ctx, user, project);
    },
  );
}

/** Stripe's webhook: no session, the signature over the exact bytes received is the authentication. */
async function webhookRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  // The signature covers the raw body, so this route (and only it) keeps JSON as bytes.
  api.removeContentTypeParser('application/json');
  api.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  api.post(
    '/billing/webhook/',
    {
      schema: {
        tags,
        summary: 'Stripe webhook (signed with STRIPE_WEBHOOK_SECRET)',
        description:
          'Handles checkout.session.completed, customer.subscription.* and invoice.payment_failed by reading the subscription from Stripe. 400 when the signature does not verify (nothing changes); each event id is handled once.',
        security: [],
        response: { 200: webhookReceivedSchema, 400: errorSchema, 404: errorSchema },
      },
    },
    async (request) => {
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const signature = request.headers['stripe-signature'];
      await service.handleWebhook(app.ctx, body, typeof signature === 'string' ? signature : undefined);
      return { received: true as const };
    },
  );
}

export default async function billingRoutes(app: FastifyInstance) {
  await app.register(subscriptionRoutes);
  await app.register(webhookRoutes);
}
