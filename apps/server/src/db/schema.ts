import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  customType,
  doublePrecision,
  foreignKey,
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

/**
 * Attempt counters of the auth rate limits (log-in, reset and verification e-mails), shared by every server process.
 * `key` is an HMAC of the limit's name and what it counts (an e-mail address, a client address): no address in clear.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    count: integer('count').notNull(),
  },
  (t) => [index('rate_limits_expires_idx').on(t.expiresAt)],
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
    /**
     * How many subjects the project has, kept exact by a trigger on subjects (migration 0013): the subjects list's
     * count without counting them on every page.
     */
    subjectCount: integer('subject_count').notNull().default(0),
    /** Its videos and analysis runs, kept exact by triggers (migration 0014): the project's counts and list totals. */
    videoCount: integer('video_count').notNull().default(0),
    analysisCount: integer('analysis_count').notNull().default(0),
    /**
     * Set while the project is in the trash (migration 0015): invisible to everyone but its owner's
     * `GET /projects/?deleted=true`, restorable until `purge_at`, then removed with its files by the purge job.
     */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    deletedById: integer('deleted_by_id').references(() => users.id, { onDelete: 'set null' }),
    purgeAt: timestamp('purge_at', { withTimezone: true }),
    /** When one of the project's exports was first downloaded (migration 0018): the checklist's last step. */
    firstExportAt: timestamp('first_export_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('projects_owner_name_idx').on(t.ownerId, sql`lower(${t.name})`).where(sql`${t.deletedAt} is null`),
    index('projects_purge_idx').on(t.purgeAt).where(sql`${t.deletedAt} is not null`),
  ],
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

/** The Stripe customer of a project owner: one per user, reused for every project they subscribe. */
export const billingCustomers = pgTable('billing_customers', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  stripeCustomerId: text('stripe_customer_id').notNull().unique(),
  createdAt: createdAt(),
});

/**
 * A project's current subscription as Stripe last reported it. `synced_at` is when that report was read from
 * Stripe: a report read earlier never overwrites one read later, whatever order webhooks arrive in.
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    projectUuid: uuid('project_uuid')
      .primaryKey()
      .references(() => projects.projectUuid, { onDelete: 'cascade' }),
    plan: text('plan', { enum: projectPlans }).notNull(),
    /** Stripe's subscription status (trialing, active, past_due, unpaid, canceled, incomplete, …). */
    status: text('status').notNull(),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    stripeCustomerId: text('stripe_customer_id').notNull(),
    stripeSubscriptionId: text('stripe_subscription_id').notNull().unique(),
    stripePriceId: text('stripe_price_id'),
    /** When Stripe created the subscription: a newer subscription of the project replaces an ended older one. */
    stripeCreatedAt: timestamp('stripe_created_at', { withTimezone: true }).notNull(),
    syncedAt: timestamp('synced_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('subscriptions_customer_idx').on(t.stripeCustomerId)],
);

