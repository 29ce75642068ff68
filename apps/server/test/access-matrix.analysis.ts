import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { analyses, analysisEvents, analysisScorers, memberships, videos } from '../src/db/schema.js';
import { analysisKeys, videoKeys } from '../src/lib/storage-keys.js';
import type { Endpoint, Fixture } from './access-matrix.types.js';
import { analysisFixtures, JUMPS_FIXTURE } from './fixtures/videos.js';

const json = (method: InjectOptions['method'], url: string, payload?: object): InjectOptions => ({
  method,
  url,
  ...(payload ? { payload } : {}),
});
const analysisUrl = (f: Fixture) =>
  `/api/projects/${f.projectUuid}/subjects/${f.subjectUuid}/videos/${f.videoUuid}/analysis/`;
const runUrl = (f: Fixture) => `${analysisUrl(f)}${f.analysisUuid}/`;

/**
 * A ready video (the real jumps fixture, so previews decode) with one run of the given status; a succeeded run
 * has its stored series and two events.
 */
export function withRun(status: 'succeeded' | 'queued'): Endpoint['prepare'] {
  return async (t, fixture, owner) => {
    const J = JUMPS_FIXTURE;
    const videoUuid = randomUUID();
    const originalKey = videoKeys({ projectUuid: fixture.projectUuid, videoUuid }, '.mp4').original;
    await t.ctx.storage.write(originalKey, readFileSync(analysisFixtures().jumpsMp4));
    await t.ctx.db.insert(videos).values({
      videoUuid,
      projectUuid: fixture.projectUuid,
      subjectUuid: fixture.subjectUuid,
      name: 'Matrix video',
      originalFilename: 'jumps.mp4',
      status: 'ready',
      originalKey,
      container: 'mov,mp4,m4a,3gp,3g2,mj2',
      fps: J.fps,
      frameCount: J.frames,
      durationS: J.seconds,
      width: J.width,
      height: J.height,
      pixelFormat: 'yuv420p',
      fullRange: false,
      startTime: 0,
    });
    const [run] = await t.ctx.db
      .insert(analyses)
      .values({
        projectUuid: fixture.projectUuid,
        subjectUuid: fixture.subjectUuid,
        videoUuid,
        kind: 'movement_detection',
        parameters: {},
        status,
        softwareVersion: 'matrix',
        source: { fps: J.fps },
        createdById: owner.id,
      })
      .returning();
    if (status === 'succeeded') {
      const keys = analysisKeys(run!);
      const values = Float64Array.from({ length: J.frames }, (_, i) => (i % 30 === 0 ? 100 : 0));
      await t.ctx.storage.write(keys.series, Buffer.from(values.buffer));
      await t.ctx.storage.write(keys.seriesCsv, Buffer.from('frame,time_s,value\n0,0,0\n'));
      await t.ctx.db
        .update(analyses)
        .set({ seriesKey: keys.series, seriesCsvKey: keys.seriesCsv, sampleCount: J.frames })
        .where(eqRun(run!.analysisUuid));
      await t.ctx.db.insert(analysisEvents).values([
        { analysisUuid: run!.analysisUuid, id: 1, time: 1, originalTime: 1 },
        { analysisUuid: run!.analysisUuid, id: 2, time: 2, originalTime: 2 },
      ]);
    }
    fixture.videoUuid = videoUuid;
    fixture.analysisUuid = run!.analysisUuid;
  };
}

const eqRun = (uuid: string) => eq(analyses.analysisUuid, uuid);

/**
 * A succeeded location-tracking run: its stored positions, a walk of 1 px a frame (wrapping at the picture's edge),
 * no reference (its figures draw on white).
 */
const withLocationRun: Endpoint['prepare'] = async (t, fixture, owner) => {
  await withRun('succeeded')!(t, fixture, owner);
  const J = JUMPS_FIXTURE;
  const [run] = await t.ctx.db.select().from(analyses).where(eqRun(fixture.analysisUuid!));
  const keys = analysisKeys(run!);
  const positions = Float64Array.from({ length: 2 * J.frames }, (_, i) => (i < J.frames ? i % J.width : 10));
  await t.ctx.storage.write(keys.track, Buffer.from(positions.buffer));
  await t.ctx.db
    .update(analyses)
    .set({
      kind: 'location_tracking',
      parameters: { bypass_ranges: [], jump_px: 5, zones: [], scale: null },
      source: { fps: J.fps, width: J.width, height: J.height },
      seriesKey: keys.track,
    })
    .where(eqRun(fixture.analysisUuid!));
};

/** A succeeded run that every member of the project scores blind (ADR 014), so each role's own scoring exists. */
const withScorers: Endpoint['prepare'] = async (t, fixture, owner) => {
  await withRun('succeeded')!(t, fixture, owner);
  const members = await t.ctx.db
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(eq(memberships.projectUuid, fixture.projectUuid));
  await t.ctx.db
    .insert(analysisScorers)
    .values(members.map((m) => ({ analysisUuid: fixture.analysisUuid!, userId: m.userId })));
};

