import { eq } from 'drizzle-orm';
import type { BillingProvider, SubscriptionFacts } from '../../adapters/billing/billing.js';
import { InvalidWebhookSignature } from '../../adapters/billing/billing.js';
import type { AppContext } from '../../context.js';
import { billingCustomers, billingEvents, projects, subscriptions, users } from '../../db/schema.js';
import { isUuid, type ProjectRow } from '../../lib/access.js';
import type { UserRow } from '../../lib/authenticate.js';
import { badRequest, forbidden, HttpError, notFound } from '../../lib/errors.js';
import { displayName } from '../users/user.serializer.js';

type ProjectStatus = ProjectRow['status'];
type SubscriptionRow = typeof subscriptions.$inferSelect;

export const BILLING_OFF_MESSAGE = 'Billing is not configured on this server: every project is active.';

/** Subscriptions that still bill (or may bill again): a project has at most one of these. */
const ENDED_STATUSES = new Set(['canceled', 'incomplete_expired']);
export const isLiveSubscription = (status: string) => !ENDED_STATUSES.has(status);

/**
 * The project's state for a subscription status: paid (or in its grace period) is active, ended or unpaid is locked.
 * `incomplete` (a first payment still being confirmed) changes nothing.
 */
export function projectStatusFor(subscriptionStatus: string): Exclude<ProjectStatus, 'draft'> | null {
  switch (subscriptionStatus) {
    case 'active':
    case 'trialing':
    case 'past_due':
      return 'active';
    case 'unpaid':
    case 'canceled':
    case 'incomplete_expired':
    case 'paused':
      return 'locked';
    default:
      return null;
  }
}

/** A new project starts active without billing; with billing it is a draft until it is paid for or activated. */
export const initialProjectStatus = (context: AppContext): ProjectStatus => (context.billing ? 'draft' : 'active');

function requireBilling(context: AppContext): BillingProvider {
  if (!context.billing) throw badRequest(BILLING_OFF_MESSAGE);
  return context.billing;
}

/** Stripe calls can fail (network, Stripe's own errors): the answer says so and nothing here changed. */
async function callProvider<T>(context: AppContext, what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof HttpError) throw error;
    context.logger.error({ err: error }, `billing: ${what} failed`);
    throw new HttpError(502, 'The payment provider could not be reached. Nothing was changed; try again in a moment.');
  }
}

async function customerIdOf(context: AppContext, userId: number): Promise<string | null> {
  const [row] = await context.db.select().from(billingCustomers).where(eq(billingCustomers.userId, userId)).limit(1);
  return row?.stripeCustomerId ?? null;
}

/** The owner's Stripe customer, created on their first checkout and reused for all their projects. */
async function ensureCustomer(context: AppContext, billing: BillingProvider, owner: UserRow): Promise<string> {
  const existing = await customerIdOf(context, owner.id);
  if (existing) return existing;
  const created = await callProvider(context, 'create customer', () =>
    billing.createCustomer({ email: owner.email, name: displayName(owner), userId: owner.id }),
  );
  // Two first checkouts at once: the first stored customer wins; the other stays unused at Stripe.
  await context.db
    .insert(billingCustomers)
    .values({ userId: owner.id, stripeCustomerId: created })
    .onConflictDoNothing({ target: billingCustomers.userId });
  return (await customerIdOf(context, owner.id)) ?? created;
}

async function subscriptionOf(context: AppContext, projectUuid: string): Promise<SubscriptionRow | null> {
  const [row] = await context.db.select().from(subscriptions).where(eq(subscriptions.projectUuid, projectUuid));
  return row ?? null;
}

const projectPageUrl = (context: AppContext, projectUuid: string) =>
  `${context.config.publicUrl}/projects/${projectUuid}`;

