import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { accessMatrixEndpoints } from './access-matrix.endpoints.js';
import type { Fixture } from './access-matrix.types.js';
import type { TestUser } from './factories.js';

/**
 * Operations under `/api/projects/{project_uuid}/` that are not gated by a project role, with the reason. Anything
 * else under a project must have a row in the access matrix (outsider, viewer, member, admin and owner expectations).
 */
const NOT_PROJECT_SCOPED: Record<string, string> = {
  'POST /api/projects/{project_uuid}/invitations/{invitation_uuid}/accept/':
    'the invitee is not a member yet; the invitation (its address and expiry) is the gate',
  'GET /api/projects/{project_uuid}/invitations/{invitation_uuid}/landing/':
    'the landing of an invitation link, for signed-out visitors: only a pending, unexpired invitation answers',
};

interface Operation {
  key: string;
  method: string;
  pattern: RegExp;
  params: number;
}

function projectOperations(): Operation[] {
  const spec = JSON.parse(
    readFileSync(path.resolve(import.meta.dirname, '../../../packages/api/openapi.json'), 'utf8'),
  ) as { paths: Record<string, Record<string, unknown>> };
  const operations: Operation[] = [];
  for (const [specPath, methods] of Object.entries(spec.paths)) {
    if (!specPath.startsWith('/api/projects/{project_uuid}/')) continue;
    for (const method of Object.keys(methods)) {
      const source = specPath
        .split(/(\{[^}]+\})/)
        .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
        .join('');
      operations.push({
        key: `${method.toUpperCase()} ${specPath}`,
        method: method.toUpperCase(),
        pattern: new RegExp(`^${source}$`),
        params: (specPath.match(/\{/g) ?? []).length,
      });
    }
  }
  return operations;
}

/** The operation a request hits: of those whose pattern matches, the most literal one (as the router picks). */
function operationOf(operations: Operation[], method: string, url: string): Operation | undefined {
  const pathname = url.split('?')[0]!;
  return operations
    .filter((operation) => operation.method === method && operation.pattern.test(pathname))
    .sort((a, b) => a.params - b.params)[0];
}

describe('the access matrix is complete by construction', () => {
  const operations = projectOperations();
  const fixture: Fixture = {
    projectUuid: randomUUID(),
    subjectUuid: randomUUID(),
    videoUuid: randomUUID(),
    invitationUuid: randomUUID(),
    analysisUuid: randomUUID(),
    annotationConfigUuid: randomUUID(),
    protocolUuid: randomUUID(),
    targetUserId: 41,
  };
  const actor: TestUser = { id: 42, email: 'a@lab.test', password: 'x', token: 't', headers: { authorization: 'x' } };

  const covered = new Map<string, string[]>();
  const unmatched: string[] = [];
  for (const endpoint of accessMatrixEndpoints) {
    const request = endpoint.request(fixture, actor);
    const method = request.method ?? 'GET';
    const url = typeof request.url === 'string' ? request.url : '';
    const operation = operationOf(operations, method, url);
    if (!operation) unmatched.push(`${endpoint.name}: ${method} ${url}`);
    else covered.set(operation.key, [...(covered.get(operation.key) ?? []), endpoint.name]);
  }

  it('reads the project-scoped operations of openapi.json', () => {
    // A guard against reading nothing (a moved file, a renamed prefix) and so passing vacuously.
    expect(operations.length).toBeGreaterThan(60);
  });

  it('every matrix row calls an operation of openapi.json', () => {
    expect(unmatched).toEqual([]);
  });

  it('every project-scoped operation of openapi.json has a row with outsider…owner expectations', () => {
    const missing = operations
      .map((operation) => operation.key)
      .filter((key) => !covered.has(key) && !(key in NOT_PROJECT_SCOPED));
    expect(missing).toEqual([]);
  });

  it('the exemptions are real operations and have no row', () => {
    const keys = new Set(operations.map((operation) => operation.key));
    for (const key of Object.keys(NOT_PROJECT_SCOPED)) {
      expect(keys.has(key), key).toBe(true);
      expect(covered.has(key), key).toBe(false);
    }
  });
});
