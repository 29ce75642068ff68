import { z } from 'zod';

/** The spec's error body, for the OpenAPI document. */
export const errorSchema = z
  .object({
    errors: z.union([z.string(), z.record(z.string(), z.array(z.string()))]),
  })
  .describe('`{"errors": "message"}` or `{"errors": {"field": ["message"]}}`');

/** The error answers every project-scoped call can give. */
export const projectErrorResponses = {
  400: errorSchema,
  401: errorSchema,
  403: errorSchema,
  404: errorSchema,
} as const;

export const noContent = z.null().describe('No content');
