import { and, eq, isNotNull, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { analyses, analysisEvents, projects, videos } from '../../db/schema.js';
import type { ProjectRow } from '../../lib/access.js';
import type { ChecklistResponse } from './checklist.schemas.js';

/**
 * The "Getting started" steps of a project, from its data: subjects (the kept count), ready videos, finished runs,
 * whether any event was reviewed, and whether an export was ever downloaded.
 */
export async function projectChecklist(context: AppContext, project: ProjectRow): Promise<ChecklistResponse> {
  const { projectUuid } = project;
  const [counts] = await context.db
    .select({
      videosReady: sql<number>`(select count(*)::int from ${videos} where ${and(
        eq(videos.projectUuid, projectUuid),
        eq(videos.status, 'ready'),
      )})`,
      runsSucceeded: sql<number>`(select count(*)::int from ${analyses} where ${and(
        eq(analyses.projectUuid, projectUuid),
        eq(analyses.status, 'succeeded'),
      )})`,
      eventsReviewed: sql<boolean>`exists (select 1 from ${analysisEvents} inner join ${analyses} on ${eq(
        analyses.analysisUuid,
        analysisEvents.analysisUuid,
      )} where ${and(
        eq(analyses.projectUuid, projectUuid),
        or(isNotNull(analysisEvents.reviewedAt), isNotNull(analysisEvents.updatedAt)),
      )})`,
    })
    .from(projects)
    .where(eq(projects.projectUuid, projectUuid));
  return {
    subjects: project.subjectCount,
    videos_ready: Number(counts?.videosReady ?? 0),
    runs_succeeded: Number(counts?.runsSucceeded ?? 0),
    events_reviewed: counts?.eventsReviewed === true,
    exported: project.firstExportAt !== null,
  };
}

/**
 * Marks a project exported the first time one of its `…/export/` downloads answers 200 (a run's table, the project
 * summary, a track, an agreement report): one hook, so an export added later counts without remembering to.
 * The caller was authorised by the project scope; an export only reads, so a viewer's download counts too.
 * The note is written before the answer leaves (onSend, not onResponse): a client that reads the checklist right after
 * its download then sees the step ticked. It is written once per project, so only the first download waits for it.
 */
export function recordProjectExports(app: FastifyInstance) {
  app.addHook('onSend', async (request, reply, payload) => {
    const scope = request.scope;
    if (!scope || scope.project.firstExportAt !== null || reply.statusCode !== 200) return payload;
    if (request.method !== 'GET' || !request.routeOptions.url?.endsWith('/export/')) return payload;
    try {
      await app.ctx.db
        .update(projects)
        .set({ firstExportAt: new Date() })
        .where(and(eq(projects.projectUuid, scope.project.projectUuid), sql`${projects.firstExportAt} is null`));
    } catch (error) {
      // The download has been answered; a failed note only leaves the checklist step unticked.
      request.log.warn({ err: error, project: scope.project.projectUuid }, 'could not record the first export');
    }
    return payload;
  });
}
