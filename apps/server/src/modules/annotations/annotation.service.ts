/**
 * Annotation tracks of a video and their bouts. A track's ranges change only under its version: the caller names the
 * version it changed, and when someone saved since, nothing is written and the answer is 409 with the current
 * version and ranges, so the client can re-apply its change on top and lose nobody's work.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { isUniqueViolation } from '../../db/errors.js';
import { annotationConfigs, users } from '../../db/schema.js';
import { isUuid } from '../../lib/access.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { type TimeRange, timeRangeProblems } from '../../lib/time-ranges.js';
import { displayName } from '../users/user.serializer.js';
import type { VideoRow } from '../videos/video.lookup.js';
import { applyRangePatch, rangeFigures, videoEnd } from './annotation.ranges.js';
import type { ConfigChanges, RangesPatch } from './annotation.schemas.js';

export type AnnotationConfigRow = typeof annotationConfigs.$inferSelect;

/** Colours given to new tracks in turn (distinct on light and dark backgrounds). */
export const TRACK_PALETTE = ['#e11d48', '#2563eb', '#16a34a', '#d97706', '#9333ea', '#0891b2', '#db2777', '#65a30d'];

const configColumns = {
  config: annotationConfigs,
  creatorId: users.id,
  creatorEmail: users.email,
  creatorFirst: users.firstName,
  creatorLast: users.lastName,
};
type ConfigListRow = {
  config: AnnotationConfigRow;
  creatorId: number | null;
  creatorEmail: string | null;
  creatorFirst: string | null;
  creatorLast: string | null;
};

function serializeConfig(row: ConfigListRow) {
  const { config } = row;
  return {
    annotation_config_uuid: config.annotationConfigUuid,
    name: config.name,
    color: config.color,
    hotkey: config.hotkey,
    order: config.order,
    range_count: config.rangeCount,
    total_duration_s: config.totalDurationS,
    version: config.version,
    created_by:
      row.creatorId === null
        ? null
        : {
            id: row.creatorId,
            display_name: displayName({
              email: row.creatorEmail ?? '',
              firstName: row.creatorFirst ?? '',
              lastName: row.creatorLast ?? '',
            }),
          },
    created_at: config.createdAt.toISOString(),
  };
}
export type ConfigResponse = ReturnType<typeof serializeConfig>;

function selectConfigs(context: AppContext) {
  return context.db
    .select(configColumns)
    .from(annotationConfigs)
    .leftJoin(users, eq(users.id, annotationConfigs.createdById));
}

/** The video's tracks in their order (then by creation). */
export async function listConfigs(context: AppContext, video: VideoRow): Promise<ConfigResponse[]> {
  const rows = await selectConfigs(context)
    .where(eq(annotationConfigs.videoUuid, video.videoUuid))
    .orderBy(asc(annotationConfigs.order), asc(annotationConfigs.createdAt), asc(annotationConfigs.name));
  return rows.map(serializeConfig);
}

export async function getConfig(context: AppContext, video: VideoRow, uuid: string): Promise<ConfigResponse> {
  const [row] = await selectConfigs(context)
    .where(and(eq(annotationConfigs.videoUuid, video.videoUuid), eq(annotationConfigs.annotationConfigUuid, uuid)))
    .limit(1);
  if (!row) throw notFound();
  return serializeConfig(row);
}

