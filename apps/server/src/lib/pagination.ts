import { z } from 'zod';
import { fieldError } from './errors.js';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;

/** Query parameters every list takes. `ordering` is checked against each list's own fields. */
export const listQuerySchema = z.object({
  page: z.coerce.number().int().min(1, 'Must be 1 or more.').default(1),
  page_size: z.coerce
    .number()
    .int()
    .min(1, 'Must be 1 or more.')
    .max(MAX_PAGE_SIZE, `Must be at most ${MAX_PAGE_SIZE}.`)
    .default(DEFAULT_PAGE_SIZE),
  search: z.string().trim().max(200).optional(),
  ordering: z.string().trim().max(100).optional(),
});
export type ListQuery = z.infer<typeof listQuerySchema>;

export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    count: z.number().int(),
    next: z.string().nullable(),
    previous: z.string().nullable(),
    results: z.array(item),
  });
}

export interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

/** Builds `{count, next, previous, results}` with next/previous as absolute URLs of the same list. */
export function toPage<T>(requestUrl: string, baseUrl: string, query: ListQuery, count: number, results: T[]): Page<T> {
  const link = (page: number) => {
    const url = new URL(requestUrl, baseUrl);
    url.searchParams.set('page', String(page));
    url.searchParams.set('page_size', String(query.page_size));
    return url.toString();
  };
  const lastPage = Math.max(1, Math.ceil(count / query.page_size));
  return {
    count,
    next: query.page < lastPage ? link(query.page + 1) : null,
    previous: query.page > 1 ? link(Math.min(query.page - 1, lastPage)) : null,
    results,
  };
}

/**
 * Turns `ordering=-name` into a column and direction, from the fields a list allows.
 * Unknown fields are a 400 so that a typo does not silently sort by something else.
 */
export function parseOrdering<K extends string>(
  ordering: string | undefined,
  allowed: readonly K[],
  fallback: `${'' | '-'}${NoInfer<K>}`,
): { field: K; descending: boolean } {
  const raw = ordering || fallback;
  const descending = raw.startsWith('-');
  const field = (descending ? raw.slice(1) : raw) as K;
  if (!allowed.includes(field)) {
    throw fieldError('ordering', `Unknown ordering "${raw}". Use one of: ${allowed.join(', ')} (prefix - to reverse).`);
  }
  return { field, descending };
}

/** Escapes LIKE wildcards so a search for "50%" finds "50%" literally. */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
