import type { InjectOptions } from 'fastify';
import { annotationConfigs, videos } from '../src/db/schema.js';
import { withRun } from './access-matrix.analysis.js';
import type { Endpoint, Fixture } from './access-matrix.types.js';
import { multipartFile } from './factories.js';

const json = (method: InjectOptions['method'], url: string, payload?: object): InjectOptions => ({
  method,
  url,
  ...(payload ? { payload } : {}),
});
const annotationsUrl = (f: Fixture) =>
  `/api/projects/${f.projectUuid}/subjects/${f.subjectUuid}/videos/${f.videoUuid}/annotations/`;
const trackUrl = (f: Fixture) => `${annotationsUrl(f)}${f.annotationConfigUuid}/`;
const configUrl = (f: Fixture) => `${annotationsUrl(f)}config/${f.annotationConfigUuid}/`;

/** A 10-second video row with one track holding one bout (annotations need no decoding). */
const withTrack: Endpoint['prepare'] = async (t, fixture, owner) => {
  const [video] = await t.ctx.db
    .insert(videos)
    .values({
      projectUuid: fixture.projectUuid,
      subjectUuid: fixture.subjectUuid,
      name: 'Matrix video',
      originalFilename: 'matrix.mp4',
      status: 'ready',
      durationS: 10,
      fps: 30,
      frameCount: 300,
    })
    .returning();
  const [track] = await t.ctx.db
    .insert(annotationConfigs)
    .values({
      projectUuid: fixture.projectUuid,
      videoUuid: video!.videoUuid,
      name: 'Grooming',
      color: '#e11d48',
      hotkey: 'g',
      ranges: [[1, 2]],
      rangeCount: 1,
      totalDurationS: 1,
      createdById: owner.id,
    })
    .returning();
  fixture.videoUuid = video!.videoUuid;
  fixture.annotationConfigUuid = track!.annotationConfigUuid;
};

/** Annotation endpoints of the access matrix: viewers read, members and above write. */
export const accessMatrixAnnotationEndpoints: Endpoint[] = [
  {
    name: 'GET annotations/config',
    minimum: 'viewer',
    prepare: withTrack,
    request: (f) => json('GET', `${annotationsUrl(f)}config/`),
  },
  {
    name: 'POST annotations/config',
    minimum: 'member',
    prepare: withTrack,
    request: (f) => json('POST', `${annotationsUrl(f)}config/`, { name: 'Rearing' }),
  },
  {
    name: 'POST annotations/config/presets',
    minimum: 'member',
    prepare: withTrack,
    request: (f) => json('POST', `${annotationsUrl(f)}config/presets/`),
  },
  {
    name: 'PUT annotations/config/{uuid}',
    minimum: 'member',
    prepare: withTrack,
    request: (f) => json('PUT', configUrl(f), { name: 'Grooming 2', color: '#000000', hotkey: 'h' }),
  },
  {
    name: 'PATCH annotations/config/{uuid}',
    minimum: 'member',
    prepare: withTrack,
    request: (f) => json('PATCH', configUrl(f), { color: '#123456' }),
  },
  {
    name: 'DELETE annotations/config/{uuid}',
    minimum: 'member',
    prepare: withTrack,
    request: (f) => json('DELETE', configUrl(f)),
  },
  {
    name: 'GET annotations/{uuid}',
    minimum: 'viewer',
    prepare: withTrack,
    request: (f) => json('GET', trackUrl(f)),
  },
  {
    name: 'PUT annotations/{uuid}',
    minimum: 'member',
    prepare: withTrack,
    request: (f) => json('PUT', trackUrl(f), { ranges: [[0, 1]], version: 0 }),
  },
  {
    name: 'PATCH annotations/{uuid}',
    minimum: 'member',
    prepare: withTrack,
    request: (f) => json('PATCH', trackUrl(f), { version: 0, add: [[3, 4]] }),
  },
  {
    name: 'POST annotations/{uuid}/import',
    minimum: 'member',
    prepare: withTrack,
    request: (f) => ({
      method: 'POST',
      url: `${trackUrl(f)}import/`,
      ...multipartFile('file', 'bouts.csv', Buffer.from('start,end\n0,1\n'), 'text/csv'),
    }),
  },
  {
    name: 'GET annotations/{uuid}/export',
    minimum: 'viewer',
    prepare: withTrack,
    request: (f) => json('GET', `${trackUrl(f)}export/?format=csv`),
  },
  {
    name: 'POST annotations/fill-from-series',
    minimum: 'member',
    prepare: withRun('succeeded'),
    request: (f) =>
      json('POST', `${annotationsUrl(f)}fill-from-series/`, {
        source_analysis_uuid: f.analysisUuid,
        comparison: 'gt',
        threshold: 50,
        name: 'From the series',
      }),
  },
  {
    name: 'GET annotations/export (BORIS)',
    minimum: 'viewer',
    prepare: withTrack,
    request: (f) => json('GET', `${annotationsUrl(f)}export/?format=boris`),
  },
  {
    name: 'GET project annotations/presets',
    minimum: 'viewer',
    prepare: withTrack,
    request: (f) => json('GET', `/api/projects/${f.projectUuid}/annotations/presets/`),
  },
];
