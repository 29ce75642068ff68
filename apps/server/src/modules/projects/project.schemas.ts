import { z } from 'zod';
import { projectPlans, projectStatuses, roles } from '../../db/schema.js';
import { listQuerySchema } from '../../lib/pagination.js';
import { subscriptionSchema } from '../billing/billing.schemas.js';

const text = (max: number) => z.string().trim().max(max, `Must be at most ${max} characters.`);

const metadataFields = {
  description: text(5000),
  institution: text(200),
  principal_investigator: text(200),
};

export const projectMetadataSchema = z.object({
  description: metadataFields.description.default(''),
  institution: metadataFields.institution.default(''),
  principal_investigator: metadataFields.principal_investigator.default(''),
});

export const projectNameSchema = z
  .string({ error: 'This field is required.' })
  .trim()
  .min(1, 'This field may not be blank.')
  .max(200, 'Must be at most 200 characters.');

export const createProjectBody = z.object({
  name: projectNameSchema,
  plan: z
    .enum(projectPlans, { error: 'Choose pro or institutional.' })
    .default('pro')
    .describe('With billing on: pro (paid by card at checkout) or institutional (activated by an operator)'),
  metadata: projectMetadataSchema.default({ description: '', institution: '', principal_investigator: '' }),
});

export const updateProjectBody = z.object({
  name: projectNameSchema,
  metadata: projectMetadataSchema,
});

/** PATCH merges: the app sends `{metadata: {description}}` only and the other metadata fields stay. */
export const patchProjectBody = z.object({
  name: projectNameSchema.optional(),
  metadata: z.object(metadataFields).partial().optional(),
});

export const projectParams = z.object({ project_uuid: z.string() });

export const projectListQuery = listQuerySchema.extend({
  deleted: z
    .enum(['true', 'false'], { error: 'Use true or false.' })
    .optional()
    .describe("true: the caller's own projects in the trash"),
});
export type ProjectListQuery = z.infer<typeof projectListQuery>;

export const userSummarySchema = z.object({
  id: z.number().int(),
  email: z.string(),
  display_name: z.string(),
});

export const projectSchema = z.object({
  project_uuid: z.string().uuid(),
  name: z.string(),
  metadata: z.object({ description: z.string(), institution: z.string(), principal_investigator: z.string() }),
  logo_url: z.string().nullable(),
  status: z.enum(projectStatuses),
  plan: z.enum(projectPlans),
  subscription: subscriptionSchema.describe('The Stripe subscription (null when there is none)'),
  role: z.enum(roles).describe("The caller's role in this project"),
  owner: userSummarySchema,
  counts: z.object({ subjects: z.number().int(), videos: z.number().int(), analyses: z.number().int() }),
  storage_bytes: z.number().describe('Bytes of every stored file of the project (originals and derived files)'),
  trash: z
    .object({ deleted_at: z.string(), purge_at: z.string() })
    .nullable()
    .describe('Set while the project is in the trash (`GET /projects/?deleted=true`): when it was deleted and purged'),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ProjectResponse = z.infer<typeof projectSchema>;

export const PROJECT_ORDERING = ['name', 'created_at', 'updated_at'] as const;
