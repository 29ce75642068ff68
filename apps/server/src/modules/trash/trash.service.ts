/**
 * The trash (issue 19): deleting a subject, video, run or annotation track moves its rows — with everything the
 * deletion cascades to — into one `trash_items` row and leaves its files where they are; restoring puts the rows
 * back; the purge (a job, after TRASH_DAYS, or "empty trash") removes the item and its files through the same
 * complete-delete path as before. A deleted project stays in `projects` with `deleted_at`, invisible (404) until its
 * owner restores it. Every list, count, lookup, export, stream and job reads the live tables only, so a trashed
 * object is gone from all of them without a filter to forget.
 */
import { and, asc, count, desc, eq, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import { analyses, annotationConfigs, projects, subjects, trashItems, users, videos } from '../../db/schema.js';
import type { JobDefinition } from '../../jobs/job-queue.js';
import { isUuid, type ProjectRow } from '../../lib/access.js';
import { badRequest, conflict, fieldError, notFound } from '../../lib/errors.js';
import { toPage } from '../../lib/pagination.js';
import { analysisStoragePrefixes, ownersOfKey, videoStoragePrefixes } from '../../lib/storage-keys.js';
import { findRunOfVideo } from '../analysis/analysis.read.js';
import { stopRuns } from '../analysis/analysis.service.js';
import { deleteRowsAndFiles } from '../files/file-deletion.js';
import { deleteProject, getProject } from '../projects/project.service.js';
import type { SubjectRow } from '../subjects/subject.lookup.js';
import { displayName } from '../users/user.serializer.js';
import type { VideoRow } from '../videos/video.lookup.js';
import { deleteVideo } from '../videos/video.service.js';
import type { TrashItemResponse, TrashKind, trashListQuery } from './trash.schemas.js';
import {
  captureRows,
  contentsOf,
  idsUnder,
  restoreRows,
  type SnapshotIds,
  type SnapshotTable,
  selectRows,
} from './trash.snapshot.js';

type TrashRow = typeof trashItems.$inferSelect;

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

function toItem(row: TrashRow, by: { id: number; email: string; firstName: string; lastName: string } | null) {
  return {
    item_uuid: row.itemUuid,
    kind: row.kind,
    name: row.name,
    deleted_by: by ? { id: by.id, email: by.email, display_name: displayName(by) } : null,
    deleted_at: row.deletedAt.toISOString(),
    purge_at: row.purgeAt.toISOString(),
    subject_uuid: row.subjectUuid,
    video_uuid: row.videoUuid,
    contains: row.contains,
  } satisfies TrashItemResponse;
}

const itemColumns = {
  item: trashItems,
  by: { id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName },
};

/**
 * False when a stored file belongs to a project in the trash, or to a video or run that is not live (in the trash,
 * or gone): signed file URLs stop working when what they show is deleted.
 */
export async function storedFileIsLive(context: AppContext, key: string): Promise<boolean> {
  const owners = ownersOfKey(key);
  if (!owners) return true;
  const run = /\/analyses\/([0-9a-f-]{36})\//.exec(key)?.[1] ?? null;
  const [row] = await selectRows<{ live: boolean }>(
    context.db,
    sql`select exists (
          select 1 from projects p where p.project_uuid = ${owners.projectUuid} and p.deleted_at is null
          and (${owners.videoUuid}::uuid is null or exists (select 1 from videos v where v.video_uuid = ${owners.videoUuid}::uuid))
          and (${run}::uuid is null or exists (select 1 from analyses a where a.analysis_uuid = ${run}::uuid))
        ) as live`,
  );
  return row?.live === true;
}

/** `GET /projects/{p}/trash/`: newest deletion first. */
export async function listTrash(
  context: AppContext,
  project: ProjectRow,
  query: z.output<typeof trashListQuery>,
  url: string,
) {
  const where = and(
    eq(trashItems.projectUuid, project.projectUuid),
    query.kind ? eq(trashItems.kind, query.kind) : undefined,
  );
  const [total] = await context.db.select({ value: count() }).from(trashItems).where(where);
  const rows = await context.db
    .select(itemColumns)
    .from(trashItems)
    .leftJoin(users, eq(users.id, trashItems.deletedById))
    .where(where)
    .orderBy(desc(trashItems.deletedAt), asc(trashItems.itemUuid))
    .limit(query.page_size)
    .offset((query.page - 1) * query.page_size);
  const results = rows.map((row) => toItem(row.item, row.by));
  return toPage(url, context.config.publicUrl, { ...query }, total?.value ?? 0, results);
}

/** The item in the trash that holds this subject or video (itself, or a subject's item holding the video). */
async function trashedHolder(tx: Database, projectUuid: string, kind: 'subject' | 'video', uuid: string) {
  const column = kind === 'subject' ? 'subject_uuid' : 'video_uuid';
  const table = kind === 'subject' ? 'subjects' : 'videos';
  const [holder] = await tx
    .select({ kind: trashItems.kind, name: trashItems.name })
    .from(trashItems)
    .where(
      and(
        eq(trashItems.projectUuid, projectUuid),
        sql`(${trashItems.itemUuid} = ${uuid} or ${trashItems.rows} -> ${table} @> ${JSON.stringify([{ [column]: uuid }])}::jsonb)`,
      ),
    )
    .limit(1);
  return holder;
}

/** 409 unless the subject or video an item goes back under is live; says which item to restore first. */
async function assertParentLive(tx: Database, item: TrashRow, kind: 'subject' | 'video'): Promise<void> {
  const uuid = kind === 'subject' ? item.subjectUuid : item.videoUuid;
  if (!uuid) return;
  const table = kind === 'subject' ? subjects : videos;
  const column = kind === 'subject' ? subjects.subjectUuid : videos.videoUuid;
  const [live] = await tx
    .select({ uuid: column })
    .from(table)
    .where(and(eq(column, uuid), eq(table.projectUuid, item.projectUuid)))
    .limit(1);
  if (live) return;
  const holder = await trashedHolder(tx, item.projectUuid, kind, uuid);
  if (holder) {
    throw conflict(
      `Its ${kind} is in the trash: restore the ${holder.kind === 'annotation_track' ? 'track' : holder.kind} "${holder.name}" first.`,
    );
  }
  throw conflict(`Its ${kind} no longer exists, so it cannot be restored.`);
}

async function assertNameFree(tx: Database, item: TrashRow): Promise<void> {
  if (item.kind === 'subject') {
    const [taken] = await tx
      .select({ name: subjects.name })
      .from(subjects)
      .where(and(eq(subjects.projectUuid, item.projectUuid), sql`lower(${subjects.name}) = lower(${item.name})`))
      .limit(1);
    if (taken) {
      throw conflict(`A subject named "${taken.name}" already exists in this project: rename it, then restore.`);
    }
  }
  if (item.kind === 'annotation_track' && item.videoUuid) {
    const [track] = (item.rows.annotation_configs ?? []) as { name: string; hotkey: string | null }[];
    const [taken] = await tx
      .select({ name: annotationConfigs.name, hotkey: annotationConfigs.hotkey })
      .from(annotationConfigs)
      .where(
        and(
          eq(annotationConfigs.videoUuid, item.videoUuid),
          sql`(lower(${annotationConfigs.name}) = lower(${track?.name ?? item.name}) or ${annotationConfigs.hotkey} = ${track?.hotkey ?? null})`,
        ),
      )
      .limit(1);
    if (taken) {
      throw conflict(
        taken.name.toLowerCase() === (track?.name ?? item.name).toLowerCase()
          ? `The video already has a track named "${taken.name}": rename it, then restore.`
          : `The track "${taken.name}" now uses the hot key "${taken.hotkey}": change its key, then restore.`,
      );
    }
  }
}

/**
 * `POST /projects/{p}/trash/{item}/restore/`: the rows go back exactly as they were kept (a run under its video's
 * subject of now), the item leaves the trash; the files never moved.
 */
export async function restoreItem(
  context: AppContext,
  project: ProjectRow,
  itemUuid: string,
): Promise<TrashItemResponse> {
  if (!isUuid(itemUuid)) throw notFound();
  try {
    return await context.db.transaction(async (raw) => {
      const tx = raw as unknown as Database;
      const [found] = await tx
        .select(itemColumns)
        .from(trashItems)
        .leftJoin(users, eq(users.id, trashItems.deletedById))
        .where(and(eq(trashItems.itemUuid, itemUuid), eq(trashItems.projectUuid, project.projectUuid)))
        .for('update', { of: trashItems });
      if (!found) throw notFound();
      const item = found.item;
      const overrides: Partial<Record<SnapshotTable, Record<string, unknown>>> = {};
      if (item.kind === 'video') await assertParentLive(tx, item, 'subject');
      if (item.kind === 'analysis' || item.kind === 'annotation_track') {
        await assertParentLive(tx, item, 'video');
        const [video] = await tx
          .select({ subjectUuid: videos.subjectUuid })
          .from(videos)
          .where(eq(videos.videoUuid, item.videoUuid!));
        if (item.kind === 'analysis') overrides.analyses = { subject_uuid: video!.subjectUuid };
      }
      await assertNameFree(tx, item);
      await restoreRows(tx, item.itemUuid, overrides);
      await tx.delete(trashItems).where(eq(trashItems.itemUuid, item.itemUuid));
      return toItem(item, found.by);
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw conflict('Something with the same name or key exists where it goes back: rename it, then restore.');
    }
    throw error;
  }
}

/** `POST /projects/{p}/restore/` (owner): the project comes back as it was when deleted. */
export async function restoreProject(context: AppContext, userId: number, project: ProjectRow) {
  if (!project.deletedAt) throw badRequest('This project is not in the trash.');
  try {
    await context.db
      .update(projects)
      .set({ deletedAt: null, deletedById: null, purgeAt: null })
      .where(eq(projects.projectUuid, project.projectUuid));
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw conflict(`You already have a project named "${project.name}": rename that one, then restore.`);
    }
    throw error;
  }
  return getProject(context, userId, project.projectUuid);
}

/** Removes a trash item for good: its row, and its files through the complete-delete path. */
async function purgeItem(context: AppContext, item: Pick<TrashRow, 'itemUuid' | 'prefixes'>): Promise<void> {
  await deleteRowsAndFiles(context, item.prefixes, async (tx) => {
    await tx.delete(trashItems).where(eq(trashItems.itemUuid, item.itemUuid));
  });
}

/** `DELETE /projects/{p}/trash/` (owner or admin): everything in the project's trash is removed now. */
export async function emptyTrash(context: AppContext, project: ProjectRow): Promise<{ purged: number }> {
  const items = await context.db
    .select({ itemUuid: trashItems.itemUuid, prefixes: trashItems.prefixes })
    .from(trashItems)
    .where(eq(trashItems.projectUuid, project.projectUuid));
  for (const item of items) await purgeItem(context, item);
  return { purged: items.length };
}

/** Removes every item and project past its `purge_at`, with their files. */
export async function purgeDue(context: AppContext): Promise<{ items: number; projects: number }> {
  let items = 0;
  for (;;) {
    const due = await context.db
      .select({ itemUuid: trashItems.itemUuid, prefixes: trashItems.prefixes })
      .from(trashItems)
      .where(lte(trashItems.purgeAt, sql`now()`))
      .limit(100);
    for (const item of due) await purgeItem(context, item);
    items += due.length;
    if (due.length < 100) break;
  }
  const dueProjects = await context.db
    .select({ projectUuid: projects.projectUuid })
    .from(projects)
    .where(and(isNotNull(projects.deletedAt), lte(projects.purgeAt, sql`now()`)));
  for (const project of dueProjects) await deleteProject(context, project.projectUuid);
  if (items + dueProjects.length > 0) {
    context.logger.info({ items, projects: dueProjects.length }, 'trash purged');
  }
  return { items, projects: dueProjects.length };
}

export const trashPurgeJob: JobDefinition<Record<string, never>, AppContext> = {
  name: 'trash.purge',
  payload: z.object({}).strict() as z.ZodType<Record<string, never>>,
  retryLimit: 3,
  retryDelaySeconds: 60,
  expireInSeconds: 3600,
  async handle(context) {
    await purgeDue(context);
  },
};

/** How often each worker process queues the purge (one waits at a time, whatever the number of processes). */
export const TRASH_PURGE_INTERVAL_MS = 60 * 60 * 1000;

/** Queues the purge now and every hour, in a process that runs jobs. */
export function startTrashPurge(context: AppContext): { stop(): void } {
  const queue = () =>
    context.jobs
      .send(trashPurgeJob, {}, { singletonKey: 'trash-purge' })
      .catch((error: unknown) => context.logger.warn({ err: error }, 'queueing the trash purge failed'));
  void queue();
  const timer = setInterval(queue, TRASH_PURGE_INTERVAL_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
