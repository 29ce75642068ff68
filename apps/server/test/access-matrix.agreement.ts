import type { InjectOptions } from 'fastify';
import { withRun } from './access-matrix.analysis.js';
import type { Endpoint, Fixture } from './access-matrix.types.js';

const videoUrl = (f: Fixture) => `/api/projects/${f.projectUuid}/subjects/${f.subjectUuid}/videos/${f.videoUuid}/`;
const calibrateUrl = (f: Fixture) => `${videoUrl(f)}analysis/${f.analysisUuid}/calibrate/`;
const post = (url: string, payload: object): InjectOptions => ({ method: 'POST', url, payload });

const comparison = (f: Fixture) => ({
  reference: { kind: 'run_detected', analysis_uuid: f.analysisUuid },
  candidate: { kind: 'upload', events: [1] },
});
const calibration = { reference: { kind: 'upload', events: [1, 2] }, target: 'events', k: { from: 2, to: 3, step: 1 } };

/** Agreement and calibration compute and store nothing: reading the video is enough, so viewers may call them. */
export const accessMatrixAgreementEndpoints: Endpoint[] = [
  {
    name: 'POST agreement',
    minimum: 'viewer',
    prepare: withRun('succeeded'),
    request: (f) => post(`${videoUrl(f)}agreement/`, comparison(f)),
  },
  {
    name: 'POST agreement/export',
    minimum: 'viewer',
    prepare: withRun('succeeded'),
    request: (f) => post(`${videoUrl(f)}agreement/export/?format=xlsx`, comparison(f)),
  },
  {
    name: 'POST analysis run calibrate',
    minimum: 'viewer',
    prepare: withRun('succeeded'),
    request: (f) => post(calibrateUrl(f), calibration),
  },
  {
    name: 'POST analysis run calibrate/export',
    minimum: 'viewer',
    prepare: withRun('succeeded'),
    request: (f) => post(`${calibrateUrl(f)}export/?format=csv`, calibration),
  },
];
