import type { FastifyInstance } from 'fastify';
import agreementRoutes from './agreement/agreement.routes.js';
import analysisRoutes from './analysis/analysis.routes.js';
import analysisLocationRoutes from './analysis/location.routes.js';
import annotationRoutes from './annotations/annotation.routes.js';
import authRoutes from './auth/auth.routes.js';
import batchRoutes from './batches/batch.routes.js';
import billingRoutes from './billing/billing.routes.js';
import checklistRoutes from './checklist/checklist.routes.js';
import fileRoutes from './files/file.routes.js';
import healthRoutes from './health/health.routes.js';
import invitationRoutes from './invitations/invitation.routes.js';
import invitationLandingRoutes from './invitations/invitation-landing.routes.js';
import labelRoutes from './labels/label.routes.js';
import memberRoutes from './members/member.routes.js';
import poseRoutes from './pose/pose.routes.js';
import projectRoutes from './projects/project.routes.js';
import protocolRoutes from './protocols/protocol.routes.js';
import scorerRoutes from './scorers/scorer.routes.js';
import subjectRoutes from './subjects/subject.routes.js';
import suggestionRoutes from './suggestions/suggestions.routes.js';
import trashRoutes from './trash/trash.routes.js';
import userRoutes from './users/user.routes.js';
import videoRoutes from './videos/video.routes.js';

/** Every feature's routes, mounted under /api. */
export const apiModules: ((app: FastifyInstance) => Promise<void>)[] = [
  healthRoutes,
  authRoutes,
  userRoutes,
  fileRoutes,
  projectRoutes,
  memberRoutes,
  invitationRoutes,
  invitationLandingRoutes,
  billingRoutes,
  subjectRoutes,
  videoRoutes,
  analysisRoutes,
  analysisLocationRoutes,
  annotationRoutes,
  poseRoutes,
  labelRoutes,
  protocolRoutes,
  batchRoutes,
  agreementRoutes,
  scorerRoutes,
  suggestionRoutes,
  trashRoutes,
  checklistRoutes,
];
