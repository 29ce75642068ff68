import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorSchema } from '../../lib/openapi.js';
import { invitationLandingSchema, invitationParams } from './invitation.schemas.js';
import { invitationLanding } from './invitation.service.js';

/**
 * The one invitation call open to signed-out visitors (its own plugin, outside the authenticated invitation routes):
 * the link's landing page names the project and the inviter before the visitor signs up or in.
 */
export default async function invitationLandingRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/projects/:project_uuid/invitations/:invitation_uuid/landing/',
    {
      // Anyone holding the link, signed in or not; the service answers only for a valid, unexpired invitation.
      config: { notProjectScoped: true },
      schema: {
        tags: ['invitations'],
        summary: "An invitation link's landing: project name, inviter and invited e-mail (no sign-in needed)",
        description:
          'Answers only for a pending invitation that has not expired, of a project that is not in the trash; ' +
          'anything else (a wrong id, an accepted, revoked or expired invitation) is 404.',
        security: [],
        params: invitationParams,
        response: { 200: invitationLandingSchema, 404: errorSchema },
      },
    },
    async (request) => invitationLanding(app.ctx, request.params.project_uuid, request.params.invitation_uuid),
  );
}
