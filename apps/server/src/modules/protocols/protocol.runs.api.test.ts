import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.js';
import {
  createProjectWithSubject,
  type ProjectWithSubject,
  uploadVideo,
  waitForVideo,
} from '../../../test/factories-videos.js';
import { analysisFixtures, JUMPS_FIXTURE } from '../../../test/fixtures/videos.js';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { eventDetectionParameters, movementParameters } from '../analysis/analysis.schemas.js';

const J = JUMPS_FIXTURE;
const ROI = { start_s: 0, ...J.leftRoi };

type Run = {
  analysis_uuid: string;
  kind: string;
  status: string;
  parameters: Record<string, unknown>;
  protocol_uuid: string | null;
  protocol_version: number | null;
  summary: { events: number; samples: number; frames_per_second: number | null } | null;
};

describe('runs made from protocols', () => {
  let t: TestApp;
  let owner: TestUser;
  let project: ProjectWithSubject;
  let other: ProjectWithSubject;
  let protocolsUrl: string;
  let analysisUrl: string;
  let protocolUuid: string;
  const made: Record<string, Run> = {};

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: owner.headers, ...(payload ? { payload: payload as object } : {}) });

  async function createProtocol(name: string, kind: string, parameters: object, url = protocolsUrl) {
    const response = await call('POST', url, { name, kind, parameters });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as { protocol_uuid: string; version: number; parameters: Record<string, unknown> };
  }

  async function startRun(body: object): Promise<Run> {
    const response = await call('POST', analysisUrl, body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as Run;
  }

  async function waitForRun(uuid: string): Promise<Run> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const run = (await call('GET', `${analysisUrl}${uuid}/`)).json() as Run;
      if (!['queued', 'running'].includes(run.status) || Date.now() > deadline) return run;
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  }

  const runCount = async () => (await call('GET', `/api/projects/${project.projectUuid}/analysis/`)).json().count;

  beforeAll(async () => {
    t = await createTestApp({ workers: true, config: { analysisWorkers: 2 } });
    owner = await createUser(t.ctx);
    project = await createProjectWithSubject(t.ctx, owner);
    other = await createProjectWithSubject(t.ctx, owner);
    protocolsUrl = `/api/projects/${project.projectUuid}/protocols/`;
    const uploaded = await uploadVideo(t.app, owner, project.videosUrl, analysisFixtures().jumpsMp4);
    expect(uploaded.statusCode).toBe(201);
    const videoUrl = `${project.videosUrl}${uploaded.json().video_uuid}/`;
    expect((await waitForVideo(t.app, owner, videoUrl)).status).toBe('ready');
    analysisUrl = `${videoUrl}analysis/`;
  }, 60_000);

  afterAll(async () => {
    await t?.close();
  });

  it('records the protocol and version a run used, and computes with that version’s parameters', async () => {
    // Version 1 sees the jumps; version 2's threshold no pixel difference of the scene reaches.
    const v1 = { rois: [ROI], threshold: 25 };
    const v2 = { rois: [ROI], threshold: 255 };
    protocolUuid = (await createProtocol('Jumps', 'movement_detection', v1)).protocol_uuid;
    made.current1 = await startRun({ protocol_uuid: protocolUuid });
    expect(made.current1).toMatchObject({
      kind: 'movement_detection',
      protocol_uuid: protocolUuid,
      protocol_version: 1,
    });
    expect(made.current1.parameters).toEqual(movementParameters.parse(v1));

    const edited = await call('PATCH', `${protocolsUrl}${protocolUuid}/`, { parameters: v2 });
    expect(edited.json().current_version).toBe(2);
    made.current2 = await startRun({ protocol_uuid: protocolUuid, kind: 'movement_detection' });
    expect(made.current2).toMatchObject({ protocol_version: 2, parameters: movementParameters.parse(v2) });
    // An earlier version on request.
    made.old1 = await startRun({ protocol_uuid: protocolUuid, protocol_version: 1 });
    expect(made.old1).toMatchObject({ protocol_version: 1, parameters: movementParameters.parse(v1) });
    // One parameter overridden, the rest the protocol's.
    made.override = await startRun({ protocol_uuid: protocolUuid, parameters: { threshold: 25 } });
    expect(made.override).toMatchObject({ protocol_version: 2, parameters: movementParameters.parse(v1) });
    // By hand, with the same settings, for comparison.
    made.byHand = await startRun({ kind: 'movement_detection', parameters: v1 });
    expect(made.byHand).toMatchObject({ protocol_uuid: null, protocol_version: null });

    for (const [key, run] of Object.entries(made)) made[key] = await waitForRun(run.analysis_uuid);
    for (const run of Object.values(made)) expect(run.status).toBe('succeeded');
    expect(made.byHand!.summary!.events).toBe(J.jumpFrames.length);
    // The same settings give the same series, byte for byte; version 2's threshold leaves every frame at 0.
    const series = async (run: Run) => (await call('GET', `${analysisUrl}${run.analysis_uuid}/series/`)).rawPayload;
    const expected = await series(made.byHand!);
    expect(expected.byteLength).toBe(J.frames * 8);
    for (const key of ['current1', 'old1', 'override']) {
      expect(Buffer.compare(await series(made[key]!), expected), key).toBe(0);
      const { frames_per_second: _speed, ...summary } = made[key]!.summary!;
      expect(made.byHand!.summary).toMatchObject(summary);
    }
    const still = new Float64Array(new Uint8Array(await series(made.current2!)).buffer);
    expect(still.length).toBe(J.frames);
    expect(still.every((value) => value === 0)).toBe(true);
    expect(made.current2!.summary).toMatchObject({ samples: J.frames, events: 0 });

    // The project's list of runs shows what each was made from.
    const list = (await call('GET', `/api/projects/${project.projectUuid}/analysis/`)).json() as { results: Run[] };
    const listed = new Map(list.results.map((run) => [run.analysis_uuid, run]));
    expect(listed.get(made.old1!.analysis_uuid)).toMatchObject({ protocol_uuid: protocolUuid, protocol_version: 1 });
    expect(listed.get(made.byHand!.analysis_uuid)).toMatchObject({ protocol_uuid: null, protocol_version: null });
    const fromProtocol = (
      await call('GET', `/api/projects/${project.projectUuid}/analysis/?protocol=${protocolUuid}`)
    ).json() as { count: number; results: Run[] };
    expect(fromProtocol.count).toBe(4);
    expect(new Set(fromProtocol.results.map((run) => run.analysis_uuid))).toEqual(
      new Set(['current1', 'current2', 'old1', 'override'].map((key) => made[key]!.analysis_uuid)),
    );
    const badFilter = await call('GET', `/api/projects/${project.projectUuid}/analysis/?protocol=nope`);
    expect(Object.keys(badFilter.json().errors)).toEqual(['protocol']);
  }, 120_000);

  it('saves a run’s settings as a protocol as they are ("Save as protocol"), and a run from it uses the same', async () => {
    const source = made.byHand!;
    const saved = await createProtocol('From a run', source.kind, source.parameters);
    expect(saved.parameters).toEqual(source.parameters);
    const again = await startRun({ protocol_uuid: saved.protocol_uuid });
    expect(again.parameters).toEqual(source.parameters);
    expect((await waitForRun(again.analysis_uuid)).summary?.events).toBe(source.summary!.events);
  }, 60_000);

  it('runs event detection from a protocol on an earlier run’s series', async () => {
    const detection = await createProtocol('Strict events', 'event_detection', { event_threshold_k: 6 });
    const run = await startRun({
      protocol_uuid: detection.protocol_uuid,
      source_analysis_uuid: made.byHand!.analysis_uuid,
    });
    expect(run).toMatchObject({ kind: 'event_detection', protocol_uuid: detection.protocol_uuid, protocol_version: 1 });
    expect(run.parameters).toEqual(eventDetectionParameters.parse({ event_threshold_k: 6 }));
    expect((await waitForRun(run.analysis_uuid)).status).toBe('succeeded');
  }, 60_000);

  it('refuses bad protocol references and settings that do not fit the video, by field, making no run', async () => {
    const before = await runCount();
    const elsewhere = await createProtocol(
      'Elsewhere',
      'movement_detection',
      {},
      `/api/projects/${other.projectUuid}/protocols/`,
    );
    const zonesOutside = await createProtocol('Big arena', 'location_tracking', {
      zones: [
        {
          name: 'corner',
          points: [
            [300, 200],
            [400, 200],
            [400, 300],
          ],
        },
      ],
    });
    const roiOutside = await createProtocol('Wide ROI', 'movement_detection', {
      rois: [{ start_s: 0, x: 0, y: 0, width: J.width + 1, height: 10 }],
    });
    const cases: [object, string[]][] = [
      [{ protocol_uuid: elsewhere.protocol_uuid }, ['protocol_uuid']],
      [{ protocol_uuid: randomUUID() }, ['protocol_uuid']],
      [{ protocol_uuid: 'not-a-uuid' }, ['protocol_uuid']],
      [{ protocol_uuid: protocolUuid, protocol_version: 3 }, ['protocol_version']],
      [{ protocol_uuid: protocolUuid, protocol_version: 0 }, ['protocol_version']],
      [{ kind: 'movement_detection', protocol_version: 1 }, ['protocol_version']],
      [{ protocol_uuid: protocolUuid, kind: 'location_tracking' }, ['kind']],
      [{ parameters: { threshold: 20 } }, ['kind']],
      [{ protocol_uuid: protocolUuid, parameters: { threshold: 999 } }, ['parameters.threshold']],
      [{ protocol_uuid: protocolUuid, parameters: { tresh: 1 } }, ['parameters']],
      [{ protocol_uuid: zonesOutside.protocol_uuid }, ['parameters.zones']],
      [{ protocol_uuid: roiOutside.protocol_uuid }, ['parameters.rois']],
    ];
    for (const [body, fields] of cases) {
      const response = await call('POST', analysisUrl, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(response.json().errors), JSON.stringify(body)).toEqual(fields);
    }
    expect(await runCount()).toBe(before);
  });

  it('keeps the runs of a deleted protocol with the protocol and version they recorded', async () => {
    expect((await call('DELETE', `${protocolsUrl}${protocolUuid}/`)).statusCode).toBe(204);
    for (const key of ['current1', 'current2', 'old1', 'override']) {
      const run = await call('GET', `${analysisUrl}${made[key]!.analysis_uuid}/`);
      expect(run.statusCode).toBe(200);
      expect(run.json()).toMatchObject({
        status: 'succeeded',
        protocol_uuid: protocolUuid,
        protocol_version: made[key]!.protocol_version,
      });
    }
    // A run taken to the trash and restored still names what it was made from.
    const old1 = made.old1!.analysis_uuid;
    expect((await call('DELETE', `${analysisUrl}${old1}/`)).statusCode).toBe(204);
    expect((await call('GET', `${analysisUrl}${old1}/`)).statusCode).toBe(404);
    const restored = await call('POST', `/api/projects/${project.projectUuid}/trash/${old1}/restore/`);
    expect(restored.statusCode, restored.body).toBeLessThan(300);
    expect((await call('GET', `${analysisUrl}${old1}/`)).json()).toMatchObject({
      protocol_uuid: protocolUuid,
      protocol_version: 1,
    });
    // No new run comes from it.
    const refused = await call('POST', analysisUrl, { protocol_uuid: protocolUuid });
    expect(refused.statusCode).toBe(400);
    expect(Object.keys(refused.json().errors)).toEqual(['protocol_uuid']);
  });
});
