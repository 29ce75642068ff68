import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProject } from '../../src/modules/projects/project.service.js';
import { accessMatrixEndpoints } from '../access-matrix.endpoints.js';
import type { Endpoint, Fixture } from '../access-matrix.types.js';
import { createUser, type TestUser } from '../factories.js';
import { createSubjectRow } from '../factories-videos.js';
import { createTestApp, type TestApp } from '../test-app.js';
import { bodyArbitrary, type FuzzBody, fuzzRuns, fuzzSeed, type JsonSchema } from './json-schema-arbitrary.js';
import { databaseSnapshot, filesSnapshot, isErrorBody } from './snapshot.js';

interface JsonOperation {
  method: string;
  path: string;
  schema: JsonSchema;
}

const spec = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, '../../../../packages/api/openapi.json'), 'utf8'),
);

/** Every operation of openapi.json that takes a JSON body. */
const operations: JsonOperation[] = Object.entries(
  spec.paths as Record<string, Record<string, { requestBody?: { content: Record<string, { schema: JsonSchema }> } }>>,
).flatMap(([specPath, methods]) =>
  Object.entries(methods).flatMap(([method, operation]) => {
    const schema = operation.requestBody?.content['application/json']?.schema;
    return schema ? [{ method: method.toUpperCase(), path: specPath, schema }] : [];
  }),
);

const patternOf = (specPath: string) =>
  new RegExp(`^${specPath.replace(/\{[^}]+\}/g, '[^/]+').replace(/\./g, '\\.')}(\\?.*)?$`);

/** The access matrix row that calls this operation: its `prepare` makes the resources the path names. */
function matrixRow(operation: JsonOperation, probe: Fixture, actor: TestUser): Endpoint | undefined {
  const pattern = patternOf(operation.path);
  return accessMatrixEndpoints.find((endpoint) => {
    const request = endpoint.request(probe, actor);
    return (request.method ?? 'GET') === operation.method && pattern.test(String(request.url));
  });
}

/**
 * Every JSON body of the API, fuzzed from its schema (fixed seed; FUZZ_SEED and FUZZ_RUNS explore), sent by a
 * logged-in owner to real resources: never a 5xx, every 4xx in the `{errors}` shape, and a refused request changes
 * no row and no file.
 */
describe('fuzzed JSON bodies', () => {
  let t: TestApp;
  let owner: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await createUser(t.ctx);
  });
  // FUZZ_STATS=1 prints how often each operation answered what, by kind of body, and where the time went.
  const stats = new Map<string, number>();
  const timing = { setup: 0, inject: 0, snapshot: 0 };
  afterAll(async () => {
    if (process.env.FUZZ_STATS)
      console.log(JSON.stringify({ timing, answers: Object.fromEntries([...stats].sort()) }, null, 1));
    await t.close();
  });

  it('finds the JSON operations of openapi.json', () => {
    expect(operations.length).toBeGreaterThan(40);
  });

  for (const operation of operations) {
    it(`${operation.method} ${operation.path}`, async () => {
      const setupStarted = performance.now();
      const fixture: Fixture = { projectUuid: '', subjectUuid: '' };
      let url = operation.path.replace('{id}', String(owner.id));
      if (operation.path.startsWith('/api/projects/{project_uuid}/')) {
        const project = await createProject(
          t.ctx,
          { id: owner.id, passwordChangedAt: null },
          {
            name: `Fuzz ${operation.method} ${operation.path.length}`,
            metadata: { description: '', institution: '', principal_investigator: '' },
          },
        );
        fixture.projectUuid = project.project_uuid;
        fixture.subjectUuid = await createSubjectRow(t.ctx, project.project_uuid);
        const row = matrixRow(
          operation,
          {
            ...fixture,
            videoUuid: 'v',
            analysisUuid: 'a',
            invitationUuid: 'i',
            annotationConfigUuid: 'c',
            targetUserId: 1,
          },
          owner,
        );
        if (!row) throw new Error(`no access-matrix row calls ${operation.method} ${operation.path}`);
        await row.prepare?.(t, fixture, owner);
        url = String(row.request(fixture, owner).url);
      }
      const known = {
        uuids: [
          fixture.projectUuid,
          fixture.subjectUuid,
          fixture.videoUuid,
          fixture.analysisUuid,
          fixture.annotationConfigUuid,
          fixture.invitationUuid,
        ].filter((uuid): uuid is string => Boolean(uuid)),
        integers: [owner.id, fixture.targetUserId ?? 0, 1, 2],
      };

      let before = await databaseSnapshot(t.ctx.db);
      let filesBefore = filesSnapshot(t.dataDir);
      timing.setup += performance.now() - setupStarted;
      await fc.assert(
        fc.asyncProperty(bodyArbitrary(operation.schema, known), async (body: FuzzBody) => {
          const started = performance.now();
          const response = await t.app.inject({
            method: operation.method as 'POST',
            url,
            payload: body.payload,
            headers: { ...owner.headers, 'content-type': 'application/json' },
          });
          const seen = `${operation.method} ${url} ${body.kind} body ${JSON.stringify(body.payload.slice(0, 300))} → ${response.statusCode} ${response.body.slice(0, 300)}`;
          timing.inject += performance.now() - started;
          const answer = `${operation.method} ${operation.path} ${body.kind} ${response.statusCode}`;
          stats.set(answer, (stats.get(answer) ?? 0) + 1);
          const snapStarted = performance.now();
          expect(response.statusCode, seen).toBeLessThan(500);
          if (response.statusCode >= 400) {
            expect(isErrorBody(response.json()), seen).toBe(true);
            expect(await databaseSnapshot(t.ctx.db), `${seen}: a refused request changed the database`).toBe(before);
            expect(filesSnapshot(t.dataDir), `${seen}: a refused request changed the files`).toEqual(filesBefore);
          } else {
            before = await databaseSnapshot(t.ctx.db);
            filesBefore = filesSnapshot(t.dataDir);
          }
          timing.snapshot += performance.now() - snapStarted;
        }),
        { seed: fuzzSeed, numRuns: fuzzRuns(12) },
      );
    });
  }
});
