import { z } from 'zod';
import { protocolKinds } from '../../db/schema.js';
import { listQuerySchema } from '../../lib/pagination.js';
import { userSummarySchema } from '../analysis/analysis.schemas.js';

export const PROTOCOL_NAME_MAX = 100;

export const protocolListParams = z.object({ project_uuid: z.string() });
export const protocolParams = protocolListParams.extend({ protocol_uuid: z.string() });

const protocolName = z
  .string({ error: 'Give the protocol a name.' })
  .trim()
  .min(1, 'Give the protocol a name.')
  .max(PROTOCOL_NAME_MAX, `A protocol name has at most ${PROTOCOL_NAME_MAX} characters.`);

const kind = z.enum(protocolKinds, { error: `kind must be one of: ${protocolKinds.join(', ')}.` });

const parameters = z.record(z.string(), z.unknown(), { error: 'parameters must be an object.' });

export const createProtocolBody = z.object({
  name: protocolName,
  kind,
  parameters: parameters.default({}).meta({
    description:
      'As a run of that kind takes them (POST …/analysis/); checked as a run checks them, except what needs a video (ADR 031). Kept with every default filled in.',
  }),
});

export const updateProtocolBody = z
  .object({
    name: protocolName.optional(),
    parameters: parameters.optional().meta({
      description: "The new version's parameters, whole (left-out ones take their defaults, not the old values)",
    }),
    kind: kind.optional().meta({ description: 'Cannot change; accepted when it is the protocol’s own' }),
  })
  .refine((body) => body.name !== undefined || body.parameters !== undefined, {
    message: 'Give a new name, new parameters, or both.',
    path: ['name'],
  });

export const protocolVersionQuery = z.object({
  version: z.coerce
    .number({ error: 'version must be a whole number.' })
    .int('version must be a whole number.')
    .min(1, 'version must be 1 or more.')
    .optional()
    .meta({ description: 'An earlier version to read; the current one when left out' }),
});

export const PROTOCOL_ORDERINGS = ['name', 'created_at', 'updated_at'] as const;

export const protocolListQuery = listQuerySchema.pick({ page: true, page_size: true, search: true }).extend({
  kind: kind.optional(),
  ordering: z
    .string()
    .trim()
    .max(100)
    .optional()
    .meta({ description: `One of ${PROTOCOL_ORDERINGS.join(', ')}; prefix - to reverse. Default: name` }),
});

export const protocolSchema = z.object({
  protocol_uuid: z.string(),
  project_uuid: z.string(),
  name: z.string().meta({ description: "This version's name" }),
  kind,
  version: z.int().meta({ description: 'The version shown' }),
  current_version: z.int(),
  parameters: z.record(z.string(), z.unknown()).meta({ description: "This version's parameters, defaults filled in" }),
  created_by: userSummarySchema.nullable().meta({ description: 'Who made the protocol (version 1)' }),
  created_at: z.string(),
  version_created_by: userSummarySchema.nullable().meta({ description: 'Who made the version shown' }),
  version_created_at: z.string(),
});

export const protocolVersionSummary = z.object({
  version: z.int(),
  name: z.string(),
  created_by: userSummarySchema.nullable(),
  created_at: z.string(),
});

export const protocolDetailSchema = protocolSchema.extend({
  versions: z.array(protocolVersionSummary).meta({ description: 'Every version, newest first' }),
});
