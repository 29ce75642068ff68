/**
 * A blind scorer's view of a run (ADR 014): the run's detected events as detected, with the scorer's own decisions
 * laid on top, and the events they added. Nothing of the consensus (the run's events as reviewed) or of anyone else's
 * scoring shows through: a detected event keeps its original time, no label, unflagged and kept until the scorer
 * decides otherwise.
 */
import { and, asc, eq, inArray, isNotNull } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { analysisEvents, analysisScorers, scorerEvents, users } from '../../db/schema.js';
import { displayName } from '../users/user.serializer.js';

export interface ScoredEvent {
  id: number;
  time: number;
  originalTime: number | null;
  label: string | null;
  flagged: boolean;
  discarded: boolean;
  /** The scorer's decision on it (null: as detected, not decided yet). */
  decidedAt: Date | null;
  updatedAt: Date | null;
}

/** The scorer's events by time (all, or only `ids`). */
export async function scoredEvents(
  db: Database,
  analysisUuid: string,
  userId: number,
  ids?: number[],
): Promise<ScoredEvent[]> {
  const only = (column: typeof analysisEvents.id | typeof scorerEvents.id) =>
    ids ? [inArray(column, ids.length > 0 ? ids : [-1])] : [];
  const [detected, mine] = await Promise.all([
    db
      .select({ id: analysisEvents.id, originalTime: analysisEvents.originalTime })
      .from(analysisEvents)
      .where(
        and(
          eq(analysisEvents.analysisUuid, analysisUuid),
          isNotNull(analysisEvents.originalTime),
          ...only(analysisEvents.id),
        ),
      ),
    db
      .select()
      .from(scorerEvents)
      .where(
        and(eq(scorerEvents.analysisUuid, analysisUuid), eq(scorerEvents.userId, userId), ...only(scorerEvents.id)),
      ),
  ]);
  const byId = new Map<number, ScoredEvent>();
  for (const row of detected) {
    const time = row.originalTime!;
    byId.set(row.id, {
      id: row.id,
      time,
      originalTime: time,
      label: null,
      flagged: false,
      discarded: false,
      decidedAt: null,
      updatedAt: null,
    });
  }
  for (const row of mine) {
    byId.set(row.id, {
      id: row.id,
      time: row.time,
      originalTime: row.originalTime,
      label: row.label,
      flagged: row.flagged,
      discarded: row.discarded,
      decidedAt: row.decidedAt,
      updatedAt: row.updatedAt,
    });
  }
  return [...byId.values()].sort((a, b) => a.time - b.time || a.id - b.id);
}

/** The run's blind scorers, with their names and how many events each has decided on. */
export async function scorersOf(db: Database, analysisUuid: string) {
  const rows = await db
    .select({
      userId: analysisScorers.userId,
      startedAt: analysisScorers.startedAt,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(analysisScorers)
    .innerJoin(users, eq(users.id, analysisScorers.userId))
    .where(eq(analysisScorers.analysisUuid, analysisUuid))
    .orderBy(asc(analysisScorers.startedAt), asc(analysisScorers.userId));
  return rows.map((row) => ({
    userId: row.userId,
    startedAt: row.startedAt,
    name: displayName({ email: row.email, firstName: row.firstName, lastName: row.lastName }),
  }));
}
