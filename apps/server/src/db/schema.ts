import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    avatarKey: text('avatar_key'),
    emailVerified: boolean('email_verified').notNull().default(false),
    dateJoined: timestamp('date_joined', { withTimezone: true }).notNull().defaultNow(),
    /** Bumped on password change/reset: tokens issued before it stop working. */
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`)],
);

/** Single-use secrets sent by e-mail (verification, password reset); only their SHA-256 is stored. */
export const emailTokens = pgTable(
  'email_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    kind: text('kind', { enum: ['email_verification', 'password_reset'] }).notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('email_tokens_user_idx').on(t.userId, t.kind)],
);

/** One row per issued refresh token (its jti); rotation marks the old one replaced. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    jti: uuid('jti').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('refresh_tokens_user_idx').on(t.userId)],
);

export const projectStatuses = ['active', 'draft', 'locked'] as const;
export const projectPlans = ['pro', 'institutional'] as const;
export const roles = ['owner', 'admin', 'member', 'viewer'] as const;
export type Role = (typeof roles)[number];

export interface ProjectMetadata {
  description: string;
  institution: string;
  principal_investigator: string;
}

export const projects = pgTable(
  'projects',
  {
    projectUuid: uuid('project_uuid').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    metadata: jsonb('metadata').$type<ProjectMetadata>().notNull(),
    logoKey: text('logo_key'),
    status: text('status', { enum: projectStatuses }).notNull().default('active'),
    plan: text('plan', { enum: projectPlans }).notNull().default('pro'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('projects_owner_name_idx').on(t.ownerId, sql`lower(${t.name})`)],
);

export const memberships = pgTable(
  'memberships',
  {
    projectUuid: uuid('project_uuid')
      .notNull()
      .references(() => projects.projectUuid, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: roles }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.projectUuid, t.userId] }), index('memberships_user_idx').on(t.userId)],
);

export const invitationStatuses = ['pending', 'accepted', 'revoked', 'expired'] as const;

export const invitations = pgTable(
  'invitations',
  {
    invitationUuid: uuid('invitation_uuid').primaryKey().defaultRandom(),
    projectUuid: uuid('project_uuid')
      .notNull()
      .references(() => projects.projectUuid, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: text('role', { enum: roles }).notNull(),
    status: text('status', { enum: invitationStatuses }).notNull().default('pending'),
    invitedById: integer('invited_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('invitations_project_idx').on(t.projectUuid, t.createdAt),
    index('invitations_email_idx').on(sql`lower(${t.email})`),
  ],
);

export const subjects = pgTable(
  'subjects',
  {
    subjectUuid: uuid('subject_uuid').primaryKey().defaultRandom(),
    projectUuid: uuid('project_uuid')
      .notNull()
      .references(() => projects.projectUuid, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    group: text('group').notNull().default(''),
    notes: text('notes').notNull().default(''),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('subjects_project_name_idx').on(t.projectUuid, sql`lower(${t.name})`),
    // The lists' default order (name, then id): an index scan that stops at the page instead of sorting every subject.
    index('subjects_project_name_order_idx').on(t.projectUuid, t.name, t.subjectUuid),
    index('subjects_project_created_idx').on(t.projectUuid, t.createdAt),
  ],
);

export const videoStatuses = ['uploading', 'processing', 'ready', 'failed'] as const;
export type VideoStatus = (typeof videoStatuses)[number];

export const videos = pgTable(
  'videos',
  {
    videoUuid: uuid('video_uuid').primaryKey().defaultRandom(),
    projectUuid: uuid('project_uuid')
      .notNull()
      .references(() => projects.projectUuid, { onDelete: 'cascade' }),
    subjectUuid: uuid('subject_uuid')
      .notNull()
      .references(() => subjects.subjectUuid, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    originalFilename: text('original_filename').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull().default(0),
    durationS: doublePrecision('duration_s'),
    fps: doublePrecision('fps'),
    frameCount: integer('frame_count'),
    width: integer('width'),
    height: integer('height'),
    codec: text('codec'),
    container: text('container'),
    status: text('status', { enum: videoStatuses }).notNull().default('uploading'),
    error: text('error'),
    originalKey: text('original_key'),
    playbackKey: text('playback_key'),
    thumbnailKey: text('thumbnail_key'),
    /** Bytes of derived files (playback copy, thumbnail), counted in project storage. */
    derivedBytes: bigint('derived_bytes', { mode: 'number' }).notNull().default(0),
    processingJobId: text('processing_job_id'),
    recordedAt: timestamp('recorded_at', { withTimezone: true }),
    uploadedById: integer('uploaded_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('videos_subject_created_idx').on(t.subjectUuid, t.createdAt),
    index('videos_project_created_idx').on(t.projectUuid, t.createdAt),
  ],
);

/**
 * Storage prefixes whose files must be removed. Written in the same transaction that deletes the rows,
 * removed once the files are gone, so a crash between the two never leaves orphan files.
 */
export const pendingFileDeletions = pgTable('pending_file_deletions', {
  id: serial('id').primaryKey(),
  prefix: text('prefix').notNull(),
  attempts: integer('attempts').notNull().default(0),
  createdAt: createdAt(),
});
