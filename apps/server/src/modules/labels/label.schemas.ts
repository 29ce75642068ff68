import { z } from 'zod';
import { listQuerySchema } from '../../lib/pagination.js';

export const labelListParams = z.object({ project_uuid: z.string() });

/** A label name as events carry it: trimmed, 1–100 characters (the events' own limit). */
export const labelName = z
  .string({ error: 'A label needs a name.' })
  .trim()
  .min(1, 'A label needs a name.')
  .max(100, 'A label has at most 100 characters.');

export const labelSchema = z.object({ name: z.string(), created_at: z.string() });

export const createLabelBody = z.object({ name: labelName });

export const labelListQuery = listQuerySchema.pick({ page: true, page_size: true, search: true });