/** A Checkout Session for the Pro plan of this project, billed to its owner; answers the page to send them to. */
export async function startCheckout(
  context: AppContext,
  owner: UserRow,
  project: ProjectRow,
): Promise<{ url: string }> {
  const billing = requireBilling(context);
  const current = await subscriptionOf(context, project.projectUuid);
  if (current && isLiveSubscription(current.status)) {
    throw badRequest('This project already has a subscription: manage it with Manage billing.');
  }
  const customerId = await ensureCustomer(context, billing, owner);
  const page = projectPageUrl(context, project.projectUuid);
  return callProvider(context, 'create checkout session', async () => {
    const session = await billing.createCheckoutSession({
      customerId,
      priceId: context.config.billing!.priceProId,
      projectUuid: project.projectUuid,
      successUrl: `${page}?checkout=success`,
      cancelUrl: `${page}?checkout=canceled`,
    });
    return { url: session.url };
  });
}

/**
 * The Billing Portal of the customer who pays for this project. After an ownership transfer the subscription stays
 * with the customer who started it: the new owner cannot open someone else's payment details.
 */
export async function openPortal(context: AppContext, owner: UserRow, project: ProjectRow): Promise<{ url: string }> {
  const billing = requireBilling(context);
  const ownCustomer = await customerIdOf(context, owner.id);
  const current = await subscriptionOf(context, project.projectUuid);
  if (current && current.stripeCustomerId !== ownCustomer) {
    throw forbidden(
      "This project's subscription is billed to its previous owner's account: only they can manage it. Once it ends, you can subscribe here.",
    );
  }
  if (!ownCustomer) throw badRequest('There is no billing account to manage yet: subscribe first.');
  return callProvider(context, 'create portal session', () =>
    billing.createPortalSession({ customerId: ownCustomer, returnUrl: projectPageUrl(context, project.projectUuid) }),
  );
}

/** Deleting a project ends its subscription first, so nobody pays for a project that is gone. */
export async function cancelSubscriptionOf(context: AppContext, projectUuid: string): Promise<void> {
  const current = await subscriptionOf(context, projectUuid);
  if (!current || !isLiveSubscription(current.status)) return;
  if (!context.billing) {
    throw badRequest(
      'This project has a Stripe subscription, but billing is not configured on this server: it cannot be cancelled.',
    );
  }
  const billing = context.billing;
  await callProvider(context, 'cancel subscription', () => billing.cancelSubscription(current.stripeSubscriptionId));
}

/**
 * Brings one subscription's row and its project in line with Stripe. The subscription is read from Stripe now, not
 * taken from the event, so events that arrive late, twice or out of order all lead to Stripe's current state; a
 * report read earlier never overwrites one read later (`synced_at`), and an ended subscription's events never touch
 * a project that has moved on to a newer subscription.
 */
export async function syncSubscription(
  context: AppContext,
  billing: BillingProvider,
  subscriptionId: string,
  projectHint: string | null,
): Promise<void> {
  const readAt = new Date();
  const facts = await billing.retrieveSubscription(subscriptionId);
  const [known] = await context.db
    .select({ projectUuid: subscriptions.projectUuid })
    .from(subscriptions)
    .where(eq(subscriptions.stripeSubscriptionId, facts.id));
  const projectUuid = known?.projectUuid ?? facts.projectUuid ?? projectHint;
  if (!projectUuid || !isUuid(projectUuid)) {
    context.logger.warn({ subscription: facts.id }, 'billing: a subscription names no project of ours; ignored');
    return;
  }
  await context.db.transaction(async (tx) => {
    const [project] = await tx
      .select({ status: projects.status })
      .from(projects)
      .where(eq(projects.projectUuid, projectUuid))
      .for('update');
    if (!project) return;
    const [current] = await tx.select().from(subscriptions).where(eq(subscriptions.projectUuid, projectUuid));
    if (current && !replaces(current, facts, readAt)) return;
    const values = {
      plan: 'pro' as const,
      status: facts.status,
      currentPeriodEnd: facts.currentPeriodEnd,
      cancelAtPeriodEnd: facts.cancelAtPeriodEnd,
      stripeCustomerId: facts.customerId,
      stripeSubscriptionId: facts.id,
      stripePriceId: facts.priceId,
      stripeCreatedAt: facts.createdAt,
      syncedAt: readAt,
      updatedAt: new Date(),
    };
    await tx
      .insert(subscriptions)
      .values({ projectUuid, ...values })
      .onConflictDoUpdate({ target: subscriptions.projectUuid, set: values });
    const status = projectStatusFor(facts.status);
    await tx
      .update(projects)
      .set({ plan: 'pro', ...(status ? { status } : {}), updatedAt: new Date() })
      .where(eq(projects.projectUuid, projectUuid));
  });
}

