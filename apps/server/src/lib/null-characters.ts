/**
 * PostgreSQL text cannot hold U+0000: a NUL character reaching a query fails it. JSON bodies and query strings are
 * checked once, before validation, and such input is refused like any other invalid field.
 */
import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors.js';

export const NULL_CHARACTER_MESSAGE = 'Null characters are not allowed.';

interface Visit {
  value: unknown;
  key: string | number | undefined;
  parent: Visit | undefined;
}

function pathOf(visit: Visit, last?: string): (string | number)[] {
  const path: (string | number)[] = last === undefined ? [] : [last];
  for (let at: Visit | undefined = visit; at?.key !== undefined; at = at.parent) path.push(at.key);
  return path.reverse();
}

/**
 * The path of the first string (or object key) holding a NUL character, or undefined. Iterative, each node linked to
 * its parent (no path copied per node), so any depth costs linear time.
 */
export function findNullCharacter(value: unknown): (string | number)[] | undefined {
  const stack: Visit[] = [{ value, key: undefined, parent: undefined }];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const node = visit.value;
    if (typeof node === 'string') {
      if (node.includes('\u0000')) return pathOf(visit);
    } else if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push({ value: node[i], key: i, parent: visit });
    } else if (node && typeof node === 'object' && !Buffer.isBuffer(node)) {
      for (const [key, item] of Object.entries(node)) {
        if (key.includes('\u0000')) return pathOf(visit, key);
        stack.push({ value: item, key, parent: visit });
      }
    }
  }
  return undefined;
}

function refuse(path: (string | number)[], root: string): never {
  throw new HttpError(400, { [path.length > 0 ? path.join('.') : root]: [NULL_CHARACTER_MESSAGE] });
}

/**
 * Refuses NUL characters in the query and the JSON body. Registered after the project scope, so an outsider still
 * gets 404 before anything about the input.
 */
export function registerNullCharacterGuard(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => {
    const inQuery = findNullCharacter(request.query);
    if (inQuery) refuse(inQuery, 'query');
    const inParams = findNullCharacter(request.params);
    if (inParams) throw new HttpError(404, 'Not found.');
    if (request.body !== undefined && !Buffer.isBuffer(request.body)) {
      const inBody = findNullCharacter(request.body);
      if (inBody) refuse(inBody, 'non_field_errors');
    }
  });
}
