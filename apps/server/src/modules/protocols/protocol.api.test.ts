import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createUser, type TestUser } from '../../../test/factories.js';
import { createProjectWithSubject, type ProjectWithSubject } from '../../../test/factories-videos.js';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { protocols, protocolVersions } from '../../db/schema.js';
import { movementParameters } from '../analysis/analysis.schemas.js';
import { locationParameters } from '../analysis/location.schemas.js';

type Protocol = {
  protocol_uuid: string;
  name: string;
  kind: string;
  version: number;
  current_version: number;
  parameters: Record<string, unknown>;
  created_by: { id: number } | null;
  version_created_by: { id: number } | null;
  versions: { version: number; name: string; created_by: { id: number } | null }[];
};

describe('protocols API', () => {
  let t: TestApp;
  let owner: TestUser;
  let member: TestUser;
  let viewer: TestUser;
  let outsider: TestUser;
  let project: ProjectWithSubject;
  let other: ProjectWithSubject;
  let url: string;

  const call = (user: TestUser, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, payload?: unknown) =>
    t.app.inject({ method, url: path, headers: user.headers, ...(payload ? { payload: payload as object } : {}) });

  /** Rows in the tables, so a refused call can be shown to have kept nothing. */
  async function stored() {
    const [p, v] = await Promise.all([t.ctx.db.select().from(protocols), t.ctx.db.select().from(protocolVersions)]);
    return { protocols: p.length, versions: v.length };
  }

  async function create(name: string, kind = 'movement_detection', parameters: object = {}, user = owner) {
    const response = await call(user, 'POST', url, { name, kind, parameters });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as Protocol;
  }

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createUser(t.ctx);
    member = await createUser(t.ctx);
    viewer = await createUser(t.ctx);
    outsider = await createUser(t.ctx);
    project = await createProjectWithSubject(t.ctx, owner);
    other = await createProjectWithSubject(t.ctx, owner);
    await addMember(t.ctx, project.projectUuid, member.id, 'member');
    await addMember(t.ctx, project.projectUuid, viewer.id, 'viewer');
    url = `/api/projects/${project.projectUuid}/protocols/`;
  });

  afterAll(async () => {
    await t?.close();
  });

  it('creates a protocol at version 1 with every default filled in, as a run of its kind keeps them', async () => {
    const given = { threshold: 35, rois: [{ start_s: 0, x: 0, y: 0, width: 100, height: 80 }] };
    const created = await create('  Open field  ', 'movement_detection', given);
    expect(created).toMatchObject({ name: 'Open field', kind: 'movement_detection', version: 1, current_version: 1 });
    expect(created.created_by?.id).toBe(owner.id);
    expect(created.versions.map((v) => v.version)).toEqual([1]);
    // The stored parameters are what the run's own schema makes of the given ones.
    expect(created.parameters).toEqual(movementParameters.parse(given));

    const read = await call(viewer, 'GET', `${url}${created.protocol_uuid}/`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(created);

    const location = await create('Zones', 'location_tracking', {
      zones: [
        {
          name: 'centre',
          points: [
            [10, 10],
            [50, 10],
            [50, 50],
          ],
        },
      ],
      scale: {
        line: [
          [0, 0],
          [30, 40],
        ],
        true_distance: 10,
        unit: 'cm',
      },
    });
    // The scale line's length becomes px_distance, as a run computes it.
    expect(location.parameters.scale).toEqual({
      px_distance: 50,
      true_distance: 10,
      unit: 'cm',
      line: [
        [0, 0],
        [30, 40],
      ],
    });
    expect(location.parameters).toEqual(locationParameters.parse(location.parameters));
    const events = await create('Bursts', 'event_detection', { event_threshold_k: 4 });
    expect(events.parameters).toMatchObject({ event_threshold_k: 4, refractory_s: 0.5, freeze_threshold: null });
  });

  it('lists the live protocols of the project, paginated, searchable and filtered by kind', async () => {
    const list = await call(viewer, 'GET', url);
    expect(list.statusCode).toBe(200);
    const page = list.json() as { count: number; results: Protocol[]; next: string | null };
    expect(page.count).toBe(3);
    // By name, ignoring case.
    expect(page.results.map((p) => p.name)).toEqual(['Bursts', 'Open field', 'Zones']);
    expect(page.next).toBeNull();

    const first = (await call(viewer, 'GET', `${url}?page_size=2`)).json();
    expect(first.results).toHaveLength(2);
    expect(first.next).toContain('page=2');
    const second = (await call(viewer, 'GET', `${url}?page_size=2&page=2`)).json();
    expect(second.results.map((p: Protocol) => p.name)).toEqual(['Zones']);

    expect((await call(viewer, 'GET', `${url}?search=OPEN`)).json().results.map((p: Protocol) => p.name)).toEqual([
      'Open field',
    ]);
    const byKind = (await call(viewer, 'GET', `${url}?kind=location_tracking`)).json();
    expect(byKind.results.map((p: Protocol) => p.kind)).toEqual(['location_tracking']);
    const newest = (await call(viewer, 'GET', `${url}?ordering=-created_at`)).json();
    expect(newest.results.map((p: Protocol) => p.name)).toEqual(['Bursts', 'Zones', 'Open field']);
    const badOrdering = await call(viewer, 'GET', `${url}?ordering=kind`);
    expect(badOrdering.statusCode).toBe(400);
    expect(Object.keys(badOrdering.json().errors)).toEqual(['ordering']);

    // Another project's list does not show them.
    expect((await call(owner, 'GET', `/api/projects/${other.projectUuid}/protocols/`)).json().count).toBe(0);
  });

  it('refuses bad input by field and keeps nothing', async () => {
    const before = await stored();
    const cases: [object, string[]][] = [
      [{ kind: 'movement_detection', parameters: {} }, ['name']],
      [{ name: '   ', kind: 'movement_detection' }, ['name']],
      [{ name: 'x'.repeat(101), kind: 'movement_detection' }, ['name']],
      [{ name: 'A', kind: 'timeseries_import' }, ['kind']],
      [{ name: 'A', kind: 'movement_detection', parameters: { threshold: 300 } }, ['parameters.threshold']],
      [{ name: 'A', kind: 'movement_detection', parameters: { treshold: 20 } }, ['parameters']],
      [
        {
          name: 'A',
          kind: 'movement_detection',
          parameters: { rois: [{ start_s: 1, x: 0, y: 0, width: 10, height: 10 }] },
        },
        ['parameters.rois'],
      ],
      [{ name: 'A', kind: 'movement_detection', parameters: [] }, ['parameters']],
      [{ name: 'A', kind: 'event_detection', parameters: { threshold: 20 } }, ['parameters']],
      [{ name: 'A', kind: 'location_tracking', parameters: { loc_thresh: 101 } }, ['parameters.loc_thresh']],
      [
        {
          name: 'A',
          kind: 'location_tracking',
          parameters: {
            zones: [
              {
                name: 'frame',
                points: [
                  [0, 0],
                  [1, 0],
                  [1, 1],
                ],
              },
            ],
          },
        },
        ['parameters.zones.name'],
      ],
      [
        { name: 'A', kind: 'location_tracking', parameters: { reference: { video_uuid: randomUUID() } } },
        ['parameters.reference.video_uuid'],
      ],
      // Names are unique in the project, trimmed and ignoring case.
      [{ name: ' open FIELD ', kind: 'location_tracking' }, ['name']],
    ];
    for (const [payload, fields] of cases) {
      const response = await call(owner, 'POST', url, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(Object.keys(response.json().errors), JSON.stringify(payload)).toEqual(fields);
    }
    expect(await stored()).toEqual(before);
  });

  it('leaves what needs a video to the run: geometry past any picture is kept', async () => {
    const far = await create('Far zone', 'location_tracking', {
      zones: [
        {
          name: 'far',
          points: [
            [5000, 5000],
            [6000, 5000],
            [6000, 6000],
          ],
        },
      ],
      window_size: 5000,
    });
    expect(far.parameters.window_size).toBe(5000);
    expect(await call(owner, 'DELETE', `${url}${far.protocol_uuid}/`)).toMatchObject({ statusCode: 204 });
  });

  it('makes a new version on each edit, keeps the old ones readable and the name unique', async () => {
    const made = await create('Versioned', 'movement_detection', { threshold: 10 });
    const path = `${url}${made.protocol_uuid}/`;

    const edited = await call(member, 'PATCH', path, { parameters: { threshold: 40, opening: 1 } });
    expect(edited.statusCode, edited.body).toBe(200);
    const v2 = edited.json() as Protocol;
    expect(v2).toMatchObject({ version: 2, current_version: 2, name: 'Versioned' });
    // Parameters are given whole: what is left out takes its default again.
    expect(v2.parameters).toEqual(movementParameters.parse({ threshold: 40, opening: 1 }));
    expect(v2.version_created_by?.id).toBe(member.id);
    expect(v2.created_by?.id).toBe(owner.id);

    const renamed = (await call(owner, 'PATCH', path, { name: 'Versioned (lit arena)' })).json() as Protocol;
    expect(renamed).toMatchObject({ version: 3, name: 'Versioned (lit arena)', parameters: v2.parameters });
    expect(renamed.versions.map((v) => [v.version, v.name])).toEqual([
      [3, 'Versioned (lit arena)'],
      [2, 'Versioned'],
      [1, 'Versioned'],
    ]);

    // A change that changes nothing makes no version.
    const same = (
      await call(owner, 'PATCH', path, { name: 'Versioned (lit arena)', parameters: { threshold: 40, opening: 1 } })
    ).json() as Protocol;
    expect(same.current_version).toBe(3);

    const old = await call(viewer, 'GET', `${path}?version=1`);
    expect(old.statusCode).toBe(200);
    expect(old.json()).toMatchObject({
      version: 1,
      current_version: 3,
      name: 'Versioned',
      parameters: movementParameters.parse({ threshold: 10 }),
    });
    expect((await call(viewer, 'GET', path)).json()).toMatchObject({ version: 3, current_version: 3 });

    const before = await stored();
    const refused: [string, unknown, string[]][] = [
      [`${path}?version=4`, undefined, ['version']],
      [`${path}?version=0`, undefined, ['version']],
      [path, {}, ['name']],
      [path, { parameters: { threshold: -1 } }, ['parameters.threshold']],
      [path, { kind: 'location_tracking', name: 'Other kind' }, ['kind']],
      [path, { name: 'OPEN FIELD' }, ['name']],
    ];
    for (const [target, payload, fields] of refused) {
      const response = await call(owner, payload === undefined ? 'GET' : 'PATCH', target, payload);
      expect(response.statusCode, `${target} ${JSON.stringify(payload)}`).toBe(400);
      expect(Object.keys(response.json().errors)).toEqual(fields);
    }
    expect(await stored()).toEqual(before);
    // Its own kind is accepted; a case-only rename of itself is a new version.
    const recased = await call(owner, 'PATCH', path, { kind: 'movement_detection', name: 'VERSIONED (lit arena)' });
    expect(recased.json()).toMatchObject({ version: 4, name: 'VERSIONED (lit arena)' });
  });

  it('numbers edits made at once one after another, and saves one of two protocols given one name at once', async () => {
    const made = await create('Busy');
    const path = `${url}${made.protocol_uuid}/`;
    const edits = await Promise.all(
      [31, 32, 33, 34, 35].map((threshold) => call(owner, 'PATCH', path, { parameters: { threshold } })),
    );
    expect(edits.map((response) => response.statusCode)).toEqual([200, 200, 200, 200, 200]);
    const read = (await call(owner, 'GET', path)).json() as Protocol;
    expect(read.current_version).toBe(6);
    expect(read.versions.map((v) => v.version)).toEqual([6, 5, 4, 3, 2, 1]);
    const thresholds = await Promise.all(
      [2, 3, 4, 5, 6].map(async (version) => (await call(owner, 'GET', `${path}?version=${version}`)).json()),
    );
    expect(thresholds.map((v) => v.parameters.threshold).sort()).toEqual([31, 32, 33, 34, 35]);

    const before = await stored();
    const twins = await Promise.all(
      ['Twin', 'twin', ' TWIN'].map((name) => call(owner, 'POST', url, { name, kind: 'movement_detection' })),
    );
    expect(twins.map((response) => response.statusCode).sort()).toEqual([201, 400, 400]);
    for (const refused of twins.filter((response) => response.statusCode === 400)) {
      expect(Object.keys(refused.json().errors)).toEqual(['name']);
    }
    expect(await stored()).toEqual({ protocols: before.protocols + 1, versions: before.versions + 1 });
  });

  it('deletes a protocol softly: gone from reads and lists, its versions kept, its name free', async () => {
    const made = await create('Short-lived');
    const path = `${url}${made.protocol_uuid}/`;
    await call(owner, 'PATCH', path, { parameters: { threshold: 30 } });
    const deleted = await call(member, 'DELETE', path);
    expect(deleted.statusCode).toBe(204);
    expect((await call(owner, 'GET', path)).statusCode).toBe(404);
    expect((await call(owner, 'GET', `${path}?version=1`)).statusCode).toBe(404);
    expect((await call(owner, 'PATCH', path, { name: 'Back' })).statusCode).toBe(404);
    expect((await call(owner, 'DELETE', path)).statusCode).toBe(404);
    expect((await call(owner, 'GET', `${url}?search=Short`)).json().count).toBe(0);
    const kept = await t.ctx.db
      .select()
      .from(protocolVersions)
      .where(eq(protocolVersions.protocolUuid, made.protocol_uuid));
    expect(kept.map((row) => row.version).sort()).toEqual([1, 2]);
    // The name can be used again by a new protocol.
    const again = await create('short-lived');
    expect(again.protocol_uuid).not.toBe(made.protocol_uuid);
  });

  it('lets viewers read, members write, and hides the project from outsiders', async () => {
    const made = await create('Roles');
    const path = `${url}${made.protocol_uuid}/`;
    expect((await call(viewer, 'GET', url)).statusCode).toBe(200);
    expect((await call(viewer, 'GET', path)).statusCode).toBe(200);
    const before = await stored();
    expect((await call(viewer, 'POST', url, { name: 'Viewer', kind: 'movement_detection' })).statusCode).toBe(403);
    expect((await call(viewer, 'PATCH', path, { name: 'Viewer' })).statusCode).toBe(403);
    expect((await call(viewer, 'DELETE', path)).statusCode).toBe(403);
    for (const [method, target, payload] of [
      ['GET', url, undefined],
      ['GET', path, undefined],
      ['POST', url, { name: 'Outsider', kind: 'movement_detection' }],
      ['PATCH', path, { name: 'Outsider' }],
      ['DELETE', path, undefined],
    ] as const) {
      expect((await call(outsider, method, target, payload)).statusCode, `${method} ${target}`).toBe(404);
    }
    expect(await stored()).toEqual(before);
    // A protocol is only found under its own project.
    expect(
      (await call(owner, 'GET', `/api/projects/${other.projectUuid}/protocols/${made.protocol_uuid}/`)).statusCode,
    ).toBe(404);
    expect((await call(owner, 'GET', `${url}not-a-uuid/`)).statusCode).toBe(404);
    const byMember = await create('Member made', 'event_detection', {}, member);
    expect(byMember.created_by?.id).toBe(member.id);
  });
});