/** Whether what was just read from Stripe should replace the project's stored subscription. */
function replaces(current: SubscriptionRow, facts: SubscriptionFacts, readAt: Date): boolean {
  if (current.stripeSubscriptionId === facts.id) return current.syncedAt.getTime() < readAt.getTime();
  // Another subscription of the same project: only a newer one takes over, and only once the stored one has ended.
  return !isLiveSubscription(current.status) && facts.createdAt.getTime() > current.stripeCreatedAt.getTime();
}

/**
 * A Stripe webhook: verified against the raw body, handled once per event id. A failure to reach Stripe answers 500,
 * and Stripe delivers the event again later.
 */
export async function handleWebhook(
  context: AppContext,
  rawBody: Buffer,
  signature: string | undefined,
): Promise<void> {
  const billing = context.billing;
  if (!billing) throw notFound(BILLING_OFF_MESSAGE);
  let event: ReturnType<BillingProvider['verifyWebhook']>;
  try {
    if (!signature) throw new InvalidWebhookSignature('no Stripe-Signature header');
    event = billing.verifyWebhook(rawBody, signature);
  } catch (error) {
    if (error instanceof InvalidWebhookSignature) {
      context.logger.warn({ reason: error.message }, 'billing: webhook refused');
      throw badRequest('The webhook signature could not be verified.');
    }
    throw error;
  }
  const [seen] = await context.db
    .select({ eventId: billingEvents.eventId })
    .from(billingEvents)
    .where(eq(billingEvents.eventId, event.id));
  if (seen) {
    context.logger.info({ event: event.id, type: event.type }, 'billing: event already handled');
    return;
  }
  if (event.subscriptionId) await syncSubscription(context, billing, event.subscriptionId, event.projectUuid);
  await context.db.insert(billingEvents).values({ eventId: event.id, type: event.type }).onConflictDoNothing();
  context.logger.info({ event: event.id, type: event.type }, 'billing: event handled');
}

/** What the operator command sets: institutional plans are activated by hand; any project can be locked. */
export async function setProjectStatusByOperator(
  context: AppContext,
  projectUuid: string,
  status: 'active' | 'locked',
): Promise<ProjectRow> {
  if (!isUuid(projectUuid)) throw notFound(`No project ${projectUuid}.`);
  const [row] = await context.db
    .update(projects)
    .set({ status, updatedAt: new Date() })
    .where(eq(projects.projectUuid, projectUuid))
    .returning();
  if (!row) throw notFound(`No project ${projectUuid}.`);
  return row;
}

/** Every project with its owner and subscription, for the operator command. */
export async function listProjectsForOperator(context: AppContext) {
  return context.db
    .select({
      projectUuid: projects.projectUuid,
      name: projects.name,
      plan: projects.plan,
      status: projects.status,
      ownerEmail: users.email,
      subscriptionStatus: subscriptions.status,
      currentPeriodEnd: subscriptions.currentPeriodEnd,
      createdAt: projects.createdAt,
      deletedAt: projects.deletedAt,
      purgeAt: projects.purgeAt,
    })
    .from(projects)
    .innerJoin(users, eq(users.id, projects.ownerId))
    .leftJoin(subscriptions, eq(subscriptions.projectUuid, projects.projectUuid))
    .orderBy(projects.createdAt);
}
