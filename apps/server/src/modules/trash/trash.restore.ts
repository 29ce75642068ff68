/** The trash, read and undone: its list, restoring an item or a project, and whether a stored file is still live. */
import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import { annotationConfigs, projects, subjects, trashItems, users, videos } from '../../db/schema.js';
import { isUuid, type ProjectRow } from '../../lib/access.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { toPage } from '../../lib/pagination.js';
import { ownersOfKey } from '../../lib/storage-keys.js';
import type { FileViewer } from '../files/file-urls.js';
import { getProject } from '../projects/project.service.js';
import { displayName } from '../users/user.serializer.js';
import type { TrashItemResponse, trashListQuery } from './trash.schemas.js';
import { restoreRows, type SnapshotTable, selectRows } from './trash.snapshot.js';

type TrashRow = typeof trashItems.$inferSelect;

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
export async function restoreProject(context: AppContext, viewer: FileViewer, project: ProjectRow) {
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
  return getProject(context, viewer, project.projectUuid);
}
