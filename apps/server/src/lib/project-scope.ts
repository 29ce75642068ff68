/**
 * One gate for every project-scoped route. A route declares the least role it needs in its config
 * (`config: { access: 'member' }`); before validation this hook authorises the caller on the project of the path
 * (non-members and malformed ids: 404; lower roles: 403; writes to locked projects and uploads or analyses of draft
 * projects: 403 with the reason) and resolves the subject
 * and video the path names (404 when they are not the project's). The handler then reads them from
 * `request.scope` — parse, one service call, nothing else.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Role } from '../db/schema.js';
import { type ProjectRow, type ProjectWork, requireProjectRole, requireUserAndProjectRole } from './access.js';
import type { UserRow } from './authenticate.js';
import { unauthorized } from './errors.js';
import { getSubjectOrThrow, getVideoOrThrow, type SubjectRow, type VideoRow } from './scope-lookups.js';

export interface ProjectScope {
  user: UserRow;
  project: ProjectRow;
  role: Role;
  /** Set when the path has `:subject_uuid`. */
  subject: SubjectRow | null;
  /** Set when the path has `:video_uuid`. */
  video: VideoRow | null;
}

interface ScopeParams {
  project_uuid?: string;
  subject_uuid?: string;
  video_uuid?: string;
}

export function registerProjectScope(app: FastifyInstance) {
  app.decorateRequest('scope', null);
  // A project-scoped route without a declared role would be open to every signed-in user: refuse to start.
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/projects/:project_uuid/')) return;
    if (route.config?.access === undefined && route.config?.notProjectScoped !== true) {
      throw new Error(`${route.url} is under a project but declares no config.access`);
    }
  });
  // preValidation: an outsider learns nothing, not even whether the body would have been valid.
  app.addHook('preValidation', async (request) => {
    const minimum = request.routeOptions.config.access;
    if (!minimum) return;
    const params = request.params as ScopeParams;
    if (params.project_uuid === undefined) throw new Error(`${request.routeOptions.url} has access but no project`);
    // A read unless the method changes something; routes say when they process (uploads, analyses) or renew.
    const work: ProjectWork =
      request.routeOptions.config.work ?? (request.method === 'GET' || request.method === 'HEAD' ? 'read' : 'change');
    const inTrash = request.routeOptions.config.deletedProject === true;
    let user = request.user;
    let resolved: { project: ProjectRow; role: Role };
    if (user) {
      resolved = await requireProjectRole(app.ctx, user.id, params.project_uuid, minimum, work, inTrash);
    } else if (request.accessClaims) {
      // app.authenticate left the user to this hook: user, membership and project in one query.
      ({ user, ...resolved } = await requireUserAndProjectRole(
        app.ctx,
        request.accessClaims,
        params.project_uuid,
        minimum,
        work,
        inTrash,
      ));
      request.user = user;
    } else {
      throw unauthorized();
    }
    const { project, role } = resolved;
    const subject =
      params.subject_uuid === undefined
        ? null
        : await getSubjectOrThrow(app.ctx, project.projectUuid, params.subject_uuid);
    const video =
      params.video_uuid === undefined || !subject
        ? null
        : await getVideoOrThrow(app.ctx, subject.subjectUuid, params.video_uuid);
    request.scope = { user, project, role, subject, video };
  });
}

/** The resolved scope of a route that declared `config.access`. */
export function projectScope(request: FastifyRequest): ProjectScope {
  if (!request.scope) throw new Error(`${request.routeOptions.url} reads a scope it did not declare`);
  return request.scope;
}

/** The scope of a route under `…/subjects/:subject_uuid/`. */
export function subjectScope(request: FastifyRequest): ProjectScope & { subject: SubjectRow } {
  const scope = projectScope(request);
  if (!scope.subject) throw new Error(`${request.routeOptions.url} has no subject in its path`);
  return scope as ProjectScope & { subject: SubjectRow };
}

/** The scope of a route under `…/videos/:video_uuid/`. */
export function videoScope(request: FastifyRequest): ProjectScope & { subject: SubjectRow; video: VideoRow } {
  const scope = subjectScope(request);
  if (!scope.video) throw new Error(`${request.routeOptions.url} has no video in its path`);
  return scope as ProjectScope & { subject: SubjectRow; video: VideoRow };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The least role a project-scoped route needs; the project-scope hook enforces it. */
    access?: Role;
    /**
     * What the route does against the project's state when it is not what its method says: `process` for uploads
     * and analyses (they wait while the project is a draft), `renew` for what must work on a locked project.
     */
    work?: Exclude<ProjectWork, 'read' | 'change'>;
    /** A route that acts on a project in the trash (restoring it); every other route answers 404 for one. */
    deletedProject?: true;
    /** A route under /projects/{uuid}/ that non-members may call (accepting an invitation); it checks its own rules. */
    notProjectScoped?: true;
  }
  interface FastifyRequest {
    scope: ProjectScope | null;
  }
}
