/**
 * Blind second scoring (ADR 014). A run's events stay the consensus; a scorer who chooses to score blind gets a
 * scoring of their own (`analysis_scorers`), their decisions kept per event (`scorer_events`) until a consensus
 * resolution takes them over. Changes follow Quick Score's rules (ADR 008): all or nothing, versioned per scoring,
 * review-only calls need no version.
 */
import { and, count, eq, gt, isNotNull, lt, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import { analyses, analysisEvents, analysisScorers, scorerEvents, users } from '../../db/schema.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { eventAlreadyThere, noSuchEvent, timeChecker } from '../analysis/analysis.event-checks.js';
import type { EventChange, eventSchema, updateEventsBody } from '../analysis/analysis.events.schemas.js';
import { findRunOfVideo } from '../analysis/analysis.read.js';
import type { AnalysisRow } from '../analysis/analysis.runs.js';
import { rememberLabels } from '../labels/label.service.js';
import { displayName } from '../users/user.serializer.js';
import type { VideoRow } from '../videos/video.lookup.js';
import { type ScoredEvent, scoredEvents, scorersOf } from './scorer.view.js';

type Person = { id: number; display_name: string };

/** The run of the path, when it has events to score (it has succeeded). */
export async function succeededRun(context: AppContext, video: VideoRow, analysisUuid: string) {
  const run = await findRunOfVideo(context, video, analysisUuid);
  if (run.status !== 'succeeded') throw badRequest('This run has not succeeded, so it has no events to score.');
  return run;
}

async function person(db: Database, userId: number): Promise<Person> {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  return { id: userId, display_name: user ? displayName(user) : '' };
}

/** A scored event in the shape of the run's events (the scorer is the author of every decision in it). */
function asEvent(event: ScoredEvent, me: Person): z.infer<typeof eventSchema> {
  const decided = event.decidedAt !== null;
  return {
    id: event.id,
    time: event.time,
    original_time: event.originalTime,
    label: event.label,
    flagged: event.flagged,
    discarded: event.discarded,
    updated_by: decided ? me : null,
    updated_at: event.updatedAt?.toISOString() ?? null,
    reviewed_by: decided ? me : null,
    reviewed_at: event.decidedAt?.toISOString() ?? null,
    last_viewed_by: decided ? me : null,
    last_viewed_at: event.updatedAt?.toISOString() ?? null,
    resolved_by: null,
    resolved_at: null,
    // Suggestions learn from the consensus: a blind scorer never sees them (ADR 038).
    suggestion: null,
    accepted_suggestion: null,
  };
}

/** The run's blind scorers and the consensus's reviewers, for Quick Score's question "score blind, or the consensus?". */
export async function listScorers(context: AppContext, video: VideoRow, userId: number, analysisUuid: string) {
  const run = await findRunOfVideo(context, video, analysisUuid);
  const [scorers, decided, reviewers] = await Promise.all([
    scorersOf(context.db, run.analysisUuid),
    context.db
      .select({ userId: scorerEvents.userId, n: count() })
      .from(scorerEvents)
      .where(eq(scorerEvents.analysisUuid, run.analysisUuid))
      .groupBy(scorerEvents.userId),
    context.db
      .select({ user: users, n: count() })
      .from(analysisEvents)
      .innerJoin(users, eq(users.id, analysisEvents.reviewedById))
      .where(and(eq(analysisEvents.analysisUuid, run.analysisUuid), isNotNull(analysisEvents.reviewedById)))
      .groupBy(users.id)
      .orderBy(users.id),
  ]);
  const counts = new Map(decided.map((row) => [row.userId, row.n]));
  return {
    analysis_uuid: run.analysisUuid,
    scorers: scorers.map((s) => ({
      user: { id: s.userId, display_name: s.name },
      started_at: s.startedAt.toISOString(),
      decided: counts.get(s.userId) ?? 0,
    })),
    consensus_reviewers: reviewers.map((row) => ({
      user: { id: row.user.id, display_name: displayName(row.user) },
      decided: row.n,
    })),
    mine: scorers.some((s) => s.userId === userId),
  };
}

/** Starts the caller's blind scoring of the run (starting it again changes nothing). */
export async function startScoring(context: AppContext, video: VideoRow, userId: number, analysisUuid: string) {
  const run = await succeededRun(context, video, analysisUuid);
  await context.db.insert(analysisScorers).values({ analysisUuid: run.analysisUuid, userId }).onConflictDoNothing();
  return listScorers(context, video, userId, run.analysisUuid);
}

async function requireScorer(db: Database, run: AnalysisRow, userId: number, lock = false) {
  const query = db
    .select()
    .from(analysisScorers)
    .where(and(eq(analysisScorers.analysisUuid, run.analysisUuid), eq(analysisScorers.userId, userId)));
  const [scorer] = lock ? await query.for('update') : await query;
  if (!scorer) throw notFound('You are not scoring this run on your own: choose to score it blind first.');
  return scorer;
}

/** The caller's own scoring of the run, in the shape of `retrieve-events/`. */
export async function myScoring(context: AppContext, video: VideoRow, userId: number, analysisUuid: string) {
  const run = await succeededRun(context, video, analysisUuid);
  const scorer = await requireScorer(context.db, run, userId);
  const me = await person(context.db, userId);
  const events = await scoredEvents(context.db, run.analysisUuid, userId);
  return { analysis_uuid: run.analysisUuid, version: scorer.version, events: events.map((e) => asEvent(e, me)) };
}

/**
 * Applies changes to the caller's own scoring, as `update-events/` does to the consensus: all or none, 409 on a
 * stale version, review-only calls without one. A step past an event the scorer has not decided on is their decision
 * to keep it as detected. Added events take their ids from the run's counter, so an id names one event everywhere;
 * a detected event cannot be deleted from a scoring (it is discarded), only an event the scorer added.
 */
export async function updateMyScoring(
  context: AppContext,
  video: VideoRow,
  userId: number,
  analysisUuid: string,
  body: z.output<typeof updateEventsBody>,
) {
  const run = await succeededRun(context, video, analysisUuid);
  const duration = video.durationS ?? Number.POSITIVE_INFINITY;
  const halfFrame = 0.5 / (video.fps ?? 30);
  const reviewOnly = body.changes.every((change) => change.action === 'review');
  const touched = new Set<number>();
  const addedIds: number[] = [];
  const version = await context.db.transaction(async (tx) => {
    const scorer = await requireScorer(tx, run, userId, true);
    if (!reviewOnly && scorer.version !== body.version) {
      throw conflict(
        'Your scoring was changed in another tab since you loaded it. Reload to see the current version.',
        { version: scorer.version },
      );
    }
    const named = [...new Set(body.changes.flatMap((change) => ('id' in change ? [change.id] : [])))];
    const current = new Map(
      (named.length ? await scoredEvents(tx, run.analysisUuid, userId, named) : []).map((e) => [e.id, e]),
    );
    const deleted = new Set<number>();
    let nextId: number | null = null;
    const now = new Date();
    const labels = new Set<string>();
    const problems: string[] = [];
    const checkTime = timeChecker(problems, duration);
    /** An event of this scoring within half a frame of `time`. */
    const occupied = async (time: number) => {
      for (const e of current.values()) if (Math.abs(e.time - time) < halfFrame) return true;
      const near = await tx
        .select({ id: scorerEvents.id })
        .from(scorerEvents)
        .where(
          and(
            eq(scorerEvents.analysisUuid, run.analysisUuid),
            eq(scorerEvents.userId, userId),
            gt(scorerEvents.time, time - halfFrame),
            lt(scorerEvents.time, time + halfFrame),
          ),
        );
      const detected = await tx
        .select({ id: analysisEvents.id })
        .from(analysisEvents)
        .where(
          and(
            eq(analysisEvents.analysisUuid, run.analysisUuid),
            gt(analysisEvents.originalTime, time - halfFrame),
            lt(analysisEvents.originalTime, time + halfFrame),
            sql`not exists (select 1 from ${scorerEvents} s where s.analysis_uuid = ${analysisEvents.analysisUuid}
                and s.user_id = ${userId} and s.id = ${analysisEvents.id})`,
          ),
        );
      return [...near, ...detected].some((row) => !current.has(row.id) && !deleted.has(row.id));
    };
    const save = async (event: ScoredEvent) => {
      const values = {
        time: event.time,
        label: event.label,
        flagged: event.flagged,
        discarded: event.discarded,
        updatedAt: now,
      };
      await tx
        .insert(scorerEvents)
        .values({
          analysisUuid: run.analysisUuid,
          userId,
          id: event.id,
          originalTime: event.originalTime,
          decidedAt: now,
          ...values,
        })
        .onConflictDoUpdate({ target: [scorerEvents.analysisUuid, scorerEvents.userId, scorerEvents.id], set: values });
      current.set(event.id, { ...event, decidedAt: event.decidedAt ?? now, updatedAt: now });
      touched.add(event.id);
    };

    const apply = async (change: EventChange, index: number) => {
      if (change.action === 'accept_suggestion' || change.action === 'accept_suggestions') {
        problems.push(`Change ${index}: a blind scoring takes no suggestions (they are learned from the consensus).`);
        return;
      }
      if (change.action === 'add') {
        if (!checkTime(index, change.time)) return;
        if (await occupied(change.time)) {
          problems.push(eventAlreadyThere(index, change.time));
          return;
        }
        if (nextId === null) {
          const [locked] = await tx
            .select()
            .from(analyses)
            .where(eq(analyses.analysisUuid, run.analysisUuid))
            .for('update');
          nextId = locked!.nextEventId;
        }
        const id = nextId++;
        await save({
          id,
          time: change.time,
          originalTime: null,
          label: change.label || null,
          flagged: change.flagged ?? false,
          discarded: false,
          decidedAt: null,
          updatedAt: null,
        });
        if (change.label) labels.add(change.label);
        addedIds.push(id);
        return;
      }
      const event = current.get(change.id);
      if (!event) {
        if (change.action !== 'review') problems.push(noSuchEvent(index, change.id));
        return;
      }
      switch (change.action) {
        case 'move':
          if (checkTime(index, change.time)) await save({ ...event, time: change.time });
          return;
        case 'discard':
        case 'restore':
          return save({ ...event, discarded: change.action === 'discard' });
        case 'flag':
        case 'unflag':
          return save({ ...event, flagged: change.action === 'flag' });
        case 'label':
          if (change.label) labels.add(change.label);
          return save({ ...event, label: change.label || null });
        case 'review':
          // The first step past an event keeps it as it is: the scorer's decision. Later steps change nothing.
          if (event.decidedAt === null) await save(event);
          return;
        case 'delete':
          if (event.originalTime !== null) {
            problems.push(`Change ${index}: event ${change.id} was detected: discard it instead of deleting it.`);
            return;
          }
          await tx
            .delete(scorerEvents)
            .where(
              and(
                eq(scorerEvents.analysisUuid, run.analysisUuid),
                eq(scorerEvents.userId, userId),
                eq(scorerEvents.id, change.id),
              ),
            );
          current.delete(change.id);
          deleted.add(change.id);
          touched.delete(change.id);
          return;
      }
    };

    for (const [i, change] of body.changes.entries()) await apply(change, i + 1);
    if (problems.length > 0) throw badRequest({ changes: problems });
    await rememberLabels(tx, run.projectUuid, [...labels], userId);
    if (nextId !== null) {
      await tx.update(analyses).set({ nextEventId: nextId }).where(eq(analyses.analysisUuid, run.analysisUuid));
    }
    if (reviewOnly) return scorer.version;
    await tx
      .update(analysisScorers)
      .set({ version: scorer.version + 1 })
      .where(and(eq(analysisScorers.analysisUuid, run.analysisUuid), eq(analysisScorers.userId, userId)));
    return scorer.version + 1;
  });
  const me = await person(context.db, userId);
  const events = await scoredEvents(
    context.db,
    run.analysisUuid,
    userId,
    body.answer === 'changed' ? [...touched] : undefined,
  );
  return {
    analysis_uuid: run.analysisUuid,
    version,
    events: events.map((e) => asEvent(e, me)),
    added_ids: addedIds,
    accepted: 0,
  };
}
