/**
 * The trash (issue 19): deleting a subject, video, run or annotation track moves its rows — with everything the
 * deletion cascades to — into one `trash_items` row and leaves its files where they are; restoring puts the rows
 * back; the purge (a job, after TRASH_DAYS, or "empty trash") removes the item and its files through the same
 * complete-delete path as before. A deleted project stays in `projects` with `deleted_at`, invisible (404) until its
 * owner restores it. Every list, count, lookup, export, stream and job reads the live tables only, so a trashed
 * object is gone from all of them without a filter to forget.
 *
 * This file takes things to the trash; trash.restore.ts lists and restores them, trash.purge.ts removes them for good.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import { analyses, annotationConfigs, projects, subjects, trashItems, videos } from '../../db/schema.js';
import { isUuid, type ProjectRow } from '../../lib/access.js';
import { fieldError, notFound } from '../../lib/errors.js';
import { analysisStoragePrefixes, videoStoragePrefixes } from '../../lib/storage-keys.js';
import { findRunOfVideo } from '../analysis/analysis.read.js';
import { stopRuns } from '../analysis/analysis.service.js';
import type { SubjectRow } from '../subjects/subject.lookup.js';
import type { VideoRow } from '../videos/video.lookup.js';
import { deleteVideo } from '../videos/video.service.js';
import type { TrashKind } from './trash.schemas.js';
import { captureRows, contentsOf, idsUnder, type SnapshotIds } from './trash.snapshot.js';

/** `purge_at` of a deletion made now, on the database's clock (the purge compares with it). */
const purgeAtNow = (context: AppContext) => sql`now() + ${context.config.trashDays * 86_400} * interval '1 second'`;

interface Taken {
  kind: Exclude<TrashKind, 'project'>;
  itemUuid: string;
  projectUuid: string;
  name: string;
  subjectUuid: string | null;
  videoUuid: string | null;
  prefixes: string[];
  /** Inside the transaction: the ids of everything the deletion takes. */
  ids(tx: Database): Promise<SnapshotIds>;
  /** Inside the transaction, after the rows are kept: the delete (cascading to the rest). */
  remove(tx: Database): Promise<void>;
}

/** Moves each deletion's rows into the trash and deletes them, in one transaction; no file is touched. */
async function takeToTrash(context: AppContext, userId: number, taken: Taken[]): Promise<void> {
  if (taken.length === 0) return;
  // Runs of what goes stop first, so the trash keeps them revoked (as deleting did) and no job writes after.
  const before = await Promise.all(taken.map((item) => item.ids(context.db)));
  await stopRuns(
    context,
    before.flatMap((ids) => ids.analyses),
  );
  await context.db.transaction(async (raw) => {
    const tx = raw as unknown as Database;
    for (const item of taken) {
      const rows = await captureRows(tx, await item.ids(tx));
      await tx.insert(trashItems).values({
        itemUuid: item.itemUuid,
        projectUuid: item.projectUuid,
        kind: item.kind,
        name: item.name,
        subjectUuid: item.subjectUuid,
        videoUuid: item.videoUuid,
        deletedById: userId,
        purgeAt: purgeAtNow(context),
        contains: contentsOf(rows),
        rows,
        prefixes: item.prefixes,
      });
      await item.remove(tx);
    }
  });
}

/** Videos still being uploaded have nothing worth keeping: they are deleted for good, as before. */
async function dropUnfinishedUploads(context: AppContext, rows: VideoRow[]): Promise<VideoRow[]> {
  const kept: VideoRow[] = [];
  for (const row of rows) {
    if (row.status === 'uploading') await deleteVideo(context, row);
    else kept.push(row);
  }
  return kept;
}

function subjectTaken(subject: SubjectRow, prefixes: string[]): Taken {
  return {
    kind: 'subject',
    itemUuid: subject.subjectUuid,
    projectUuid: subject.projectUuid,
    name: subject.name,
    subjectUuid: subject.subjectUuid,
    videoUuid: null,
    prefixes,
    ids: (tx) => idsUnder(tx, { subjects: [subject.subjectUuid] }),
    remove: async (tx) => {
      await tx.delete(subjects).where(eq(subjects.subjectUuid, subject.subjectUuid));
    },
  };
}

async function trashSubjectRows(context: AppContext, userId: number, rows: SubjectRow[]): Promise<void> {
  const uuids = rows.map((row) => row.subjectUuid);
  const owned = await dropUnfinishedUploads(
    context,
    uuids.length ? await context.db.select().from(videos).where(inArray(videos.subjectUuid, uuids)) : [],
  );
  await takeToTrash(
    context,
    userId,
    rows.map((subject) =>
      subjectTaken(
        subject,
        owned.filter((video) => video.subjectUuid === subject.subjectUuid).flatMap(videoStoragePrefixes),
      ),
    ),
  );
}

/** `DELETE …/subjects/{s}/`: the subject goes to the trash with its videos, their runs, events and tracks. */
export async function trashSubject(context: AppContext, userId: number, subject: SubjectRow): Promise<void> {
  await trashSubjectRows(context, userId, [subject]);
}

/** `bulk-delete/`: every listed subject goes to the trash (one item each), or none: an unknown id fails them all. */
export async function trashSubjects(
  context: AppContext,
  userId: number,
  projectUuid: string,
  subjectUuids: string[],
): Promise<void> {
  const wanted = [...new Set(subjectUuids)];
  const found = wanted.every(isUuid)
    ? await context.db
        .select()
        .from(subjects)
        .where(and(eq(subjects.projectUuid, projectUuid), inArray(subjects.subjectUuid, wanted)))
    : [];
  const known = new Set(found.map((row) => row.subjectUuid));
  const missing = wanted.filter((id) => !known.has(id));
  if (missing.length > 0) {
    throw fieldError(
      'subject_uuids',
      `Unknown subject(s) in this project: ${missing.join(', ')}. Nothing was deleted.`,
    );
  }
  await trashSubjectRows(context, userId, found);
}

