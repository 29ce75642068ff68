import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../src/context.js';
import { memberships, projects, subjects } from '../src/db/schema.js';
import type { TestUser } from './factories.js';

export interface ProjectWithSubject {
  projectUuid: string;
  subjectUuid: string;
  /** `/api/projects/{p}/subjects/{s}/videos/` */
  videosUrl: string;
}

/** A project owned by `owner` with one subject, straight in the database. */
export async function createProjectWithSubject(ctx: AppContext, owner: TestUser): Promise<ProjectWithSubject> {
  const [project] = await ctx.db
    .insert(projects)
    .values({
      name: `Project ${randomUUID().slice(0, 8)}`,
      ownerId: owner.id,
      metadata: { description: '', institution: 'Lab', principal_investigator: 'PI' },
    })
    .returning();
  await ctx.db.insert(memberships).values({ projectUuid: project!.projectUuid, userId: owner.id, role: 'owner' });
  const subjectUuid = await createSubjectRow(ctx, project!.projectUuid);
  return {
    projectUuid: project!.projectUuid,
    subjectUuid,
    videosUrl: `/api/projects/${project!.projectUuid}/subjects/${subjectUuid}/videos/`,
  };
}

export async function createSubjectRow(ctx: AppContext, projectUuid: string, name?: string): Promise<string> {
  const [subject] = await ctx.db
    .insert(subjects)
    .values({ projectUuid, name: name ?? `M${randomUUID().slice(0, 6)}` })
    .returning();
  return subject!.subjectUuid;
}

/** A multipart body with text fields and one file part in `file` (fields first, or after the file). */
export function videoMultipart(
  content: Buffer,
  filename: string,
  fields: Record<string, string> = {},
  fieldsAfterFile = false,
) {
  const boundary = `----video${randomUUID().replace(/-/g, '')}`;
  const fieldParts = Object.entries(fields).map(([name, value]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
  );
  const filePart = [
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    content,
    Buffer.from('\r\n'),
  ];
  const parts = fieldsAfterFile ? [...filePart, ...fieldParts] : [...fieldParts, ...filePart];
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** POSTs a fixture file to a subject's videos/ with `app.inject`. */
export function uploadVideo(
  app: FastifyInstance,
  user: TestUser,
  videosUrl: string,
  file: string,
  options: { filename?: string; fields?: Record<string, string>; fieldsAfterFile?: boolean } = {},
) {
  const body = videoMultipart(
    readFileSync(file),
    options.filename ?? file.split('/').pop()!,
    options.fields,
    options.fieldsAfterFile,
  );
  return app.inject({
    method: 'POST',
    url: videosUrl,
    payload: body.payload,
    headers: { ...user.headers, ...body.headers },
  });
}

/** A video that failed, or is ready with its playback copy made (or not needed, or failed). */
export const videoSettled = (v: { status: string; playback_copy?: { state: string } }) =>
  v.status === 'failed' ||
  (v.status === 'ready' && v.playback_copy?.state !== 'making' && v.playback_copy?.state !== 'pending');

/** Polls a video's detail until `done(video)` holds (default: settled) or the timeout passes; returns the last answer. */
export async function waitForVideo(
  app: FastifyInstance,
  user: TestUser,
  videoUrl: string,
  done: (video: { status: string; playback_copy?: { state: string } }) => boolean = videoSettled,
  timeoutMs = 30_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await app.inject({ method: 'GET', url: videoUrl, headers: user.headers });
    const video = response.json();
    if (response.statusCode !== 200) throw new Error(`GET ${videoUrl} → ${response.statusCode} ${response.body}`);
    if (done(video) || Date.now() > deadline) return video;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Waits until no job about this video is queued, waiting to retry or at work. A video can look settled while a
 * duplicate piece job (a retry after a missed heartbeat on a loaded machine) is still queued: a test that then
 * changes the video's rows by hand would race it.
 */
export async function waitForVideoJobs(ctx: AppContext, videoUuid: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = (await ctx.db.execute(
      sql`select count(*)::int as n from pgboss.job
          where data->>'videoUuid' = ${videoUuid} and state in ('created', 'retry', 'active')`,
    )) as unknown as { rows: { n: number }[] };
    if (result.rows[0]?.n === 0) return;
    if (Date.now() > deadline) throw new Error(`Jobs of video ${videoUuid} still pending after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