/** The track of this video, or 404 (also for a track of another video). */
async function trackOrThrow(context: AppContext, video: VideoRow, uuid: string): Promise<AnnotationConfigRow> {
  if (!isUuid(uuid)) throw notFound();
  const [row] = await context.db
    .select()
    .from(annotationConfigs)
    .where(and(eq(annotationConfigs.videoUuid, video.videoUuid), eq(annotationConfigs.annotationConfigUuid, uuid)))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

/** Name and hot key are unique per video; says which other track holds them. */
async function checkUnique(
  context: AppContext,
  video: VideoRow,
  fields: { name?: string; hotkey?: string | null },
  except?: string,
) {
  const others = (
    await context.db
      .select({
        uuid: annotationConfigs.annotationConfigUuid,
        name: annotationConfigs.name,
        hotkey: annotationConfigs.hotkey,
      })
      .from(annotationConfigs)
      .where(eq(annotationConfigs.videoUuid, video.videoUuid))
  ).filter((row) => row.uuid !== except);
  const errors: Record<string, string[]> = {};
  if (fields.name !== undefined) {
    const lower = fields.name.toLowerCase();
    if (others.some((row) => row.name.toLowerCase() === lower)) {
      errors.name = [`This video already has a track named "${fields.name}".`];
    }
  }
  if (fields.hotkey) {
    const holder = others.find((row) => row.hotkey === fields.hotkey);
    if (holder) errors.hotkey = [`The key "${fields.hotkey}" is already used by the track "${holder.name}".`];
  }
  if (Object.keys(errors).length > 0) throw badRequest(errors);
}

/** A unique index caught what the check above could not see (two requests at once): the same message. */
async function uniqueOrThrow<T>(
  context: AppContext,
  video: VideoRow,
  fields: { name?: string; hotkey?: string | null },
  write: () => Promise<T>,
  except?: string,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    await checkUnique(context, video, fields, except);
    throw error;
  }
}

/** A new track, last unless `order` says otherwise; `ranges` (checked by the caller against the video) its first bouts. */
export async function createConfig(
  context: AppContext,
  video: VideoRow,
  userId: number,
  body: { name: string; color?: string; hotkey?: string | null; order?: number },
  ranges: TimeRange[] = [],
): Promise<ConfigResponse> {
  await checkUnique(context, video, body);
  const [stats] = await context.db
    .select({ count: sql<number>`count(*)::int`, maxOrder: sql<number | null>`max(${annotationConfigs.order})` })
    .from(annotationConfigs)
    .where(eq(annotationConfigs.videoUuid, video.videoUuid));
  const count = Number(stats?.count ?? 0);
  const [row] = await uniqueOrThrow(context, video, body, () =>
    context.db
      .insert(annotationConfigs)
      .values({
        projectUuid: video.projectUuid,
        videoUuid: video.videoUuid,
        name: body.name,
        color: body.color ?? TRACK_PALETTE[count % TRACK_PALETTE.length]!,
        hotkey: body.hotkey ?? null,
        order: body.order ?? (stats?.maxOrder === null || stats?.maxOrder === undefined ? 0 : stats.maxOrder + 1),
        createdById: userId,
        ranges,
        rangeCount: ranges.length,
        totalDurationS: rangeFigures(ranges).totalDurationS,
      })
      .returning(),
  );
  return getConfig(context, video, row!.annotationConfigUuid);
}

/** Rename, recolour, change the hot key or the order (PATCH: the given fields; PUT: all of them). */
export async function updateConfig(
  context: AppContext,
  video: VideoRow,
  uuid: string,
  changes: ConfigChanges,
): Promise<ConfigResponse> {
  const track = await trackOrThrow(context, video, uuid);
  await checkUnique(context, video, changes, track.annotationConfigUuid);
  const set: Partial<typeof annotationConfigs.$inferInsert> = { updatedAt: new Date() };
  if (changes.name !== undefined) set.name = changes.name;
  if (changes.color !== undefined) set.color = changes.color;
  if (changes.hotkey !== undefined) set.hotkey = changes.hotkey;
  if (changes.order !== undefined) set.order = changes.order;
  await uniqueOrThrow(
    context,
    video,
    changes,
    () =>
      context.db
        .update(annotationConfigs)
        .set(set)
        .where(eq(annotationConfigs.annotationConfigUuid, track.annotationConfigUuid)),
    track.annotationConfigUuid,
  );
  return getConfig(context, video, uuid);
}

const rangesOf = (track: AnnotationConfigRow) => ({
  annotation_config_uuid: track.annotationConfigUuid,
  ranges: track.ranges,
  version: track.version,
});
export type RangesResponse = ReturnType<typeof rangesOf>;

