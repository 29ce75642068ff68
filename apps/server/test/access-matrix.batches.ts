import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { analyses, batches, batchRuns, subjects } from '../src/db/schema.js';
import { withRun } from './access-matrix.analysis.js';
import { withProtocol } from './access-matrix.protocols.js';
import type { Endpoint, Fixture } from './access-matrix.types.js';

const json = (method: InjectOptions['method'], url: string, payload?: object): InjectOptions => ({
  method,
  url,
  ...(payload ? { payload } : {}),
});
const batchesUrl = (f: Fixture) => `/api/projects/${f.projectUuid}/batches/`;
const batchUrl = (f: Fixture) => `${batchesUrl(f)}${f.batchUuid}/`;

/** A ready video with a run of `status` (made `failed` from a queued one), a protocol, and a batch holding the run. */
function withBatch(status: 'succeeded' | 'queued' | 'failed'): Endpoint['prepare'] {
  return async (t, fixture, owner) => {
    await withRun(status === 'succeeded' ? 'succeeded' : 'queued')!(t, fixture, owner);
    await withProtocol!(t, fixture, owner);
    if (status === 'failed') {
      await t.ctx.db
        .update(analyses)
        .set({ status: 'failed', error: 'Decoding the video failed.' })
        .where(eq(analyses.analysisUuid, fixture.analysisUuid!));
    }
    const [batch] = await t.ctx.db
      .insert(batches)
      .values({
        projectUuid: fixture.projectUuid,
        protocolUuid: fixture.protocolUuid!,
        protocolVersion: 1,
        kind: 'movement_detection',
        selection: {},
        createdById: owner.id,
      })
      .returning();
    await t.ctx.db
      .insert(batchRuns)
      .values({ analysisUuid: fixture.analysisUuid!, batchUuid: batch!.batchUuid, videoUuid: fixture.videoUuid! });
    fixture.batchUuid = batch!.batchUuid;
  };
}

/** A batch of one succeeded run whose subject is in a group (so its statistics and plot have something to show). */
const withGroupedBatch: Endpoint['prepare'] = async (t, fixture, owner) => {
  await withBatch('succeeded')!(t, fixture, owner);
  await t.ctx.db.update(subjects).set({ group: 'control' }).where(eq(subjects.subjectUuid, fixture.subjectUuid));
};

export const accessMatrixBatchEndpoints: Endpoint[] = [
  { name: 'GET batches', minimum: 'viewer', request: (f) => json('GET', batchesUrl(f)) },
  {
    name: 'POST batches',
    minimum: 'member',
    work: 'process',
    prepare: async (t, fixture, owner) => {
      await withRun('succeeded')!(t, fixture, owner);
      await withProtocol!(t, fixture, owner);
    },
    request: (f) => json('POST', batchesUrl(f), { protocol_uuid: f.protocolUuid, video_uuids: [f.videoUuid] }),
  },
  {
    name: 'POST batches/check',
    minimum: 'member',
    work: 'process',
    prepare: async (t, fixture, owner) => {
      await withRun('succeeded')!(t, fixture, owner);
      await withProtocol!(t, fixture, owner);
    },
    request: (f) =>
      json('POST', `${batchesUrl(f)}check/`, { protocol_uuid: f.protocolUuid, video_uuids: [f.videoUuid] }),
  },
  { name: 'GET batch', minimum: 'viewer', prepare: withBatch('succeeded'), request: (f) => json('GET', batchUrl(f)) },
  {
    name: 'POST batch retry',
    minimum: 'member',
    work: 'process',
    prepare: withBatch('failed'),
    request: (f) => json('POST', `${batchUrl(f)}retry/`),
  },
  {
    name: 'POST batch stop',
    minimum: 'member',
    prepare: withBatch('queued'),
    request: (f) => json('POST', `${batchUrl(f)}stop/`),
  },
  {
    name: 'GET batch results',
    minimum: 'viewer',
    prepare: withBatch('succeeded'),
    request: (f) => json('GET', `${batchUrl(f)}results/?format=csv&layout=long`),
  },
  {
    name: 'GET protocol results',
    minimum: 'viewer',
    prepare: withBatch('succeeded'),
    request: (f) => json('GET', `/api/projects/${f.projectUuid}/protocols/${f.protocolUuid}/results/`),
  },
  {
    name: 'GET batch statistics',
    minimum: 'viewer',
    prepare: withGroupedBatch,
    request: (f) => json('GET', `${batchUrl(f)}statistics/`),
  },
  {
    name: 'GET batch statistics figure',
    minimum: 'viewer',
    prepare: withGroupedBatch,
    request: (f) => json('GET', `${batchUrl(f)}statistics/figure/?measure=detected_events&format=svg`),
  },
];