function videoTaken(video: VideoRow): Taken {
  return {
    kind: 'video',
    itemUuid: video.videoUuid,
    projectUuid: video.projectUuid,
    name: video.name,
    subjectUuid: video.subjectUuid,
    videoUuid: video.videoUuid,
    prefixes: videoStoragePrefixes(video),
    ids: (tx) => idsUnder(tx, { videos: [video.videoUuid] }),
    remove: async (tx) => {
      await tx.delete(videos).where(eq(videos.videoUuid, video.videoUuid));
    },
  };
}

/** `DELETE …/videos/{v}/`: the video goes to the trash with its runs, events and tracks. */
export async function trashVideo(context: AppContext, userId: number, video: VideoRow): Promise<void> {
  const kept = await dropUnfinishedUploads(context, [video]);
  await takeToTrash(context, userId, kept.map(videoTaken));
}

/** `batch_destroy/`: every listed video of the subject goes to the trash (one item each), or none. */
export async function trashVideos(
  context: AppContext,
  userId: number,
  subject: SubjectRow,
  videoUuids: string[],
): Promise<void> {
  const wanted = [...new Set(videoUuids)];
  const found = wanted.every(isUuid)
    ? await context.db
        .select()
        .from(videos)
        .where(and(eq(videos.subjectUuid, subject.subjectUuid), inArray(videos.videoUuid, wanted)))
    : [];
  const known = new Set(found.map((row) => row.videoUuid));
  const missing = wanted.filter((id) => !known.has(id));
  if (missing.length > 0) {
    throw fieldError('video_uuids', `Unknown video(s) in this subject: ${missing.join(', ')}. Nothing was deleted.`);
  }
  const kept = await dropUnfinishedUploads(context, found);
  await takeToTrash(context, userId, kept.map(videoTaken));
}

const RUN_KINDS: Record<(typeof analyses.$inferSelect)['kind'], string> = {
  movement_detection: 'Movement detection',
  event_detection: 'Event detection',
  timeseries_import: 'Imported series',
  location_tracking: 'Location tracking',
  pose_series: 'Pose-derived series',
};

/** `DELETE …/analysis/{a}/`: the run goes to the trash with its events and review positions (revoked if running). */
export async function trashAnalysis(
  context: AppContext,
  userId: number,
  video: VideoRow,
  analysisUuid: string,
): Promise<void> {
  const run = await findRunOfVideo(context, video, analysisUuid);
  const when = run.createdAt.toISOString().slice(0, 16).replace('T', ' ');
  await takeToTrash(context, userId, [
    {
      kind: 'analysis',
      itemUuid: run.analysisUuid,
      projectUuid: run.projectUuid,
      name: `${RUN_KINDS[run.kind]} · ${video.name} · ${when} UTC`,
      subjectUuid: run.subjectUuid,
      videoUuid: run.videoUuid,
      prefixes: analysisStoragePrefixes(run),
      ids: async () => ({ subjects: [], videos: [], analyses: [run.analysisUuid], tracks: [] }),
      remove: async (tx) => {
        await tx.delete(analyses).where(eq(analyses.analysisUuid, run.analysisUuid));
      },
    },
  ]);
}

/** `DELETE …/annotations/config/{uuid}/`: the track goes to the trash with its bouts. */
export async function trashTrack(context: AppContext, userId: number, video: VideoRow, uuid: string): Promise<void> {
  if (!isUuid(uuid)) throw notFound();
  const [track] = await context.db
    .select()
    .from(annotationConfigs)
    .where(and(eq(annotationConfigs.videoUuid, video.videoUuid), eq(annotationConfigs.annotationConfigUuid, uuid)))
    .limit(1);
  if (!track) throw notFound();
  await takeToTrash(context, userId, [
    {
      kind: 'annotation_track',
      itemUuid: track.annotationConfigUuid,
      projectUuid: track.projectUuid,
      name: track.name,
      subjectUuid: video.subjectUuid,
      videoUuid: video.videoUuid,
      prefixes: [],
      ids: async () => ({ subjects: [], videos: [], analyses: [], tracks: [track.annotationConfigUuid] }),
      remove: async (tx) => {
        await tx
          .delete(annotationConfigs)
          .where(eq(annotationConfigs.annotationConfigUuid, track.annotationConfigUuid));
      },
    },
  ]);
}

/**
 * `DELETE /projects/{p}/?confirm_name=…` (owner): the name must be typed. The project goes to the trash whole (its
 * running analyses are revoked); its subscription, if any, ends when it is purged.
 */
export async function trashProject(
  context: AppContext,
  userId: number,
  project: ProjectRow,
  confirmName: string | undefined,
): Promise<void> {
  const typed = confirmName?.trim() ?? '';
  if (!typed) throw fieldError('confirm_name', "Type the project's name to delete it.");
  if (typed !== project.name) {
    throw fieldError('confirm_name', `The name typed does not match the project's name "${project.name}".`);
  }
  const running = await context.db
    .select({ analysisUuid: analyses.analysisUuid })
    .from(analyses)
    .where(and(eq(analyses.projectUuid, project.projectUuid), inArray(analyses.status, ['queued', 'running'])));
  await stopRuns(
    context,
    running.map((row) => row.analysisUuid),
  );
  await context.db
    .update(projects)
    .set({ deletedAt: sql`now()`, deletedById: userId, purgeAt: purgeAtNow(context) })
    .where(eq(projects.projectUuid, project.projectUuid));
}