export async function getRanges(context: AppContext, video: VideoRow, uuid: string): Promise<RangesResponse> {
  return rangesOf(await trackOrThrow(context, video, uuid));
}

function staleVersion(track: AnnotationConfigRow) {
  return conflict(
    `The track "${track.name}" was changed by someone else since you loaded it (it is now at version ${track.version}). Apply your change to the current ranges and save again.`,
    { version: track.version, ranges: track.ranges },
  );
}

/**
 * Writes `ranges` if the track is still at `version` (one conditional UPDATE, so two writers cannot both win);
 * otherwise 409 with what is there now.
 */
async function writeRanges(context: AppContext, track: AnnotationConfigRow, version: number, ranges: TimeRange[]) {
  if (track.version !== version) throw staleVersion(track);
  const figures = rangeFigures(ranges);
  const [row] = await context.db
    .update(annotationConfigs)
    .set({
      ranges,
      version: sql`${annotationConfigs.version} + 1`,
      rangeCount: figures.rangeCount,
      totalDurationS: figures.totalDurationS,
      updatedAt: new Date(),
    })
    .where(
      and(
        eq(annotationConfigs.annotationConfigUuid, track.annotationConfigUuid),
        eq(annotationConfigs.version, version),
      ),
    )
    .returning();
  if (row) return rangesOf(row);
  const [now] = await context.db
    .select()
    .from(annotationConfigs)
    .where(eq(annotationConfigs.annotationConfigUuid, track.annotationConfigUuid));
  if (!now) throw notFound();
  throw staleVersion(now);
}

/** Checks a whole list against the video's length (the list's own order was checked by its schema). */
function checkWithinVideo(video: VideoRow, ranges: readonly TimeRange[], field: string) {
  const problems = timeRangeProblems(ranges, videoEnd(video));
  if (problems.length > 0) throw badRequest({ [field]: problems });
}

/** PUT: the track's ranges become `ranges`. */
export async function replaceRanges(
  context: AppContext,
  video: VideoRow,
  uuid: string,
  body: { ranges: TimeRange[]; version: number },
): Promise<RangesResponse> {
  const track = await trackOrThrow(context, video, uuid);
  checkWithinVideo(video, body.ranges, 'ranges');
  return writeRanges(context, track, body.version, body.ranges);
}

/** PATCH: remove some ranges and add others, all or nothing. A stale version is checked before the ranges. */
export async function patchRanges(
  context: AppContext,
  video: VideoRow,
  uuid: string,
  body: RangesPatch,
): Promise<RangesResponse> {
  const track = await trackOrThrow(context, video, uuid);
  if (track.version !== body.version) throw staleVersion(track);
  const result = applyRangePatch(track.ranges, body, videoEnd(video));
  if (!result.ok) throw badRequest(result.errors);
  return writeRanges(context, track, body.version, result.ranges);
}

/** Replaces a track's ranges with an imported list (already read and checked by the caller). */
export async function importRanges(
  context: AppContext,
  video: VideoRow,
  uuid: string,
  ranges: TimeRange[],
  version: number | undefined,
  field: string,
): Promise<RangesResponse> {
  const track = await trackOrThrow(context, video, uuid);
  checkWithinVideo(video, ranges, field);
  return writeRanges(context, track, version ?? track.version, ranges);
}

/**
 * Writes what `next` makes of the track's current ranges, if the track is still at `version` (409 with what is there
 * otherwise); the result is checked against the video's length like any list. A track of another video is 404.
 */
export async function rewriteRanges(
  context: AppContext,
  video: VideoRow,
  uuid: string,
  version: number,
  next: (current: TimeRange[]) => TimeRange[],
): Promise<RangesResponse> {
  const track = await trackOrThrow(context, video, uuid);
  if (track.version !== version) throw staleVersion(track);
  const ranges = next(track.ranges);
  checkWithinVideo(video, ranges, 'ranges');
  return writeRanges(context, track, version, ranges);
}

export async function trackForExport(context: AppContext, video: VideoRow, uuid: string) {
  return trackOrThrow(context, video, uuid);
}
