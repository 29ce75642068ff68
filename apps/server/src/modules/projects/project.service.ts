import { and, asc, count, desc, eq, ilike, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { isUniqueViolation } from '../../db/errors.js';
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
import { PROJECT_ORDERING, type ProjectResponse } from './project.schemas.js';

// Per-project figures as correlated subqueries: each is an index lookup, and a page has at most 500 rows.
// Table names are spelled out so the correlation never depends on how Drizzle qualifies the outer columns.
const subjectCount = sql<number>`(select count(*)::int from "subjects" where "subjects"."project_uuid" = "projects"."project_uuid")`;
const videoCount = sql<number>`(select count(*)::int from "videos" where "videos"."project_uuid" = "projects"."project_uuid")`;
const analysisCount = sql<number>`(select count(*)::int from "analyses" where "analyses"."project_uuid" = "projects"."project_uuid")`;
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

export async function listProjects(context: AppContext, userId: number, query: ListQuery, url: string) {
  const { field, descending } = parseOrdering(query.ordering, PROJECT_ORDERING, 'name');
  const column = { name: projects.name, created_at: projects.createdAt, updated_at: projects.updatedAt }[field];
  const where = query.search ? ilike(projects.name, likePattern(query.search)) : undefined;
  const [total] = await context.db
    .select({ value: count() })
    .from(projects)
    .innerJoin(memberships, and(eq(memberships.projectUuid, projects.projectUuid), eq(memberships.userId, userId)))
    .where(where);
  const rows = await selectProjects(context, userId)
    .where(where)
    .orderBy(descending ? desc(column) : asc(column), asc(projects.projectUuid))
    .limit(query.page_size)
    .offset((query.page - 1) * query.page_size);
  const results = await Promise.all(rows.map((row) => toResponse(context, row)));
  return toPage(url, context.config.publicUrl, query, total?.value ?? 0, results);
}

export async function getProject(context: AppContext, userId: number, projectUuid: string): Promise<ProjectResponse> {
  const [row] = await selectProjects(context, userId).where(eq(projects.projectUuid, projectUuid)).limit(1);
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

/** Removes the project, its subjects, videos and every stored file; a paid subscription ends first. */
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
