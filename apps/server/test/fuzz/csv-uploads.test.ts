import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProject } from '../../src/modules/projects/project.service.js';
import { withRun } from '../access-matrix.analysis.js';
import { accessMatrixEndpoints } from '../access-matrix.endpoints.js';
import type { Fixture } from '../access-matrix.types.js';
import { createUser, type TestUser } from '../factories.js';
import { createSubjectRow } from '../factories-videos.js';
import { createTestApp, type TestApp } from '../test-app.js';
import { fuzzRuns, fuzzSeed, nastyNumber, nastyString } from './json-schema-arbitrary.js';
import { databaseSnapshot, filesSnapshot, isErrorBody } from './snapshot.js';

/** One CSV cell: numbers as a spreadsheet writes them, and what a broken file holds instead. */
const cell: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.double({ min: -10, max: 100, noNaN: true }).map(String), weight: 4 },
  { arbitrary: fc.nat({ max: 400 }).map(String), weight: 3 },
  { arbitrary: nastyNumber.map(String), weight: 1 },
  {
    arbitrary: fc.constantFrom('', ' ', 'NaN', 'Infinity', '-Infinity', '1e999', '1,5', '0x10', '"3"', '""', '"a\nb"'),
    weight: 1,
  },
  { arbitrary: nastyString.map((s) => s.slice(0, 200)), weight: 1 },
);

const header = fc.constantFrom(
  'value',
  'frame,time_s,value',
  'time_s,value',
  'start,end',
  'Start,End',
  'start;end',
  '\ufeffstart,end',
  '\ufeffvalue',
  '',
  'a,b,c',
  '"start","end"',
);

/** CSV-looking text (a header, rows of cells, any separator and line ending), or plain garbage. */
const csvText: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .tuple(
        header,
        fc.array(fc.array(cell, { minLength: 1, maxLength: 4 }), { maxLength: 30 }),
        fc.constantFrom(',', ';', '\t'),
        fc.constantFrom('\n', '\r\n', '\r'),
        fc.boolean(),
      )
      .map(
        ([head, rows, separator, eol, trailing]) =>
          [head, ...rows.map((row) => row.join(separator))].join(eol) + (trailing ? eol : ''),
      ),
  },
  {
    // A long, well-formed series (the parser's fast path), sometimes broken on its last row.
    weight: 1,
    arbitrary: fc
      .tuple(fc.integer({ min: 1_000, max: 40_000 }), fc.constantFrom('', 'x', '1,2,3', '\u0000'))
      .map(([rows, last]) => `value\n${Array.from({ length: rows }, (_, i) => String(i % 7)).join('\n')}\n${last}`),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 400 }) },
  { weight: 1, arbitrary: fc.constantFrom('', '\n', '\u0000\u0000', '\ufeff', 'start,end\n"unterminated') },
);

/** A multipart body with the CSV under `field` and optional text fields. */
function form(field: string, filename: string, content: string, fields: Record<string, string>) {
  const boundary = `----fuzz${randomUUID().replace(/-/g, '')}`;
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  const payload = Buffer.concat([
    Buffer.from(parts.join('')),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: text/csv\r\n\r\n`,
    ),
    Buffer.from(content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const filename = fc.oneof(
  { arbitrary: fc.constant('series.csv'), weight: 5 },
  { arbitrary: fc.constantFrom('SERIES.CSV', 'noext', '.csv', 'a.csv.exe', 'x"y.csv', 'ünï.csv'), weight: 1 },
);

/**
 * Every CSV upload of the API with random and broken CSV text: the time-series import and the annotation import
 * (bypass ranges and agreement uploads are read in the browser and reach the server as JSON, fuzzed with the JSON
 * bodies). Never a 5xx; a refused file changes no row and leaves no file, not even in DATA_DIR/tmp.
 */
describe('fuzzed CSV uploads', () => {
  let t: TestApp;
  let owner: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await createUser(t.ctx);
  });
  afterAll(() => t.close());

  async function projectFixture(): Promise<Fixture> {
    const project = await createProject(
      t.ctx,
      { id: owner.id, passwordChangedAt: null },
      {
        name: `Fuzz CSV ${randomUUID().slice(0, 6)}`,
        metadata: { description: '', institution: '', principal_investigator: '' },
      },
    );
    return { projectUuid: project.project_uuid, subjectUuid: await createSubjectRow(t.ctx, project.project_uuid) };
  }

  async function check(
    request: () => { url: string; payload: Buffer; headers: Record<string, string> },
    state: { before: string; files: string[] },
    label: string,
  ) {
    const { url, payload, headers } = request();
    const response = await t.app.inject({ method: 'POST', url, payload, headers: { ...owner.headers, ...headers } });
    const seen = `${label}: ${JSON.stringify(payload.toString('utf8').slice(0, 300))} → ${response.statusCode} ${response.body.slice(0, 300)}`;
    expect(response.statusCode, seen).toBeLessThan(500);
    if (response.statusCode >= 400) {
      expect(isErrorBody(response.json()), seen).toBe(true);
      expect(await databaseSnapshot(t.ctx.db), `${seen}: the database changed`).toBe(state.before);
      expect(filesSnapshot(t.dataDir), `${seen}: files changed`).toEqual(state.files);
    } else {
      state.before = await databaseSnapshot(t.ctx.db);
      state.files = filesSnapshot(t.dataDir);
    }
  }

  it('POST …/analysis/import_timeseries/ (field "timeseries", optional "parameters")', async () => {
    const fixture = await projectFixture();
    await withRun('succeeded')!(t, fixture, owner);
    const url = `/api/projects/${fixture.projectUuid}/subjects/${fixture.subjectUuid}/videos/${fixture.videoUuid}/analysis/import_timeseries/`;
    const state = { before: await databaseSnapshot(t.ctx.db), files: filesSnapshot(t.dataDir) };
    const parameters = fc.option(
      fc.oneof(
        fc.constantFrom('{}', '{"threshold":2}', 'not json', '[]', 'null', '{"threshold":"\\u0000"}'),
        nastyString,
      ),
      { nil: undefined },
    );
    await fc.assert(
      fc.asyncProperty(csvText, filename, parameters, async (content, name, params) => {
        await check(
          () => ({ url, ...form('timeseries', name, content, params === undefined ? {} : { parameters: params }) }),
          state,
          'import_timeseries',
        );
      }),
      { seed: fuzzSeed, numRuns: fuzzRuns(15) },
    );
  });

  it('POST …/annotations/{uuid}/import/ (field "file", optional "version")', async () => {
    const fixture = await projectFixture();
    const row = accessMatrixEndpoints.find((endpoint) => endpoint.name === 'POST annotations/{uuid}/import')!;
    await row.prepare!(t, fixture, owner);
    const url = String(row.request(fixture, owner).url);
    const state = { before: await databaseSnapshot(t.ctx.db), files: filesSnapshot(t.dataDir) };
    const version = fc.option(
      fc.oneof(fc.nat({ max: 5 }).map(String), fc.constantFrom('-1', '2147483648', '1e999', 'abc', ''), nastyString),
      { nil: undefined },
    );
    await fc.assert(
      fc.asyncProperty(csvText, filename, version, async (content, name, v) => {
        await check(
          () => ({ url, ...form('file', name, content, v === undefined ? {} : { version: v }) }),
          state,
          'annotation import',
        );
      }),
      { seed: fuzzSeed, numRuns: fuzzRuns(15) },
    );
  });
});
