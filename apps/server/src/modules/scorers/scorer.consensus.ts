/**
 * The consensus's side of blind scoring (ADR 014): settling a difference by taking a scorer's decision, and what the
 * decisions' agreement of two scorings of a run reads.
 */
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import { analyses, analysisEvents, analysisScorers, users } from '../../db/schema.js';
import { fieldError } from '../../lib/errors.js';
import { readEvents } from '../analysis/analysis.events.js';
import { rememberLabels } from '../labels/label.service.js';
import { displayName } from '../users/user.serializer.js';
import type { VideoRow } from '../videos/video.lookup.js';
import type { resolveBody } from './scorer.schemas.js';
import { succeededRun } from './scorer.service.js';
import { type ScoredEvent, scoredEvents } from './scorer.view.js';

/**
 * Settles a difference in the consensus: the run's event takes the named scorer's scoring of it (an event only they
 * added is added; an event missing from their scoring is discarded), or, with no scorer, stays as it is. Either way
 * the event records who settled it and when (`resolved_by`/`resolved_at`), and the change is a decision like any
 * other (the events' version is bumped).
 */
export async function resolveDifference(
  context: AppContext,
  video: VideoRow,
  userId: number,
  analysisUuid: string,
  body: z.output<typeof resolveBody>,
) {
  const run = await succeededRun(context, video, analysisUuid);
  await context.db.transaction(async (tx) => {
    await tx.select().from(analyses).where(eq(analyses.analysisUuid, run.analysisUuid)).for('update');
    const [consensus] = await tx
      .select()
      .from(analysisEvents)
      .where(and(eq(analysisEvents.analysisUuid, run.analysisUuid), eq(analysisEvents.id, body.event_id)));
    const now = new Date();
    const stamp = {
      updatedById: userId,
      updatedAt: now,
      lastViewedById: userId,
      lastViewedAt: now,
      resolvedById: userId,
      resolvedAt: now,
    };
    let scored: ScoredEvent | undefined;
    if (body.scorer_id !== null) {
      const [scorer] = await tx
        .select()
        .from(analysisScorers)
        .where(and(eq(analysisScorers.analysisUuid, run.analysisUuid), eq(analysisScorers.userId, body.scorer_id)));
      if (!scorer) throw fieldError('scorer_id', 'That user is not scoring this run on their own.');
      [scored] = await scoredEvents(tx, run.analysisUuid, body.scorer_id, [body.event_id]);
    }
    if (!consensus && !scored)
      throw fieldError('event_id', 'Neither the run nor that scoring has an event with that id.');
    const taken = scored
      ? { time: scored.time, label: scored.label, flagged: scored.flagged, discarded: scored.discarded }
      : body.scorer_id !== null
        ? { discarded: true }
        : {};
    if (scored?.label) await rememberLabels(tx, run.projectUuid, [scored.label], userId);
    if (consensus) {
      await tx
        .update(analysisEvents)
        .set({
          ...taken,
          ...stamp,
          reviewedById: consensus.reviewedAt ? consensus.reviewedById : userId,
          reviewedAt: consensus.reviewedAt ?? now,
        })
        .where(and(eq(analysisEvents.analysisUuid, run.analysisUuid), eq(analysisEvents.id, body.event_id)));
    } else {
      await tx.insert(analysisEvents).values({
        analysisUuid: run.analysisUuid,
        id: body.event_id,
        time: scored!.time,
        originalTime: scored!.originalTime,
        label: scored!.label,
        flagged: scored!.flagged,
        discarded: scored!.discarded,
        reviewedById: userId,
        reviewedAt: now,
        ...stamp,
      });
    }
    await tx
      .update(analyses)
      .set({ eventsVersion: sql`${analyses.eventsVersion} + 1` })
      .where(eq(analyses.analysisUuid, run.analysisUuid));
  });
  const [fresh] = await context.db.select().from(analyses).where(eq(analyses.analysisUuid, run.analysisUuid));
  return readEvents(context, fresh!, [body.event_id]);
}

/** Kept / discarded, and the detected time, of each detected event, for the decisions' agreement of two scorings. */
export async function keptByEvent(db: Database, analysisUuid: string, scorer: number | 'consensus') {
  if (scorer === 'consensus') {
    const rows = await db
      .select({ id: analysisEvents.id, time: analysisEvents.originalTime, discarded: analysisEvents.discarded })
      .from(analysisEvents)
      .where(and(eq(analysisEvents.analysisUuid, analysisUuid), isNotNull(analysisEvents.originalTime)));
    return new Map(rows.map((row) => [row.id, { kept: !row.discarded, time: row.time! }]));
  }
  const events = await scoredEvents(db, analysisUuid, scorer);
  return new Map(
    events.filter((e) => e.originalTime !== null).map((e) => [e.id, { kept: !e.discarded, time: e.originalTime! }]),
  );
}

/** Who settled each of these events of the consensus (display names), for the consensus view. */
export async function resolvers(db: Database, analysisUuid: string, ids: number[]) {
  if (ids.length === 0) return new Map<number, string>();
  const rows = await db
    .select({ id: analysisEvents.id, user: users })
    .from(analysisEvents)
    .innerJoin(users, eq(users.id, analysisEvents.resolvedById))
    .where(and(eq(analysisEvents.analysisUuid, analysisUuid), inArray(analysisEvents.id, ids)));
  return new Map(rows.map((row) => [row.id, displayName(row.user)]));
}
