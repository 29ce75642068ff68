import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../src/context.js';
import { analyses, memberships, users } from '../src/db/schema.js';
import type { JobDefinition } from '../src/jobs/job-queue.js';
import { hashPassword } from '../src/lib/passwords.js';

export const DEFAULT_PASSWORD = 'correct horse battery staple';

export interface TestUser {
  id: number;
  email: string;
  password: string;
  /** A valid access token for this user. */
  token: string;
  /** `{ authorization: 'Bearer …' }` for `app.inject` and fetch. */
  headers: { authorization: string };
}

const TEST_TOKEN_SECONDS = 2 * 60 * 60;

/** A verified user straight in the database, with an access token, for tests that are not about sign-up. */
export async function createUser(
  ctx: AppContext,
  options: { email?: string; password?: string; firstName?: string; lastName?: string; verified?: boolean } = {},
): Promise<TestUser> {
  const email = options.email ?? `user-${randomUUID().slice(0, 8)}@lab.test`;
  const password = options.password ?? DEFAULT_PASSWORD;
  const [row] = await ctx.db
    .insert(users)
    .values({
      email,
      passwordHash: await hashPassword(password),
      firstName: options.firstName ?? 'Test',
      lastName: options.lastName ?? 'User',
      emailVerified: options.verified ?? true,
    })
    .returning();
  // Valid for the longest test file on a loaded machine: a file that outlived the app's five minutes got 401s in its
  // last tests. Expiry itself is tested through sign-in and refresh (auth tests), not with these fixtures.
  const token = await ctx.tokens.signAccess(row!.id, TEST_TOKEN_SECONDS);
  return { id: row!.id, email, password, token, headers: { authorization: `Bearer ${token}` } };
}

/** Gives `userId` a role in a project directly (invitations are tested on their own). */
export async function addMember(
  ctx: AppContext,
  projectUuid: string,
  userId: number,
  role: 'owner' | 'admin' | 'member' | 'viewer',
): Promise<void> {
  await ctx.db.insert(memberships).values({ projectUuid, userId, role });
}

/** A tiny valid PNG (1×1), for logo and avatar uploads. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** A multipart body with one file part, for `app.inject`. */
export function multipartFile(
  field: string,
  filename: string,
  content: Buffer,
  contentType = 'application/octet-stream',
) {
  const boundary = `----test${randomUUID().replace(/-/g, '')}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/**
 * A queued copy of a run, sent to `job` as if it had been created before a change the test then made (a source
 * deleted between a run's creation and its job). Answers the copy's uuid.
 */
export async function queueCopyOfRun(
  ctx: AppContext,
  analysisUuid: string,
  job: JobDefinition<{ analysisUuid: string }, AppContext>,
): Promise<string> {
  const [row] = await ctx.db.select().from(analyses).where(eq(analyses.analysisUuid, analysisUuid));
  if (!row) throw new Error(`no run ${analysisUuid}`);
  const copy = randomUUID();
  await ctx.db.insert(analyses).values({
    ...row,
    analysisUuid: copy,
    status: 'queued',
    summary: null,
    seriesKey: null,
    seriesCsvKey: null,
    startedAt: null,
    finishedAt: null,
  });
  await ctx.jobs.send(job, { analysisUuid: copy });
  return copy;
}
