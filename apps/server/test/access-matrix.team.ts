import type { InjectOptions } from 'fastify';
import { invitations } from '../src/db/schema.js';
import type { Endpoint, Fixture } from './access-matrix.types.js';
import { addMember, createUser } from './factories.js';

const json = (method: InjectOptions['method'], url: string, payload?: object): InjectOptions => ({
  method,
  url,
  ...(payload ? { payload } : {}),
});

const withInvitation: Endpoint['prepare'] = async (t, fixture, owner) => {
  const [row] = await t.ctx.db
    .insert(invitations)
    .values({
      projectUuid: fixture.projectUuid,
      email: `invitee-${Math.random()}@lab.test`,
      role: 'member',
      invitedById: owner.id,
      expiresAt: new Date(Date.now() + 86_400_000),
    })
    .returning();
  fixture.invitationUuid = row!.invitationUuid;
};

/** Another person in the project, to act on. */
const withTarget =
  (role: 'admin' | 'viewer'): Endpoint['prepare'] =>
  async (t, fixture) => {
    const target = await createUser(t.ctx);
    await addMember(t.ctx, fixture.projectUuid, target.id, role);
    fixture.targetUserId = target.id;
  };

/** The owner has a billing account (their first checkout made it), so the portal has someone to open. */
const withBillingAccount: Endpoint['prepare'] = async (t, fixture, owner) => {
  const checkout = await t.app.inject({
    method: 'POST',
    url: `/api/projects/${fixture.projectUuid}/subscriptions/checkout/`,
    headers: owner.headers,
  });
  if (checkout.statusCode !== 200) throw new Error(`checkout failed: ${checkout.body}`);
};

const invitationUrl = (f: Fixture) => `/api/projects/${f.projectUuid}/invitations/${f.invitationUuid}/`;
const membersUrl = (f: Fixture) => `/api/projects/${f.projectUuid}/members/`;

/** Members, invitations and subscriptions in the access matrix. */
export const accessMatrixTeamEndpoints: Endpoint[] = [
  { name: 'GET members', minimum: 'viewer', request: (f) => json('GET', membersUrl(f)) },
  {
    name: 'GET checklist',
    minimum: 'viewer',
    request: (f) => json('GET', `/api/projects/${f.projectUuid}/checklist/`),
  },
  {
    name: 'PATCH member role',
    minimum: 'admin',
    prepare: withTarget('viewer'),
    request: (f) => json('PATCH', `${membersUrl(f)}${f.targetUserId}/`, { role: 'member' }),
  },
  {
    name: 'DELETE member (remove someone)',
    minimum: 'admin',
    prepare: withTarget('viewer'),
    request: (f) => json('DELETE', `${membersUrl(f)}${f.targetUserId}/`),
  },
  {
    name: 'DELETE member (leave)',
    minimum: 'viewer',
    work: 'renew',
    refuses: ['owner'],
    request: (f, actor) => json('DELETE', `${membersUrl(f)}${actor.id}/`),
  },
  {
    name: 'POST members/transfer-ownership',
    minimum: 'owner',
    prepare: withTarget('admin'),
    request: (f) => json('POST', `${membersUrl(f)}transfer-ownership/`, { user_id: f.targetUserId }),
  },
  {
    name: 'GET invitations',
    minimum: 'admin',
    request: (f) => json('GET', `/api/projects/${f.projectUuid}/invitations/`),
  },
  {
    name: 'POST invitations',
    minimum: 'admin',
    request: (f) => json('POST', `/api/projects/${f.projectUuid}/invitations/`, { email: 'guest@lab.test' }),
  },
  { name: 'GET invitation', minimum: 'admin', prepare: withInvitation, request: (f) => json('GET', invitationUrl(f)) },
  {
    name: 'PUT invitation',
    minimum: 'admin',
    prepare: withInvitation,
    request: (f) => json('PUT', invitationUrl(f), { role: 'viewer' }),
  },
  {
    name: 'PATCH invitation',
    minimum: 'admin',
    prepare: withInvitation,
    request: (f) => json('PATCH', invitationUrl(f), { status: 'revoked' }),
  },
  {
    name: 'DELETE invitation',
    minimum: 'admin',
    prepare: withInvitation,
    request: (f) => json('DELETE', invitationUrl(f)),
  },
  {
    name: 'POST invitation resend',
    minimum: 'admin',
    prepare: withInvitation,
    request: (f) => json('POST', `${invitationUrl(f)}resend/`),
  },
  {
    name: 'POST subscriptions/checkout',
    minimum: 'owner',
    work: 'renew',
    request: (f) => json('POST', `/api/projects/${f.projectUuid}/subscriptions/checkout/`),
  },
  {
    name: 'POST subscriptions/portal',
    minimum: 'owner',
    work: 'renew',
    prepare: withBillingAccount,
    request: (f) => json('POST', `/api/projects/${f.projectUuid}/subscriptions/portal/`),
  },
];