/** Webhook events already handled, by Stripe's event id: a delivery seen twice is answered and ignored. */
export const billingEvents = pgTable('billing_events', {
  eventId: text('event_id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

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
    /** The subject's videos, kept exact by triggers on `videos` (migration 0014); the lists read it. */
    videoCount: integer('video_count').notNull().default(0),
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
/**
 * The browser-playable copy: not needed (the original plays everywhere), waiting to start, being made (in pieces),
 * ready (`playback_key`), or failed (`playback_error`; the video stays analysable).
 */
export const playbackStates = ['not_needed', 'pending', 'making', 'ready', 'failed'] as const;
export type PlaybackState = (typeof playbackStates)[number];

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
    /** ffprobe's profile of the stream at upload (whether browsers play it); null when it names none. */
    profile: text('profile'),
    container: text('container'),
    /** How the analysis decodes it (ffprobe at upload): pixel format, full-range luma, time of the first frame. */
    pixelFormat: text('pixel_format'),
    fullRange: boolean('full_range'),
    startTime: doublePrecision('start_time'),
    status: text('status', { enum: videoStatuses }).notNull().default('uploading'),
    error: text('error'),
    originalKey: text('original_key'),
    playbackKey: text('playback_key'),
    thumbnailKey: text('thumbnail_key'),
    /**
     * Where the files of a video stored before migration 0010 live (`projects/{p}/subjects/{s}/videos/{v}/`, the
     * subject it had then); null for later videos, whose prefix follows from project and video. Never changes.
     */
    legacyStoragePrefix: text('legacy_storage_prefix'),
    /** Bytes of derived files (playback copy, thumbnail), counted in project storage. */
    derivedBytes: bigint('derived_bytes', { mode: 'number' }).notNull().default(0),
    processingJobId: text('processing_job_id'),
    /** Null for videos processed before copies were tracked: then `playback_key` alone tells. */
    playbackState: text('playback_state', { enum: playbackStates }),
    playbackProgress: doublePrecision('playback_progress').notNull().default(0),
    playbackError: text('playback_error'),
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

/** Binary data (Node Buffer in, Buffer out). */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * A video's packet index (issue 21, ADR 018; adapters/media/packet-index.ts): every frame's time and keyframe
 * flag, read once from ffprobe's packet list when the video is processed, and the proofs of clean starts made so
 * far (issue 9, ADR 006: "seek:valid" keyframe pairs → the start, or false). Thumbnail, playback pieces, clean
 * starts and analysis segments all read it. Keyed by the video, so a move changes nothing; deleted with it.
 */
export const videoSeekIndexes = pgTable('video_seek_indexes', {
  videoUuid: uuid('video_uuid')
    .primaryKey()
    .references(() => videos.videoUuid, { onDelete: 'cascade' }),
  packetIndex: bytea('packet_index').notNull(),
  proofs: jsonb('proofs').notNull().default({}),
  createdAt: createdAt(),
});

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

export const analysisKinds = [
  'movement_detection',
  'event_detection',
  'timeseries_import',
  'location_tracking',
  'pose_series',
] as const;
export const analysisStatuses = ['queued', 'running', 'succeeded', 'failed', 'revoked'] as const;

/** One analysis run of a video: its parameters (kept forever), state, summary and where its outputs are. */
export const analyses = pgTable(
  'analyses',
  {
    analysisUuid: uuid('analysis_uuid').primaryKey().defaultRandom(),
    projectUuid: uuid('project_uuid')
      .notNull()
      .references(() => projects.projectUuid, { onDelete: 'cascade' }),
    subjectUuid: uuid('subject_uuid')
      .notNull()
      .references(() => subjects.subjectUuid, { onDelete: 'cascade' }),
    videoUuid: uuid('video_uuid')
      .notNull()
      .references(() => videos.videoUuid, { onDelete: 'cascade' }),
    kind: text('kind', { enum: analysisKinds }).notNull(),
    /** The run's parameters with every default filled in, exactly as the computation used them. */
    parameters: jsonb('parameters').notNull(),
    /** The run whose series an event detection reads. */
    sourceAnalysisUuid: uuid('source_analysis_uuid'),
    status: text('status', { enum: analysisStatuses }).notNull().default('queued'),
    progress: doublePrecision('progress').notNull().default(0),
    error: text('error'),
    /** App, algorithm and ffmpeg versions that produced the result. */
    softwareVersion: text('software_version').notNull(),
    /** What the decoder needs (fps, size, pixel format, range, frames), read by ffprobe when the run was made. */
    source: jsonb('source'),
    summary: jsonb('summary'),
    /** Storage keys of the series (Float64 values, and times for an imported series with its own) and its CSV. */
    seriesKey: text('series_key'),
    timesKey: text('times_key'),
    seriesCsvKey: text('series_csv_key'),
    sampleCount: integer('sample_count'),
    /** Bumped by every accepted update-events call; a change against an older version is refused. */
    eventsVersion: integer('events_version').notNull().default(0),
    nextEventId: integer('next_event_id').notNull().default(1),
    createdById: integer('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** The protocol and version the run was made from (ADR 031), kept as recorded even when the protocol is deleted. */
    protocolUuid: uuid('protocol_uuid'),
    protocolVersion: integer('protocol_version'),
  },
  (t) => [
    index('analyses_project_created_idx').on(t.projectUuid, t.createdAt),
    index('analyses_video_created_idx').on(t.videoUuid, t.createdAt),
    index('analyses_protocol_idx').on(t.protocolUuid).where(sql`${t.protocolUuid} IS NOT NULL`),
  ],
);

export const protocolKinds = ['movement_detection', 'location_tracking', 'event_detection'] as const;
export type ProtocolKind = (typeof protocolKinds)[number];

/**
 * A named set of analysis settings of a project (ADR 031). `current_version` names its latest row in
 * protocol_versions; a deleted protocol keeps its rows (`deleted_at`) so the runs made from it stay readable.
 */
export const protocols = pgTable(
  'protocols',
  {
    protocolUuid: uuid('protocol_uuid').primaryKey().defaultRandom(),
    projectUuid: uuid('project_uuid')
      .notNull()
      .references(() => projects.projectUuid, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    kind: text('kind', { enum: protocolKinds }).notNull(),
    currentVersion: integer('current_version').notNull().default(1),
    createdById: integer('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('protocols_project_name_idx')
      .on(t.projectUuid, sql`lower(${t.name})`)
      .where(sql`${t.deletedAt} IS NULL`),
  ],
);

/** Every version of a protocol, never changed once written: its name and parameters with every default filled in. */
export const protocolVersions = pgTable(
  'protocol_versions',
  {
    protocolUuid: uuid('protocol_uuid')
      .notNull()
      .references(() => protocols.protocolUuid, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    name: text('name').notNull(),
    parameters: jsonb('parameters').notNull(),
    createdById: integer('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.protocolUuid, t.version] })],
);

/**
 * One protocol version applied to many videos of a project at once (ADR 035). `selection` keeps what was asked
 * (every ready video, chosen subjects, a group or a list); the runs are in batch_runs.
 */
export const batches = pgTable(
  'batches',
  {
    batchUuid: uuid('batch_uuid').primaryKey().defaultRandom(),
    projectUuid: uuid('project_uuid')
      .notNull()
      .references(() => projects.projectUuid, { onDelete: 'cascade' }),
    protocolUuid: uuid('protocol_uuid')
      .notNull()
      .references(() => protocols.protocolUuid, { onDelete: 'cascade' }),
    protocolVersion: integer('protocol_version').notNull(),
    kind: text('kind', { enum: protocolKinds }).notNull(),
    selection: jsonb('selection').$type<Record<string, unknown>>().notNull(),
    createdById: integer('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('batches_project_created_idx').on(t.projectUuid, t.createdAt),
    index('batches_protocol_idx').on(t.protocolUuid),
  ],
);

/**
 * A run of a batch: the video, the attempt (a retry adds the next one; the batch shows the newest) and the video's
 * adjustments. Goes to the trash with its run (trash.snapshot.ts) and comes back with it.
 */
export const batchRuns = pgTable(
  'batch_runs',
  {
    analysisUuid: uuid('analysis_uuid')
      .primaryKey()
      .references(() => analyses.analysisUuid, { onDelete: 'cascade' }),
    batchUuid: uuid('batch_uuid')
      .notNull()
      .references(() => batches.batchUuid, { onDelete: 'cascade' }),
    videoUuid: uuid('video_uuid')
      .notNull()
      .references(() => videos.videoUuid, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull().default(1),
    overrides: jsonb('overrides').$type<Record<string, unknown> | null>(),
    createdAt: createdAt(),
  },
  (t) => [index('batch_runs_batch_video_idx').on(t.batchUuid, t.videoUuid, t.attempt)],
);

/** A slice of frames of a movement-detection run, processed by one job on any worker. */
export const analysisSegments = pgTable(
  'analysis_segments',
  {
    analysisUuid: uuid('analysis_uuid')
      .notNull()
      .references(() => analyses.analysisUuid, { onDelete: 'cascade' }),
    index: integer('index').notNull(),
    startFrame: integer('start_frame').notNull(),
    endFrame: integer('end_frame').notNull(),
    framesDone: integer('frames_done').notNull().default(0),
    done: boolean('done').notNull().default(false),
    /** Frames the segment produced (the last one reads to the end of the stream). */
    frameCount: integer('frame_count'),
    jobId: text('job_id'),
    /** The worker process (host:pid) that stored the segment's values. */
    worker: text('worker'),
    /** What a chained piece saved for the next one (jobs/pieces.ts); null for side-by-side pieces. */
    handoff: jsonb('handoff'),
  },
  (t) => [primaryKey({ columns: [t.analysisUuid, t.index] })],
);

/**
 * A piece of a video's playback copy: frames [start_frame, end_frame) of the original, encoded by one
 * `videos.playback-piece` job on any worker; the job that completes the set joins the pieces.
 */
export const playbackPieces = pgTable(
  'playback_pieces',
  {
    videoUuid: uuid('video_uuid')
      .notNull()
      .references(() => videos.videoUuid, { onDelete: 'cascade' }),
    index: integer('index').notNull(),
    startFrame: integer('start_frame').notNull(),
    endFrame: integer('end_frame').notNull(),
    /** Where ffmpeg starts reading (a keyframe at or before the first frame), and the piece's time range. */
    seekS: doublePrecision('seek_s').notNull(),
    startS: doublePrecision('start_s'),
    endS: doublePrecision('end_s'),
    /** Time from this piece's first frame to the next piece's, for the join; null for the last piece. */
    durationS: doublePrecision('duration_s'),
    framesDone: integer('frames_done').notNull().default(0),
    done: boolean('done').notNull().default(false),
    /** The common piece columns (jobs/pieces.ts): frames encoded, who encoded them, a chained piece's state. */
    frameCount: integer('frame_count'),
    jobId: text('job_id'),
    worker: text('worker'),
    handoff: jsonb('handoff'),
  },
  (t) => [primaryKey({ columns: [t.videoUuid, t.index] })],
);

/** An event of a run: detected (original_time set) or added by hand; reviewed in Quick Score. */
export const analysisEvents = pgTable(
  'analysis_events',
  {
    analysisUuid: uuid('analysis_uuid')
      .notNull()
      .references(() => analyses.analysisUuid, { onDelete: 'cascade' }),
    id: integer('id').notNull(),
    time: doublePrecision('time').notNull(),
    originalTime: doublePrecision('original_time'),
    label: text('label'),
    flagged: boolean('flagged').notNull().default(false),
    discarded: boolean('discarded').notNull().default(false),
    updatedById: integer('updated_by_id').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }),
    /**
     * Who decided on the event first in Quick Score, and when: the first change, or the first step past it (a
     * confirmation). Set once (ADR 014): a later look or change never rewrites the decision's author.
     */
    reviewedById: integer('reviewed_by_id').references(() => users.id, { onDelete: 'set null' }),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    /** Who last looked at the event (stepped past it or changed it), and when. */
    lastViewedById: integer('last_viewed_by_id').references(() => users.id, { onDelete: 'set null' }),
    lastViewedAt: timestamp('last_viewed_at', { withTimezone: true }),
    /** Who settled a difference between scorers on this event in the consensus, and when (ADR 014). */
    resolvedById: integer('resolved_by_id').references(() => users.id, { onDelete: 'set null' }),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    /**
     * A suggestion accepted for this event (ADR 038): who accepted it and when, whether in bulk ("accept all ≥ p":
     * nobody looked at the event, so reviewed_by stays empty), the model and what it suggested.
     */
    suggestionAcceptedById: integer('suggestion_accepted_by_id').references(() => users.id, { onDelete: 'set null' }),
    suggestionAcceptedAt: timestamp('suggestion_accepted_at', { withTimezone: true }),
    suggestionInBulk: boolean('suggestion_in_bulk'),
    suggestionModelUuid: uuid('suggestion_model_uuid'),
    suggestionModelVersion: integer('suggestion_model_version'),
    suggestionDiscard: boolean('suggestion_discard'),
    suggestionLabel: text('suggestion_label'),
    suggestionConfidence: doublePrecision('suggestion_confidence'),
  },
  (t) => [
    primaryKey({ columns: [t.analysisUuid, t.id] }),
    index('analysis_events_time_idx').on(t.analysisUuid, t.time),
  ],
);

/**
 * A blind scorer of a run (ADR 014): someone scoring the run's detected events on their own, without seeing the
 * consensus (the run's events) or anyone else's scoring. `version` is bumped by each change of their scoring, as
 * `analyses.events_version` is for the consensus.
 */
export const analysisScorers = pgTable(
  'analysis_scorers',
  {
    analysisUuid: uuid('analysis_uuid')
      .notNull()
      .references(() => analyses.analysisUuid, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    version: integer('version').notNull().default(0),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.analysisUuid, t.userId] })],
);

/**
 * A blind scorer's decision on one event: the event as they scored it. An event of the run they have not decided on
 * is, in their scoring, as detected. Events they added have no original time; their ids come from the run's
 * `next_event_id`, so an id names one event across the consensus and every scoring.
 */
export const scorerEvents = pgTable(
  'scorer_events',
  {
    analysisUuid: uuid('analysis_uuid').notNull(),
    userId: integer('user_id').notNull(),
    id: integer('id').notNull(),
    time: doublePrecision('time').notNull(),
    originalTime: doublePrecision('original_time'),
    label: text('label'),
    flagged: boolean('flagged').notNull().default(false),
    discarded: boolean('discarded').notNull().default(false),
    /** The scorer's first decision on the event (kept), and their last change or look. */
    decidedAt: timestamp('decided_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.analysisUuid, t.userId, t.id] }),
    index('scorer_events_time_idx').on(t.analysisUuid, t.userId, t.time),
    foreignKey({
      name: 'scorer_events_scorer_fk',
      columns: [t.analysisUuid, t.userId],
      foreignColumns: [analysisScorers.analysisUuid, analysisScorers.userId],
    }).onDelete('cascade'),
  ],
);

/**
 * One labelled track of a video (a behaviour scored as bouts) with its bouts: a sorted list of non-overlapping
 * [start, end] ranges in seconds (the spec's time-range rules). The list is one value, replaced as a whole under
 * `version`, so a change made against an older version is refused instead of overwriting someone else's work.
 */
export const annotationConfigs = pgTable(
  'annotation_configs',
  {
    annotationConfigUuid: uuid('annotation_config_uuid').primaryKey().defaultRandom(),
    projectUuid: uuid('project_uuid')
      .notNull()
      .references(() => projects.projectUuid, { onDelete: 'cascade' }),
    videoUuid: uuid('video_uuid')
      .notNull()
      .references(() => videos.videoUuid, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** `#rrggbb` */
    color: text('color').notNull(),
    /** One lower-case letter or digit, unique among the video's tracks. */
    hotkey: text('hotkey'),
    order: integer('order').notNull().default(0),
    ranges: jsonb('ranges').$type<[number, number][]>().notNull().default([]),
    /** Bumped by every accepted change of `ranges`. */
    version: integer('version').notNull().default(0),
    /** Kept with `ranges` so lists and summaries need not read every bout. */
    rangeCount: integer('range_count').notNull().default(0),
    totalDurationS: doublePrecision('total_duration_s').notNull().default(0),
    createdById: integer('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('annotation_configs_video_name_idx').on(t.videoUuid, sql`lower(${t.name})`),
    uniqueIndex('annotation_configs_video_hotkey_idx').on(t.videoUuid, t.hotkey).where(sql`${t.hotkey} is not null`),
    index('annotation_configs_project_idx').on(t.projectUuid, t.createdAt),
  ],
);

/** Where each user stopped reviewing each run in Quick Score: reopening the run resumes there, on any machine. */
export const reviewPositions = pgTable(
  'review_positions',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    analysisUuid: uuid('analysis_uuid')
      .notNull()
      .references(() => analyses.analysisUuid, { onDelete: 'cascade' }),
    eventId: integer('event_id').notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.analysisUuid] })],
);

/**
 * Labels saved in a project (Quick Score's Shift+Enter) so they are offered even before any event carries them.
 * The project's label list is these plus every label its events use.
 */
export const projectLabels = pgTable(
  'project_labels',
  {
    projectUuid: uuid('project_uuid')
      .notNull()
      .references(() => projects.projectUuid, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdById: integer('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('project_labels_name_idx').on(t.projectUuid, sql`lower(${t.name})`)],
);

export const trashKindValues = ['project', 'subject', 'video', 'analysis', 'annotation_track'] as const;

/**
 * One deletion of a subject, video, analysis run or annotation track (migration 0015): the rows it took out of the
 * live tables (`rows`: table name → rows as JSON, everything the deletion cascaded to), the storage prefixes of its
 * files (kept until the purge) and who deleted it. Restoring inserts the rows back and removes the item; purging
 * removes the item and its files. A deleted project stays in `projects` (`deleted_at`) instead.
 */
export const trashItems = pgTable(
  'trash_items',
  {
    /** The deleted object's own uuid. */
    itemUuid: uuid('item_uuid').primaryKey(),
    projectUuid: uuid('project_uuid')
      .notNull()
      .references(() => projects.projectUuid, { onDelete: 'cascade' }),
    kind: text('kind', { enum: trashKindValues }).notNull(),
    name: text('name').notNull(),
    /** Where it was: its subject and video (itself for a subject or a video). */
    subjectUuid: uuid('subject_uuid'),
    videoUuid: uuid('video_uuid'),
    deletedById: integer('deleted_by_id').references(() => users.id, { onDelete: 'set null' }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }).notNull().defaultNow(),
    purgeAt: timestamp('purge_at', { withTimezone: true }).notNull(),
    contains: jsonb('contains')
      .$type<{ videos: number; analyses: number; events: number; annotation_tracks: number }>()
      .notNull(),
    rows: jsonb('rows').$type<Record<string, unknown[]>>().notNull(),
    prefixes: jsonb('prefixes').$type<string[]>().notNull().default([]),
  },
  (t) => [
    index('trash_items_project_idx').on(t.projectUuid, t.deletedAt.desc(), t.itemUuid),
    index('trash_items_purge_idx').on(t.purgeAt),
  ],
);

/**
 * A pose-estimation result imported for a video (DeepLabCut or SLEAP, issue 24; ADR 030): the rows say what the set
 * holds, the points themselves are one Float32 file in storage (`storage_key`, layout in modules/pose/pose-file.ts),
 * aligned to the video's frames.
 */
export const poseSets = pgTable(
  'pose_sets',
  {
    poseUuid: uuid('pose_uuid').primaryKey().defaultRandom(),
    projectUuid: uuid('project_uuid')
      .notNull()
      .references(() => projects.projectUuid, { onDelete: 'cascade' }),
    videoUuid: uuid('video_uuid')
      .notNull()
      .references(() => videos.videoUuid, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** dlc_csv | dlc_h5 | sleap_h5 | sleap_csv: what the file was, read from its structure. */
    format: text('format').notNull(),
    individuals: jsonb('individuals').$type<string[]>().notNull(),
    bodyparts: jsonb('bodyparts').$type<string[]>().notNull(),
    /** The (individual, body part) pairs the file has, by index into the two lists, in the file's column order. */
    keypoints: jsonb('keypoints').$type<[number, number][]>().notNull(),
    /** Skeleton edges as pairs of body-part names (SLEAP's edges; none for DeepLabCut without its config). */
    edges: jsonb('edges').$type<[string, string][]>().notNull(),
    /** Frames of the stored set: the video's frame count at import. */
    frameCount: integer('frame_count').notNull(),
    /** False for hand-labelled DeepLabCut files (x, y only): likelihoods read as null. */
    hasLikelihood: boolean('has_likelihood').notNull(),
    /** Where the file came from: its name, scorer, own frame count and the offset it was placed at. */
    source: jsonb('source').$type<Record<string, unknown>>().notNull(),
    storageKey: text('storage_key').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull().default(0),
    createdById: integer('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('pose_sets_video_created_idx').on(t.videoUuid, t.createdAt)],
);

/**
 * Where a project learns suggestions (issue 25, ADR 038): one per project, run kind and protocol (null for runs made
 * without one). It counts the reviews since its last training (a training is queued at TRAIN_AFTER_REVIEWS) and names
 * the last training job sent, whose state pg-boss keeps.
 */
export const suggestionScopes = pgTable(
  'suggestion_scopes',
  {
    scopeUuid: uuid('scope_uuid').primaryKey().defaultRandom(),
    projectUuid: uuid('project_uuid')
      .notNull()
      .references(() => projects.projectUuid, { onDelete: 'cascade' }),
    kind: text('kind', { enum: analysisKinds }).notNull(),
    protocolUuid: uuid('protocol_uuid'),
    reviewsSinceTraining: integer('reviews_since_training').notNull().default(0),
    /** Set when a training was sent and has not started yet (a second is not sent meanwhile). */
    trainRequestedAt: timestamp('train_requested_at', { withTimezone: true }),
    jobId: text('job_id'),
    /** Why the last training produced no model (nothing to learn from, or its last attempt failed). */
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('suggestion_scopes_key_idx').on(
      t.projectUuid,
      t.kind,
      sql`(coalesce(${t.protocolUuid}, '00000000-0000-0000-0000-000000000000'::uuid))`,
    ),
  ],
);

/** Figures of one class, cross-validated by video (suggestions/engine/cross-validation.ts). */
export interface StoredClassFigures {
  examples: number;
  predicted: number;
  precision: number | null;
  recall: number | null;
}

/**
 * One trained version of a scope's model: how many reviewed events it learned from and its held-out figures per
 * decision (keep, discard) and per label (null = "no label"); the forests are a JSON file at `storage_key`.
 */
export const suggestionModels = pgTable(
  'suggestion_models',
  {
    modelUuid: uuid('model_uuid').primaryKey().defaultRandom(),
    scopeUuid: uuid('scope_uuid')
      .notNull()
      .references(() => suggestionScopes.scopeUuid, { onDelete: 'cascade' }),
    projectUuid: uuid('project_uuid')
      .notNull()
      .references(() => projects.projectUuid, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    trainedAt: timestamp('trained_at', { withTimezone: true }).notNull().defaultNow(),
    examples: integer('examples').notNull(),
    videos: integer('videos').notNull(),
    runs: integer('runs').notNull(),
    features: jsonb('features').$type<string[]>().notNull(),
    decisions: jsonb('decisions').$type<{ keep: StoredClassFigures; discard: StoredClassFigures }>().notNull(),
    labels: jsonb('labels').$type<({ label: string | null } & StoredClassFigures)[]>().notNull(),
    /** Null once the model is two versions old: its figures stay for the history, its file is removed. */
    storageKey: text('storage_key'),
    sizeBytes: integer('size_bytes').notNull().default(0),
    trainingMs: integer('training_ms').notNull().default(0),
    /** Who asked for the training ("Train now"); null when reviews queued it. */
    requestedById: integer('requested_by_id').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [uniqueIndex('suggestion_models_scope_version_idx').on(t.scopeUuid, t.version)],
);

/** A model's votes for a run's event, computed once per run and model (a cache; see suggestions.cache.ts). */
export const eventSuggestions = pgTable(
  'event_suggestions',
  {
    analysisUuid: uuid('analysis_uuid').notNull(),
    eventId: integer('event_id').notNull(),
    modelUuid: uuid('model_uuid')
      .notNull()
      .references(() => suggestionModels.modelUuid, { onDelete: 'cascade' }),
    /** Share of the decision forest's trees voting discard. */
    discardShare: doublePrecision('discard_share').notNull(),
    /** The label class most label trees vote for (index into the model's labels) and their share. */
    labelIndex: integer('label_index'),
    labelShare: doublePrecision('label_share'),
  },
  (t) => [
    primaryKey({ name: 'event_suggestions_pk', columns: [t.analysisUuid, t.eventId] }),
    foreignKey({
      name: 'event_suggestions_event_fk',
      columns: [t.analysisUuid, t.eventId],
      foreignColumns: [analysisEvents.analysisUuid, analysisEvents.id],
    }).onDelete('cascade'),
    index('event_suggestions_model_idx').on(t.modelUuid),
  ],
);
