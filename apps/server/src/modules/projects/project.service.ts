import { and, asc, count, desc, eq, ilike, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import { preparedOnce } from '../../db/prepared.js';
import {
  memberships,
  type ProjectMetadata,
  type projectPlans,
  projects,
  type Role,
  subscriptions,
  users,
} from '../../db/schema.js';
import type { ProjectRow } from '../../lib/access.js';
import { fieldError } from '../../lib/errors.js';
import { type ListQuery, likePattern, parseOrdering, toPage } from '../../lib/pagination.js';
import { projectLogoKey, projectStoragePrefix } from '../../lib/storage-keys.js';
import { cancelSubscriptionOf, initialProjectStatus } from '../billing/billing.service.js';
import { deleteRowsAndFiles } from '../files/file-deletion.js';
import { fileUrl } from '../files/file-urls.js';
import { displayName } from '../users/user.serializer.js';
import { PROJECT_ORDERING, type ProjectListQuery, type ProjectResponse } from './project.schemas.js';

// The subject, video and analysis counts are maintained on the project row by triggers (migrations 0013, 0014); the
// storage figure is a correlated subquery (an index lookup; a page has at most 500 rows). Table names are spelled
// out so the correlation never depends on how Drizzle qualifies the outer columns.
const subjectCount = projects.subjectCount;
const videoCount = projects.videoCount;
const analysisCount = projects.analysisCount;
const storageBytes = sql<number>`(select coalesce(sum("videos"."size_bytes" + "videos"."derived_bytes"), 0)::float8 from "videos" where "videos"."project_uuid" = "projects"."project_uuid")`;

const projectColumns = {
  project: projects,
  role: memberships.role,
  ownerId: users.id,
  ownerEmail: users.email,
  ownerFirstName: users.firstName,
  ownerLastName: users.lastName,
  subjectCount,
  videoCount,
  analysisCount,
  storageBytes,
  subscription: subscriptions,
};

type ProjectQueryRow = {
  project: ProjectRow;
  role: Role;
  ownerId: number;
  ownerEmail: string;
  ownerFirstName: string;
  ownerLastName: string;
  subjectCount: number;
  videoCount: number;
  analysisCount: number;
  storageBytes: number;
  subscription: typeof subscriptions.$inferSelect | null;
};

async function toResponse(context: AppContext, row: ProjectQueryRow): Promise<ProjectResponse> {
  const { project } = row;
  return {
    project_uuid: project.projectUuid,
    name: project.name,
    metadata: {
      description: project.metadata.description ?? '',
      institution: project.metadata.institution ?? '',
      principal_investigator: project.metadata.principal_investigator ?? '',
    },
    logo_url: await fileUrl(context, project.logoKey),
    status: project.status,
    plan: project.plan,
    subscription: row.subscription
      ? {
          status: row.subscription.status,
          current_period_end: row.subscription.currentPeriodEnd?.toISOString() ?? null,
          cancel_at_period_end: row.subscription.cancelAtPeriodEnd,
        }
      : null,
    role: row.role,
    owner: {
      id: row.ownerId,
      email: row.ownerEmail,
      display_name: displayName({ firstName: row.ownerFirstName, lastName: row.ownerLastName, email: row.ownerEmail }),
    },
    counts: {
      subjects: Number(row.subjectCount),
      videos: Number(row.videoCount),
      analyses: Number(row.analysisCount),
    },
    storage_bytes: Number(row.storageBytes),
    trash:
      project.deletedAt && project.purgeAt
        ? { deleted_at: project.deletedAt.toISOString(), purge_at: project.purgeAt.toISOString() }
        : null,
    created_at: project.createdAt.toISOString(),
    updated_at: project.updatedAt.toISOString(),
  };
}

function selectProjects(context: AppContext, userId: number) {
  return context.db
    .select(projectColumns)
    .from(projects)
    .innerJoin(memberships, and(eq(memberships.projectUuid, projects.projectUuid), eq(memberships.userId, userId)))
    .innerJoin(users, eq(users.id, projects.ownerId))
    .leftJoin(subscriptions, eq(subscriptions.projectUuid, projects.projectUuid));
}

/** The caller's projects in one ordering, with the total (a window count) in the same statement: prepared once. */
function projectPage(db: Database, field: (typeof PROJECT_ORDERING)[number], descending: boolean) {
  const column = { name: projects.name, created_at: projects.createdAt, updated_at: projects.updatedAt }[field];
  return db
    .select({ ...projectColumns, total: sql<number>`count(*) over ()` })
    .from(projects)
    .innerJoin(
      memberships,
      and(eq(memberships.projectUuid, projects.projectUuid), eq(memberships.userId, sql.placeholder('userId'))),
    )
    .innerJoin(users, eq(users.id, projects.ownerId))
    .leftJoin(subscriptions, eq(subscriptions.projectUuid, projects.projectUuid))
    .where(isNull(projects.deletedAt))
    .orderBy(descending ? desc(column) : asc(column), asc(projects.projectUuid))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare(`projects_page_${field}_${descending ? 'desc' : 'asc'}`);
}

function countProjects(context: AppContext, userId: number, where: SQL | undefined) {
  return context.db
    .select({ value: count() })
    .from(projects)
    .innerJoin(memberships, and(eq(memberships.projectUuid, projects.projectUuid), eq(memberships.userId, userId)))
    .where(and(isNull(projects.deletedAt), where));
}

export async function listProjects(context: AppContext, userId: number, query: ProjectListQuery, url: string) {
  if (query.deleted === 'true') return listDeletedProjects(context, userId, query, url);
  const { field, descending } = parseOrdering(query.ordering, PROJECT_ORDERING, 'name');
  const offset = (query.page - 1) * query.page_size;
  let rows: ProjectQueryRow[];
  let total: number;
  if (!query.search) {
    const page = await preparedOnce(context.db, `projects ${field} ${descending}`, (db) =>
      projectPage(db, field, descending),
    ).execute({ userId, limit: query.page_size, offset });
    rows = page;
    // Past the last page the window has no row to carry the total: count then.
    total = page[0] ? Number(page[0].total) : ((await countProjects(context, userId, undefined))[0]?.value ?? 0);
  } else {
    const column = { name: projects.name, created_at: projects.createdAt, updated_at: projects.updatedAt }[field];
    const where = ilike(projects.name, likePattern(query.search));
    total = (await countProjects(context, userId, where))[0]?.value ?? 0;
    rows = await selectProjects(context, userId)
      .where(and(isNull(projects.deletedAt), where))
      .orderBy(descending ? desc(column) : asc(column), asc(projects.projectUuid))
      .limit(query.page_size)
      .offset(offset);
  }
  const results = await Promise.all(rows.map((row) => toResponse(context, row)));
  return toPage(url, context.config.publicUrl, query, total, results);
}

/** `?deleted=true`: the projects the caller owns that are in the trash, most recently deleted first. */
async function listDeletedProjects(context: AppContext, userId: number, query: ListQuery, url: string) {
  const where = and(
    isNotNull(projects.deletedAt),
    eq(projects.ownerId, userId),
    query.search ? ilike(projects.name, likePattern(query.search)) : undefined,
  );
  const [total] = await countDeleted(context, userId, where);
  const rows = await selectProjects(context, userId)
    .where(where)
    .orderBy(desc(projects.deletedAt), asc(projects.projectUuid))
    .limit(query.page_size)
    .offset((query.page - 1) * query.page_size);
  const results = await Promise.all(rows.map((row) => toResponse(context, row)));
  return toPage(url, context.config.publicUrl, query, total?.value ?? 0, results);
}

function countDeleted(context: AppContext, userId: number, where: SQL | undefined) {
  return context.db
    .select({ value: count() })
    .from(projects)
    .innerJoin(memberships, and(eq(memberships.projectUuid, projects.projectUuid), eq(memberships.userId, userId)))
    .where(where);
}

function projectDetail(db: Database) {
  return db
    .select(projectColumns)
    .from(projects)
    .innerJoin(
      memberships,
      and(eq(memberships.projectUuid, projects.projectUuid), eq(memberships.userId, sql.placeholder('userId'))),
    )
    .innerJoin(users, eq(users.id, projects.ownerId))
    .leftJoin(subscriptions, eq(subscriptions.projectUuid, projects.projectUuid))
    .where(eq(projects.projectUuid, sql.placeholder('projectUuid')))
    .limit(1)
    .prepare('project_detail');
}

export async function getProject(context: AppContext, userId: number, projectUuid: string): Promise<ProjectResponse> {
  const [row] = await preparedOnce(context.db, 'project detail', projectDetail).execute({ userId, projectUuid });
  if (!row) throw new Error(`Project ${projectUuid} vanished after its access check`);
  return toResponse(context, row);
}

const nameTaken = (name: string) => fieldError('name', `You already have a project named "${name}".`);

export async function createProject(
  context: AppContext,
  userId: number,
  input: { name: string; metadata: ProjectMetadata; plan?: (typeof projectPlans)[number] },
): Promise<ProjectResponse> {
  try {
    const projectUuid = await context.db.transaction(async (tx) => {
      const [project] = await tx
        .insert(projects)
        .values({
          name: input.name,
          ownerId: userId,
          metadata: input.metadata,
          plan: input.plan ?? 'pro',
          status: initialProjectStatus(context),
        })
        .returning({ projectUuid: projects.projectUuid });
      await tx.insert(memberships).values({ projectUuid: project!.projectUuid, userId, role: 'owner' });
      return project!.projectUuid;
    });
    return getProject(context, userId, projectUuid);
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(input.name);
    throw error;
  }
}

export async function updateProject(
  context: AppContext,
  userId: number,
  project: ProjectRow,
  changes: { name?: string; metadata?: Partial<ProjectMetadata> },
): Promise<ProjectResponse> {
  const metadata = changes.metadata ? { ...project.metadata, ...changes.metadata } : project.metadata;
  try {
    await context.db
      .update(projects)
      .set({ ...(changes.name !== undefined ? { name: changes.name } : {}), metadata, updatedAt: new Date() })
      .where(eq(projects.projectUuid, project.projectUuid));
  } catch (error) {
    if (isUniqueViolation(error) && changes.name) throw nameTaken(changes.name);
    throw error;
  }
  return getProject(context, userId, project.projectUuid);
}

/**
 * Removes the project, its subjects, videos, trash and every stored file; a paid subscription ends first. Called
 * by the trash's purge (a deleted project is in the trash until then).
 */
export async function deleteProject(context: AppContext, projectUuid: string): Promise<void> {
  await cancelSubscriptionOf(context, projectUuid);
  await deleteRowsAndFiles(context, [projectStoragePrefix(projectUuid)], async (tx) => {
    await tx.delete(projects).where(eq(projects.projectUuid, projectUuid));
  });
}

export async function replaceLogo(
  context: AppContext,
  userId: number,
  project: ProjectRow,
  image: { data: Buffer; name: string },
): Promise<ProjectResponse> {
  const key = projectLogoKey(project.projectUuid, image.name);
  await context.storage.write(key, image.data);
  await context.db
    .update(projects)
    .set({ logoKey: key, updatedAt: new Date() })
    .where(eq(projects.projectUuid, project.projectUuid));
  if (project.logoKey) await context.storage.delete(project.logoKey);
  return getProject(context, userId, project.projectUuid);
}
