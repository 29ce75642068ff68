import type { Readable } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { AppContext } from '../../context.js';
import { analyses, memberships, subjects, videos } from '../../db/schema.js';
import { requireProjectRole } from '../../lib/access.js';
import { tokenUser } from '../../lib/authenticate.js';
import { downloadFileName, runNamePart } from '../../lib/download-names.js';
import { notFound } from '../../lib/errors.js';
import { storageKeyOwner } from '../../lib/storage-keys.js';
import type { TokenClaims } from '../../lib/tokens.js';
import { storedFileIsLive } from '../trash/trash.restore.js';

/** Whether two users share at least one project (either may see the other's avatar). */
async function shareAProject(context: AppContext, userId: number, otherId: number): Promise<boolean> {
  const theirs = alias(memberships, 'theirs');
  const [row] = await context.db
    .select({ projectUuid: memberships.projectUuid })
    .from(memberships)
    .innerJoin(theirs, and(eq(theirs.projectUuid, memberships.projectUuid), eq(theirs.userId, otherId)))
    .where(eq(memberships.userId, userId))
    .limit(1);
  return row !== undefined;
}

/**
 * The stored file a verified file token names, checked now — not when the URL was made: the token's user still
 * exists and changed no password since it was issued, and may still read the key's project (a member of any role),
 * or, for an avatar, is its owner or shares a project with them; and what the file belongs to is not in the trash.
 * Anything else is a 404 that tells nothing.
 */
export async function openFile(
  context: AppContext,
  claims: TokenClaims,
): Promise<{ key: string; size: number; stream: Readable; downloadName: string | null }> {
  const key = claims.res;
  const owner = key ? storageKeyOwner(key) : null;
  if (!key || !owner) throw notFound();
  const user = await tokenUser(context.db, claims);
  if (!user) throw notFound();
  if ('project' in owner) {
    await requireProjectRole(context, user.id, owner.project, 'viewer', 'read');
  } else if (owner.user !== user.id && !(await shareAProject(context, user.id, owner.user))) {
    throw notFound();
  }
  // A file of something in the trash is not served (it comes back with a restore).
  if (!(await storedFileIsLive(context, key))) throw notFound();
  const info = await context.storage.stat(key);
  if (!info) throw notFound();
  return {
    key,
    size: info.size,
    stream: await context.storage.read(key),
    downloadName: await downloadName(context, key, 'project' in owner ? owner.project : null),
  };
}

/**
 * The name a data file downloads under (images are shown inline: null): a run's series CSV is named after its
 * subject, video and run (`M3_open-field_movement-2026-11-27_series.csv`).
 */
async function downloadName(context: AppContext, key: string, projectUuid: string | null): Promise<string | null> {
  if (!key.endsWith('.csv') || !projectUuid) return null;
  const [run] = await context.db
    .select({ kind: analyses.kind, createdAt: analyses.createdAt, subject: subjects.name, video: videos.name })
    .from(analyses)
    .innerJoin(subjects, eq(subjects.subjectUuid, analyses.subjectUuid))
    .innerJoin(videos, eq(videos.videoUuid, analyses.videoUuid))
    .where(and(eq(analyses.projectUuid, projectUuid), eq(analyses.seriesCsvKey, key)))
    .limit(1);
  return run
    ? downloadFileName([run.subject, run.video, runNamePart(run), 'series'], 'csv')
    : downloadFileName(
        [
          key
            .split('/')
            .at(-1)
            ?.replace(/\.csv$/, ''),
        ],
        'csv',
      );
}
