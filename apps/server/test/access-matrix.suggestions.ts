import { and, eq } from 'drizzle-orm';
import { analysisEvents } from '../src/db/schema.js';
import { withRun } from './access-matrix.analysis.js';
import type { Endpoint, Fixture } from './access-matrix.types.js';

const modelsUrl = (f: Fixture) => `/api/projects/${f.projectUuid}/models/`;

/** A succeeded run with one event a person decided on: something a training can learn from. */
const withReviewedRun: Endpoint['prepare'] = async (t, fixture, owner) => {
  await withRun('succeeded')!(t, fixture, owner);
  await t.ctx.db
    .update(analysisEvents)
    .set({ reviewedById: owner.id, reviewedAt: new Date(), discarded: true })
    .where(and(eq(analysisEvents.analysisUuid, fixture.analysisUuid!), eq(analysisEvents.id, 1)));
};

/** Suggestion models (ADR 038) in the access matrix. */
export const accessMatrixSuggestionEndpoints: Endpoint[] = [
  { name: 'GET models', minimum: 'viewer', request: (f) => ({ method: 'GET', url: modelsUrl(f) }) },
  {
    name: 'POST models train',
    minimum: 'member',
    prepare: withReviewedRun,
    request: (f) => ({ method: 'POST', url: `${modelsUrl(f)}train/`, payload: { kind: 'movement_detection' } }),
  },
];
