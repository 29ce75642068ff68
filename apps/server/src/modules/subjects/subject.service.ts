import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { isUniqueViolation } from '../../db/errors.js';
import { arrayRows, isoTimestamp } from '../../db/prepared.js';
import { subjects } from '../../db/schema.js';
import { fieldError } from '../../lib/errors.js';
import { type ListQuery, likePattern, parseOrdering, toPage } from '../../lib/pagination.js';
import type { SubjectRow } from './subject.lookup.js';
import { SUBJECT_ORDERING, type SubjectResponse } from './subject.schemas.js';

function toResponse(row: SubjectRow): SubjectResponse {
  return {
    subject_uuid: row.subjectUuid,
    project_uuid: row.projectUuid,
    name: row.name,
    group: row.group,
    notes: row.notes,
    metadata: row.metadata as SubjectResponse['metadata'],
    video_count: row.videoCount,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

const nameTaken = (name: string) => fieldError('name', `A subject named "${name}" already exists in this project.`);

type SubjectOrder = (typeof SUBJECT_ORDERING)[number];

const orderColumns = {
  name: subjects.name,
  group: subjects.group,
  created_at: subjects.createdAt,
  updated_at: subjects.updatedAt,
  video_count: subjects.videoCount,
};

const orderColumnNames: Record<SubjectOrder, string> = {
  name: '"name"',
  group: '"group"',
  created_at: '"created_at"',
  updated_at: '"updated_at"',
  video_count: '"video_count"',
};

/**
 * A page of a project's subjects in one ordering, without a search: one statement, prepared once per connection and
 * ordering, read as array rows (`arrayRows`). The video count is the subject's maintained `video_count` (triggers on
 * `videos`, migration 0014), so the page is an index walk in the list's order and nothing else.
 */
const pageStatement = (field: SubjectOrder, descending: boolean) =>
  `select "subject_uuid", "project_uuid", "name", "group", "notes", "metadata", "video_count", "created_at", "updated_at"
   from "subjects" where "project_uuid" = $1
   order by ${orderColumnNames[field]} ${descending ? 'desc' : 'asc'}, "subject_uuid" asc limit $2 offset $3`;
const pageStatements = new Map<string, string>();

function fromPageRow(row: unknown[]): SubjectResponse {
  return {
    subject_uuid: row[0] as string,
    project_uuid: row[1] as string,
    name: row[2] as string,
    group: row[3] as string,
    notes: row[4] as string,
    metadata: row[5] as SubjectResponse['metadata'],
    video_count: row[6] as number,
    created_at: isoTimestamp(row[7] as string),
    updated_at: isoTimestamp(row[8] as string),
  };
}

/**
 * A page of the project's subjects. Without a search the count is the project's maintained `subject_count` (exact:
 * triggers keep it in step with every insert and delete), read with the project by the scope check, and the page is
 * one prepared statement walking an index in the list's order. A search counts its matches.
 */
export async function listSubjects(
  context: AppContext,
  project: { projectUuid: string; subjectCount: number },
  query: ListQuery,
  url: string,
) {
  const { field, descending } = parseOrdering(query.ordering, SUBJECT_ORDERING, 'name');
  const offset = (query.page - 1) * query.page_size;
  let total: number;
  let results: SubjectResponse[];
  if (!query.search) {
    total = project.subjectCount;
    const name = `subjects_page_${field}_${descending ? 'desc' : 'asc'}`;
    let text = pageStatements.get(name);
    if (!text) {
      text = pageStatement(field, descending);
      pageStatements.set(name, text);
    }
    results =
      offset >= total
        ? []
        : (await arrayRows(context.db, name, text, [project.projectUuid, query.page_size, offset])).map(fromPageRow);
  } else {
    const column = orderColumns[field];
    const pattern = likePattern(query.search);
    const where = and(
      eq(subjects.projectUuid, project.projectUuid),
      sql`(${subjects.name} ilike ${pattern} or ${subjects.group} ilike ${pattern} or ${subjects.notes} ilike ${pattern})`,
    );
    const [counted] = await context.db.select({ value: count() }).from(subjects).where(where);
    total = counted?.value ?? 0;
    const rows = await context.db
      .select()
      .from(subjects)
      .where(where)
      .orderBy(descending ? desc(column) : asc(column), asc(subjects.subjectUuid))
      .limit(query.page_size)
      .offset(offset);
    results = rows.map(toResponse);
  }
  return toPage(url, context.config.publicUrl, query, total, results);
}

export async function getSubject(context: AppContext, subjectUuid: string): Promise<SubjectResponse> {
  const [row] = await context.db.select().from(subjects).where(eq(subjects.subjectUuid, subjectUuid)).limit(1);
  if (!row) throw new Error(`Subject ${subjectUuid} vanished after its lookup`);
  return toResponse(row);
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
    return toResponse(row!);
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
