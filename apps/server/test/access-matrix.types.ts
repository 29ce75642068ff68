import type { InjectOptions } from 'fastify';
import type { ProjectWork } from '../src/lib/access.js';
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
  /** Set by endpoints that need a pose set. */
  poseUuid?: string;
  /** Set by endpoints that need a protocol. */
  protocolUuid?: string;
  /** Set by endpoints that need a batch. */
  batchUuid?: string;
  /** Set by endpoints that need something in the trash (its item uuid). */
  trashItemUuid?: string;
  /** The project's name (deleting a project asks for it). */
  projectName?: string;
  /** Set by endpoints that act on another member (change a role, remove, transfer ownership). */
  targetUserId?: number;
}

export interface Endpoint {
  name: string;
  minimum: MatrixRole;
  /**
   * What the call does against the project's state, when its method does not say it (reads are GET/HEAD, the rest
   * changes): `process` waits on a draft project, `renew` works on a locked one.
   */
  work?: Exclude<ProjectWork, 'read' | 'change'>;
  /** Roles below `minimum` that see 404 instead of 403 (a deleted project is hidden from all but its owner). */
  hiddenFrom?: MatrixRole[];
  /** Roles at or above `minimum` that a rule still refuses with 403 (the owner cannot leave). */
  refuses?: MatrixRole[];
  /** Extra setup (e.g. a video) before the request. */
  prepare?: (t: TestApp, fixture: Fixture, owner: TestUser) => Promise<void>;
  request: (fixture: Fixture, actor: TestUser) => InjectOptions;
}
