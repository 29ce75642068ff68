import type { z } from 'zod';
import { badRequest, type HttpError } from '../../lib/errors.js';

/** The items of a parameter list that messages name by their number ("ROI 2: …"). */
const NUMBERED_ITEMS: Record<string, string> = {
  rois: 'ROI',
  zones: 'Zone',
  exclusions: 'Exclusion region',
  parts: 'Part',
};

/** zod issues of `parameters` → the spec's field errors, named `parameters.<field>`. */
export function parameterErrors(error: z.ZodError): HttpError {
  const fields: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const field = ['parameters', ...issue.path.filter((p) => typeof p !== 'number').map(String)].join('.');
    const message =
      issue.code === 'unrecognized_keys'
        ? `Unknown parameter${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}.`
        : issue.message;
    const where = issue.path.find((p) => typeof p === 'number');
    const item = NUMBERED_ITEMS[String(issue.path[0])];
    const text = where !== undefined && item ? `${item} ${Number(where) + 1}: ${message}` : message;
    fields[field] = [...(fields[field] ?? []), text];
  }
  return badRequest(fields);
}
