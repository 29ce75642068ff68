import { ApiError } from './api-client';

function flatten(value: unknown): string[] {
  if (value == null) return [];
  if (typeof value === 'string') return [value];
  if (typeof value === 'number' || typeof value === 'boolean') return [String(value)];
  if (Array.isArray(value)) return value.flatMap(flatten);
  if (typeof value === 'object') return Object.values(value as Record<string, unknown>).flatMap(flatten);
  return [];
}

/**
 * The toast text of a failed call (spec §8): the response's `errors` field, else its body;
 * a string as is, an object's values flattened and joined by line breaks.
 */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    const body = error.body;
    const source =
      body && typeof body === 'object' && !Array.isArray(body) && 'errors' in body
        ? (body as { errors: unknown }).errors
        : body;
    if (typeof source === 'string' && source.trim()) return source;
    const lines = flatten(source);
    if (lines.length > 0) return lines.join('\n');
    return error.message;
  }
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  return 'Something went wrong.';
}

export function isUnauthorized(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}