function csvForm(content: string): Pick<InjectOptions, 'payload' | 'headers'> {
  const boundary = `----matrix${randomUUID().replace(/-/g, '')}`;
  return {
    payload: `--${boundary}\r\nContent-Disposition: form-data; name="timeseries"; filename="s.csv"\r\nContent-Type: text/csv\r\n\r\n${content}\r\n--${boundary}--\r\n`,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** Analysis endpoints of the access matrix. */
export const accessMatrixAnalysisEndpoints: Endpoint[] = [
  {
    name: 'DELETE analysis (to the trash)',
    minimum: 'member',
    prepare: withRun('succeeded'),
    request: (f) => json('DELETE', runUrl(f)),
  },
  {
    name: 'GET project analysis list',
    minimum: 'viewer',
    request: (f) => json('GET', `/api/projects/${f.projectUuid}/analysis/`),
  },
  {
    name: 'GET project analysis summary export',
    minimum: 'viewer',
    prepare: withRun('succeeded'),
    request: (f) => json('GET', `/api/projects/${f.projectUuid}/analysis/export/?format=csv`),
  },
  {
    name: 'POST analysis (create)',
    minimum: 'member',
    work: 'process',
    prepare: withRun('succeeded'),
    request: (f) => json('POST', analysisUrl(f), { kind: 'movement_detection', parameters: {} }),
  },
  {
    name: 'POST analysis/create-preview',
    minimum: 'member',
    work: 'process',
    prepare: withRun('succeeded'),
    request: (f) => json('POST', `${analysisUrl(f)}create-preview/`, { parameters: {}, start_s: 1, length_s: 0.5 }),
  },
  {
    name: 'POST analysis/import_timeseries',
    minimum: 'member',
    work: 'process',
    prepare: withRun('succeeded'),
    request: (f) => ({ method: 'POST', url: `${analysisUrl(f)}import_timeseries/`, ...csvForm('value\n1\n5\n1\n') }),
  },
  {
    name: 'GET analysis/retrieve-events',
    minimum: 'viewer',
    prepare: withRun('succeeded'),
    request: (f) => json('GET', `${analysisUrl(f)}retrieve-events/?analysis_uuid=${f.analysisUuid}`),
  },
  {
    name: 'POST analysis/update-events',
    minimum: 'member',
    prepare: withRun('succeeded'),
    request: (f) =>
      json('POST', `${analysisUrl(f)}update-events/`, {
        analysis_uuid: f.analysisUuid,
        version: 0,
        changes: [{ action: 'flag', id: 1 }],
      }),
  },
  {
    name: 'GET analysis/retrieve-timeseries-url',
    minimum: 'viewer',
    prepare: withRun('succeeded'),
    request: (f) => json('GET', `${analysisUrl(f)}retrieve-timeseries-url/?analysis_uuid=${f.analysisUuid}`),
  },
  {
    name: 'GET analysis run',
    minimum: 'viewer',
    prepare: withRun('succeeded'),
    request: (f) => json('GET', runUrl(f)),
  },
  {
    name: 'POST analysis run revoke',
    minimum: 'member',
    prepare: withRun('queued'),
    request: (f) => json('POST', `${runUrl(f)}revoke/`),
  },
  {
    name: 'GET analysis run export',
    minimum: 'viewer',
    prepare: withRun('succeeded'),
    request: (f) => json('GET', `${runUrl(f)}export/?table=events&format=xlsx`),
  },
  {
    name: 'GET analysis run figure',
    minimum: 'viewer',
    prepare: withLocationRun,
    request: (f) => json('GET', `${runUrl(f)}figure/?name=heatmap&format=png`),
  },
  {
    name: 'GET analysis run series',
    minimum: 'viewer',
    prepare: withRun('succeeded'),
    request: (f) => json('GET', `${runUrl(f)}series/`),
  },
  {
    name: 'GET analysis run jumps (location tracking)',
    minimum: 'viewer',
    prepare: withLocationRun,
    request: (f) => json('GET', `${runUrl(f)}jumps/`),
  },
  {
    name: 'POST analysis/update-events (review marks only)',
    minimum: 'member',
    prepare: withRun('succeeded'),
    request: (f) =>
      json('POST', `${analysisUrl(f)}update-events/`, {
        analysis_uuid: f.analysisUuid,
        version: 7,
        changes: [{ action: 'review', id: 2 }],
      }),
  },
  {
    name: 'GET analysis run review-position',
    minimum: 'viewer',
    prepare: withRun('succeeded'),
    request: (f) => json('GET', `${runUrl(f)}review-position/`),
  },
  {
    // A viewer's own place in the run, not the run's data: viewers may keep it (ADR 008).
    name: 'PUT analysis run review-position',
    minimum: 'viewer',
    prepare: withRun('succeeded'),
    request: (f) => json('PUT', `${runUrl(f)}review-position/`, { event_id: 2 }),
  },
  {
    name: 'GET analysis run scorers',
    minimum: 'viewer',
    prepare: withRun('succeeded'),
    request: (f) => json('GET', `${runUrl(f)}scorers/`),
  },
  {
    name: 'POST analysis run scorers',
    minimum: 'member',
    prepare: withRun('succeeded'),
    request: (f) => json('POST', `${runUrl(f)}scorers/`),
  },
  {
    name: 'GET analysis run my-scoring',
    minimum: 'member',
    prepare: withScorers,
    request: (f) => json('GET', `${runUrl(f)}my-scoring/`),
  },
  {
    name: 'POST analysis run my-scoring update-events',
    minimum: 'member',
    prepare: withScorers,
    request: (f) =>
      json('POST', `${runUrl(f)}my-scoring/update-events/`, { version: 0, changes: [{ action: 'discard', id: 1 }] }),
  },
  {
    name: 'POST analysis run consensus resolve',
    minimum: 'member',
    prepare: withRun('succeeded'),
    request: (f) => json('POST', `${runUrl(f)}consensus/resolve/`, { event_id: 1, scorer_id: null }),
  },
  {
    name: 'GET project labels',
    minimum: 'viewer',
    request: (f) => json('GET', `/api/projects/${f.projectUuid}/labels/`),
  },
  {
    name: 'POST project labels',
    minimum: 'member',
    request: (f) => json('POST', `/api/projects/${f.projectUuid}/labels/`, { name: 'left hand' }),
  },
];
