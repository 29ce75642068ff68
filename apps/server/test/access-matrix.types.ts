import type { InjectOptions } from 'fastify';
import type { TestUser } from './factories.js';
import type { TestApp } from './test-app.js';

export type MatrixRole = 'viewer' | 'member' | 'admin' | 'owner';

/** Ids a request needs; each endpoint × role gets fresh ones so a delete cannot spoil the next call. */
export interface Fixture {
  projectUuid: string;
  subjectUuid: string;
  /** Set by endpoints that need a video. */
  videoUuid?: string;
  /** Set by endpoints that need an invitation. */
  invitationUuid?: string;
  /** Set by endpoints that need an analysis run. */
  analysisUuid?: string;
  /** Set by endpoints that need an annotation track. */
  annotationConfigUuid?: string;
}

export interface Endpoint {
  name: string;
  minimum: MatrixRole;
  /** Extra setup (e.g. a video) before the request. */
  prepare?: (t: TestApp, fixture: Fixture, owner: TestUser) => Promise<void>;
  request: (fixture: Fixture) => InjectOptions;
}
