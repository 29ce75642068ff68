/**
 * A run's events as Quick Score reads and changes them: versioned edits (all or nothing, 409 on a stale version),
 * review marks (who decided on each event first and when, who last looked), and each user's resume position in each run.
 */
import { and, asc, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { analyses, analysisEvents, reviewPositions, users } from '../../db/schema.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { rememberLabels } from '../labels/label.service.js';
import { acceptSources, applyAccept } from '../suggestions/suggestions.accept.js';
import { type SuggestionSource, suggestionFor, suggestionSource, votesOf } from '../suggestions/suggestions.cache.js';
import { noteReviews } from '../suggestions/suggestions.trigger.js';
import { displayName } from '../users/user.serializer.js';
import type { VideoRow } from '../videos/video.lookup.js';
import { eventAlreadyThere, noSuchEvent, timeChecker } from './analysis.event-checks.js';
import type { EventChange, eventSchema, updateEventsBody } from './analysis.events.schemas.js';
import { findRunOfVideo, selectRun } from './analysis.read.js';
import type { AnalysisRow } from './analysis.runs.js';

type EventResponse = z.infer<typeof eventSchema>;

const reviewers = alias(users, 'reviewers');
const viewers = alias(users, 'viewers');
const resolvers = alias(users, 'resolvers');
const acceptors = alias(users, 'acceptors');

function person(id: number | null, email: string | null, firstName: string | null, lastName: string | null) {
  if (id === null) return null;
  return {
    id,
    display_name: displayName({ email: email ?? '', firstName: firstName ?? '', lastName: lastName ?? '' }),
  };
}

/**
 * A run's events by time (all of them, or only `ids`), with who changed and who reviewed each, and — from
 * `suggestions`, the run's cached votes at a reader's bar — the suggestion of each event nobody decided on yet.
 */
export async function readEvents(
  context: AppContext,
  run: AnalysisRow,
  ids?: number[],
  suggestions: SuggestionSource | null = null,
) {
  const conditions = [eq(analysisEvents.analysisUuid, run.analysisUuid)];
  if (ids) conditions.push(inArray(analysisEvents.id, ids.length > 0 ? ids : [-1]));
  const rows = await context.db
    .select({
      event: analysisEvents,
      userId: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      reviewerId: reviewers.id,
      reviewerEmail: reviewers.email,
      reviewerFirst: reviewers.firstName,
      reviewerLast: reviewers.lastName,
      viewerId: viewers.id,
      viewerEmail: viewers.email,
      viewerFirst: viewers.firstName,
      viewerLast: viewers.lastName,
      resolverId: resolvers.id,
      resolverEmail: resolvers.email,
      resolverFirst: resolvers.firstName,
      resolverLast: resolvers.lastName,
      acceptorId: acceptors.id,
      acceptorEmail: acceptors.email,
      acceptorFirst: acceptors.firstName,
      acceptorLast: acceptors.lastName,
    })
    .from(analysisEvents)
    .leftJoin(users, eq(users.id, analysisEvents.updatedById))
    .leftJoin(reviewers, eq(reviewers.id, analysisEvents.reviewedById))
    .leftJoin(viewers, eq(viewers.id, analysisEvents.lastViewedById))
    .leftJoin(resolvers, eq(resolvers.id, analysisEvents.resolvedById))
    .leftJoin(acceptors, eq(acceptors.id, analysisEvents.suggestionAcceptedById))
    .where(and(...conditions))
    .orderBy(asc(analysisEvents.time), asc(analysisEvents.id));
  const votes = suggestions ? await votesOf(context, run.analysisUuid, suggestions.modelUuid, ids) : null;
  const events: EventResponse[] = rows.map((row) => ({
    id: row.event.id,
    time: row.event.time,
    original_time: row.event.originalTime,
    label: row.event.label,
    flagged: row.event.flagged,
    discarded: row.event.discarded,
    updated_by: person(row.userId, row.email, row.firstName, row.lastName),
    updated_at: row.event.updatedAt?.toISOString() ?? null,
    reviewed_by: person(row.reviewerId, row.reviewerEmail, row.reviewerFirst, row.reviewerLast),
    reviewed_at: row.event.reviewedAt?.toISOString() ?? null,
    last_viewed_by: person(row.viewerId, row.viewerEmail, row.viewerFirst, row.viewerLast),
    last_viewed_at: row.event.lastViewedAt?.toISOString() ?? null,
    resolved_by: person(row.resolverId, row.resolverEmail, row.resolverFirst, row.resolverLast),
    resolved_at: row.event.resolvedAt?.toISOString() ?? null,
    suggestion:
      suggestions && votes && !row.event.reviewedAt && !row.event.suggestionAcceptedAt
        ? suggestionFor(suggestions, votes.get(row.event.id))
        : null,
    accepted_suggestion: row.event.suggestionAcceptedAt
      ? {
          discard: row.event.suggestionDiscard ?? false,
          label: row.event.suggestionLabel,
          confidence: row.event.suggestionConfidence ?? 0,
          model_version: row.event.suggestionModelVersion ?? 0,
          accepted_by: person(row.acceptorId, row.acceptorEmail, row.acceptorFirst, row.acceptorLast),
          accepted_at: row.event.suggestionAcceptedAt.toISOString(),
          in_bulk: row.event.suggestionInBulk ?? false,
        }
      : null,
  }));
  return { analysis_uuid: run.analysisUuid, version: run.eventsVersion, events };
}

function requireEvents(run: AnalysisRow) {
  if (run.status !== 'succeeded') throw badRequest('This run has not succeeded, so it has no events to review.');
}

/**
 * Applies Quick Score's changes all together or not at all. The caller names the version it changed; if someone
 * else saved since, nothing is applied and the answer is 409 with the current version. Every change also marks its
 * event reviewed by the caller. A call of `review` changes only (moving past events) records review marks whatever
 * the version and leaves the version as it is: marks never conflict, and two reviewers walking the same run would
 * otherwise refuse each other's every step. Only the events a call names are read, so a call costs the same on a run
 * of ten events or of a hundred thousand.
 */
export async function updateEvents(
  context: AppContext,
  video: VideoRow,
  userId: number,
  body: z.output<typeof updateEventsBody>,
) {
  const selected = await selectRun(context, video, body.analysis_uuid);
  requireEvents(selected);
  const duration = video.durationS ?? Number.POSITIVE_INFINITY;
  const halfFrame = 0.5 / (video.fps ?? 30);
  const reviewOnly = body.changes.every((change) => change.action === 'review');
  const touched = new Set<number>();
  const addedIds: number[] = [];
  let accepted = 0;
  let newlyReviewed = 0;
  const accepts = body.changes.some((change) => change.action.startsWith('accept_'))
    ? await acceptSources(context, selected)
    : null;
  const version = await context.db.transaction(async (tx) => {
    const [run] = await tx
      .select()
      .from(analyses)
      .where(eq(analyses.analysisUuid, selected.analysisUuid))
      .for('update');
    if (!run) throw notFound();
    if (!reviewOnly && run.eventsVersion !== body.version) {
      throw conflict(
        'These events were changed by someone else since you loaded them. Reload to see the current version.',
        { version: run.eventsVersion },
      );
    }
    const named = [...new Set(body.changes.flatMap((change) => ('id' in change ? [change.id] : [])))];
    const existing =
      named.length === 0
        ? []
        : await tx
            .select({ id: analysisEvents.id, time: analysisEvents.time })
            .from(analysisEvents)
            .where(and(eq(analysisEvents.analysisUuid, run.analysisUuid), inArray(analysisEvents.id, named)));
    /** Current times of the events this call has named, added or moved (deleted ones removed). */
    const times = new Map(existing.map((e) => [e.id, e.time]));
    const deleted = new Set<number>();
    let nextId = run.nextEventId;
    const now = new Date();
    // The first decision keeps its author and time (ADR 014); every look, a change included, is the last look.
    const reviewed = {
      reviewedById: sql`case when ${analysisEvents.reviewedAt} is null then ${userId}::int else ${analysisEvents.reviewedById} end`,
      reviewedAt: sql`coalesce(${analysisEvents.reviewedAt}, ${now.toISOString()}::timestamptz)`,
      lastViewedById: userId,
      lastViewedAt: now,
    };
    const stamp = { updatedById: userId, updatedAt: now, ...reviewed };
    const labels = new Set<string>();
    const problems: string[] = [];
    const checkTime = timeChecker(problems, duration);
    /** An event within half a frame of `time`: one this call knows, else one in the table (the time index). */
    const occupied = async (time: number) => {
      for (const t of times.values()) if (Math.abs(t - time) < halfFrame) return true;
      const near = await tx
        .select({ id: analysisEvents.id })
        .from(analysisEvents)
        .where(
          and(
            eq(analysisEvents.analysisUuid, run.analysisUuid),
            gt(analysisEvents.time, time - halfFrame),
            lt(analysisEvents.time, time + halfFrame),
          ),
        );
      // Events this call moved or deleted are no longer where the table says.
      return near.some((row) => !times.has(row.id) && !deleted.has(row.id));
    };
    const where = (id: number) => and(eq(analysisEvents.analysisUuid, run.analysisUuid), eq(analysisEvents.id, id));

    const apply = async (change: EventChange, index: number) => {
      if (change.action === 'accept_suggestion' || change.action === 'accept_suggestions') {
        const ids = await applyAccept(tx, run, accepts, change, index, userId, now, problems);
        for (const id of ids) touched.add(id);
        accepted += ids.length;
        return;
      }
      if (change.action !== 'add' && !times.has(change.id)) {
        // A mark on an event deleted meanwhile has nothing left to mark.
        if (change.action !== 'review') problems.push(noSuchEvent(index, change.id));
        return;
      }
      switch (change.action) {
        case 'add': {
          if (!checkTime(index, change.time)) return;
          if (await occupied(change.time)) {
            problems.push(eventAlreadyThere(index, change.time));
            return;
          }
          const id = nextId++;
          await tx.insert(analysisEvents).values({
            analysisUuid: run.analysisUuid,
            id,
            time: change.time,
            originalTime: null,
            label: change.label || null,
            flagged: change.flagged ?? false,
            updatedById: userId,
            updatedAt: now,
            reviewedById: userId,
            reviewedAt: now,
            lastViewedById: userId,
            lastViewedAt: now,
          });
          if (change.label) labels.add(change.label);
          times.set(id, change.time);
          touched.add(id);
          addedIds.push(id);
          return;
        }
        case 'move':
          if (!checkTime(index, change.time)) return;
          await tx
            .update(analysisEvents)
            .set({ time: change.time, ...stamp })
            .where(where(change.id));
          times.set(change.id, change.time);
          break;
        case 'discard':
        case 'restore':
          await tx
            .update(analysisEvents)
            .set({ discarded: change.action === 'discard', ...stamp })
            .where(where(change.id));
          break;
        case 'flag':
        case 'unflag':
          await tx
            .update(analysisEvents)
            .set({ flagged: change.action === 'flag', ...stamp })
            .where(where(change.id));
          break;
        case 'label':
          await tx
            .update(analysisEvents)
            .set({ label: change.label || null, ...stamp })
            .where(where(change.id));
          if (change.label) labels.add(change.label);
          break;
        case 'review':
          await tx.update(analysisEvents).set(reviewed).where(where(change.id));
          break;
        case 'delete':
          await tx.delete(analysisEvents).where(where(change.id));
          times.delete(change.id);
          deleted.add(change.id);
          touched.delete(change.id);
          return;
      }
      touched.add(change.id);
    };

    for (const [i, change] of body.changes.entries()) await apply(change, i + 1);
    if (problems.length > 0) throw badRequest({ changes: problems });
    // First decisions on detected events, made now by a person: what the run's scope counts towards a training.
    if (touched.size > 0) {
      const [fresh] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(analysisEvents)
        .where(
          and(
            eq(analysisEvents.analysisUuid, run.analysisUuid),
            inArray(analysisEvents.id, [...touched]),
            eq(analysisEvents.reviewedAt, now),
            sql`${analysisEvents.originalTime} is not null`,
          ),
        );
      newlyReviewed = fresh?.n ?? 0;
    }
    await rememberLabels(tx, run.projectUuid, [...labels], userId);
    if (reviewOnly) return run.eventsVersion;
    await tx
      .update(analyses)
      .set({ eventsVersion: run.eventsVersion + 1, nextEventId: nextId })
      .where(eq(analyses.analysisUuid, run.analysisUuid));
    return run.eventsVersion + 1;
  });
  const fresh = { ...selected, eventsVersion: version };
  await noteReviews(context, fresh, newlyReviewed);
  // Every event a call touches is decided, so a "changed" answer has no suggestion to show; a whole answer carries
  // those already computed, at the default bar (it never waits for a worker).
  const suggestions =
    body.answer === 'changed' ? null : await suggestionSource(context, fresh, undefined, { compute: false });
  const answer = await readEvents(context, fresh, body.answer === 'changed' ? [...touched] : undefined, suggestions);
  return { ...answer, added_ids: addedIds, accepted };
}

// ---- Resume position ----

/** The event the caller was on in this run (null before the first visit). */
export async function getReviewPosition(context: AppContext, video: VideoRow, userId: number, analysisUuid: string) {
  const run = await findRunOfVideo(context, video, analysisUuid);
  const [row] = await context.db
    .select()
    .from(reviewPositions)
    .where(and(eq(reviewPositions.userId, userId), eq(reviewPositions.analysisUuid, run.analysisUuid)));
  return {
    analysis_uuid: run.analysisUuid,
    event_id: row?.eventId ?? null,
    updated_at: row?.updatedAt.toISOString() ?? null,
  };
}

/**
 * Keeps where the caller is in this run. Any role may keep its own position — a viewer included: it is the
 * reader's place, not the run's data, and changes nothing anyone else sees.
 */
export async function setReviewPosition(
  context: AppContext,
  video: VideoRow,
  userId: number,
  analysisUuid: string,
  eventId: number,
) {
  const run = await findRunOfVideo(context, video, analysisUuid);
  requireEvents(run);
  const [event] = await context.db
    .select({ id: analysisEvents.id })
    .from(analysisEvents)
    .where(and(eq(analysisEvents.analysisUuid, run.analysisUuid), eq(analysisEvents.id, eventId)));
  if (!event) throw badRequest({ event_id: ['This run has no event with that id.'] });
  const now = new Date();
  await context.db
    .insert(reviewPositions)
    .values({ userId, analysisUuid: run.analysisUuid, eventId, updatedAt: now })
    .onConflictDoUpdate({
      target: [reviewPositions.userId, reviewPositions.analysisUuid],
      set: { eventId, updatedAt: sql`excluded.updated_at` },
    });
  return { analysis_uuid: run.analysisUuid, event_id: eventId, updated_at: now.toISOString() };
}
