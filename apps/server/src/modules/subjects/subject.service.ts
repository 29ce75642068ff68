import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import { subjects, videos } from '../../db/schema.js';
import { isUuid } from '../../lib/access.js';
import { fieldError } from '../../lib/errors.js';
import { type ListQuery, likePattern, parseOrdering, toPage } from '../../lib/pagination.js';
import { videoStoragePrefixes } from '../../lib/storage-keys.js';
import { deleteRowsAndFiles, scheduleFileDeletion } from '../files/file-deletion.js';
import type { SubjectRow } from './subject.lookup.js';
import { SUBJECT_ORDERING, type SubjectResponse } from './subject.schemas.js';

// Spelled out with table names: in a single-table select Drizzle leaves columns unqualified, which would turn
// the correlation into "subject_uuid = subject_uuid" inside the subquery.
const videoCount = sql<number>`(select count(*)::int from "videos" where "videos"."subject_uuid" = "subjects"."subject_uuid")`;

function toResponse(row: SubjectRow & { videoCount: number }): SubjectResponse {
  return {
    subject_uuid: row.subjectUuid,
    project_uuid: row.projectUuid,
    name: row.name,
    group: row.group,
    notes: row.notes,
    metadata: row.metadata as SubjectResponse['metadata'],
    video_count: Number(row.videoCount),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

const nameTaken = (name: string) => fieldError('name', `A subject named "${name}" already exists in this project.`);

export async function listSubjects(context: AppContext, projectUuid: string, query: ListQuery, url: string) {
  const { field, descending } = parseOrdering(query.ordering, SUBJECT_ORDERING, 'name');
  const column = {
    name: subjects.name,
    group: subjects.group,
    created_at: subjects.createdAt,
    updated_at: subjects.updatedAt,
    video_count: videoCount,
  }[field];
  const pattern = query.search ? likePattern(query.search) : undefined;
  const where = and(
    eq(subjects.projectUuid, projectUuid),
    pattern
      ? sql`(${subjects.name} ilike ${pattern} or ${subjects.group} ilike ${pattern} or ${subjects.notes} ilike ${pattern})`
      : undefined,
  );
  const [total] = await context.db.select({ value: count() }).from(subjects).where(where);
  const rows = await context.db
    .select({ subject: subjects, videoCount })
    .from(subjects)
    .where(where)
    .orderBy(descending ? desc(column) : asc(column), asc(subjects.subjectUuid))
    .limit(query.page_size)
    .offset((query.page - 1) * query.page_size);
  const results = rows.map((row) => toResponse({ ...row.subject, videoCount: row.videoCount }));
  return toPage(url, context.config.publicUrl, query, total?.value ?? 0, results);
}

export async function getSubject(context: AppContext, subjectUuid: string): Promise<SubjectResponse> {
  const [row] = await context.db
    .select({ subject: subjects, videoCount })
    .from(subjects)
    .where(eq(subjects.subjectUuid, subjectUuid))
    .limit(1);
  if (!row) throw new Error(`Subject ${subjectUuid} vanished after its lookup`);
  return toResponse({ ...row.subject, videoCount: row.videoCount });
}

export async function createSubject(
  context: AppContext,
  projectUuid: string,
  input: { name: string; group: string; notes: string; metadata: Record<string, unknown> },
): Promise<SubjectResponse> {
  try {
    const [row] = await context.db
      .insert(subjects)
      .values({ projectUuid, ...input })
      .returning();
    return toResponse({ ...row!, videoCount: 0 });
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(input.name);
    throw error;
  }
}

export async function updateSubject(
  context: AppContext,
  subject: SubjectRow,
  changes: { name?: string; group?: string; notes?: string; metadata?: Record<string, unknown> },
): Promise<SubjectResponse> {
  try {
    await context.db
      .update(subjects)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(subjects.subjectUuid, subject.subjectUuid));
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(changes.name ?? subject.name);
    throw error;
  }
  return getSubject(context, subject.subjectUuid);
}

/**
 * Within the deleting transaction: records the files of the subjects' videos for deletion. A subject has no storage
 * prefix of its own — files are keyed by video, and a video moved here from another subject keeps its keys.
 */
async function scheduleVideoFilesOf(tx: Database, subjectUuids: string[]) {
  const owned = await tx
    .select({
      projectUuid: videos.projectUuid,
      videoUuid: videos.videoUuid,
      legacyStoragePrefix: videos.legacyStoragePrefix,
    })
    .from(videos)
    .where(inArray(videos.subjectUuid, subjectUuids));
  await scheduleFileDeletion(tx, owned.flatMap(videoStoragePrefixes));
}

export async function deleteSubject(context: AppContext, subject: SubjectRow): Promise<void> {
  await deleteRowsAndFiles(context, [], async (tx) => {
    await scheduleVideoFilesOf(tx, [subject.subjectUuid]);
    await tx.delete(subjects).where(eq(subjects.subjectUuid, subject.subjectUuid));
  });
}

/** Deletes every listed subject of the project, or none: an unknown id fails the whole request. */
export async function bulkDeleteSubjects(
  context: AppContext,
  projectUuid: string,
  subjectUuids: string[],
): Promise<void> {
  const wanted = [...new Set(subjectUuids)];
  const malformed = wanted.filter((id) => !isUuid(id));
  const found = malformed.length
    ? []
    : await context.db
        .select({ subjectUuid: subjects.subjectUuid })
        .from(subjects)
        .where(and(eq(subjects.projectUuid, projectUuid), inArray(subjects.subjectUuid, wanted)));
  const known = new Set(found.map((row) => row.subjectUuid));
  const missing = wanted.filter((id) => !known.has(id));
  if (missing.length > 0) {
    throw fieldError(
      'subject_uuids',
      `Unknown subject(s) in this project: ${missing.join(', ')}. Nothing was deleted.`,
    );
  }
  await deleteRowsAndFiles(context, [], async (tx) => {
    await scheduleVideoFilesOf(tx, wanted);
    await tx.delete(subjects).where(and(eq(subjects.projectUuid, projectUuid), inArray(subjects.subjectUuid, wanted)));
  });
}
