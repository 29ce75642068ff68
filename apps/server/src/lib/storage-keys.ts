/**
 * Every storage key and storage prefix the app uses is built here, and only here (a test greps the source for
 * keys built elsewhere). Keys name the project and the video, never the subject: moving a video to another subject
 * changes rows only, never a file. See docs/decisions/004-video-pipeline.md ("Where files live").
 *
 *   projects/{project}/logo/{name}                                    the project's logo
 *   projects/{project}/videos/{video}/original{.ext}                  the upload as received
 *   projects/{project}/videos/{video}/playback.mp4 | thumbnail.jpg    made by the processing job
 *   projects/{project}/videos/{video}/playback-pieces/{i}.mp4        the copy's pieces until they are joined
 *   projects/{project}/videos/{video}/analyses/{run}/series.f64 | times.f64 | series.csv | segments/{i}.f64
 *   projects/{project}/videos/{video}/location-references/{id}.f32 | {id}.json   references cached per setting
 *   projects/{project}/videos/{video}/pose/{pose}/points.f32          an imported pose set's points
 *   projects/{project}/suggestion-models/{model}.json                a trained suggestion model (ADR 038)
 *   users/{id}/avatar-{name}
 *
 * Installations from before migration 0010 kept a video's files under its subject
 * (`projects/{p}/subjects/{s}/videos/{v}/`). Those rows record where their files are (the keys on the video and
 * run rows, and `videos.legacy_storage_prefix`, which never changes), so they keep working where they are.
 */
import path from 'node:path';

/** Everything a project owns: deleting the project removes this prefix. */
export const projectStoragePrefix = (projectUuid: string) => `projects/${projectUuid}/`;

/** The project's logo; the name is the image's own file name (with a random part, so caches never go stale). */
export const projectLogoKey = (projectUuid: string, imageName: string) =>
  `${projectStoragePrefix(projectUuid)}logo/${imageName}`;

export const userAvatarKey = (userId: number, imageName: string) => `users/${userId}/avatar-${imageName}`;

/** A trained suggestion model's forests (ADR 038): the project's, so deleting the project removes them. */
export const suggestionModelKey = (projectUuid: string, modelUuid: string) =>
  `${projectStoragePrefix(projectUuid)}suggestion-models/${modelUuid}.json`;

/** Everything a video owns (its files and its runs' files) — the same whichever subject the video belongs to. */
export const videoStoragePrefix = (video: { projectUuid: string; videoUuid: string }) =>
  `${projectStoragePrefix(video.projectUuid)}videos/${video.videoUuid}/`;

/** Where a video stored before migration 0010 kept its files (as the migration recorded it; never built anew). */
export const legacyVideoStoragePrefix = (projectUuid: string, subjectUuid: string, videoUuid: string) =>
  `${projectStoragePrefix(projectUuid)}subjects/${subjectUuid}/videos/${videoUuid}/`;

/**
 * Every prefix that may hold a video's files: the current layout's, and the subject-based one recorded on
 * videos stored before migration 0010 (a run made since then writes under the current one).
 */
export const videoStoragePrefixes = (video: {
  projectUuid: string;
  videoUuid: string;
  legacyStoragePrefix: string | null;
}): string[] => [videoStoragePrefix(video), ...(video.legacyStoragePrefix ? [video.legacyStoragePrefix] : [])];

/** Keys of a video's own files. The original keeps its extension (`original.avi`) so tools can tell the type. */
export function videoKeys(video: { projectUuid: string; videoUuid: string }, originalExtension: string) {
  const prefix = videoStoragePrefix(video);
  return {
    original: `${prefix}original${originalExtension}`,
    thumbnail: `${prefix}thumbnail.jpg`,
    playback: `${prefix}playback.mp4`,
  };
}

/** Where the pieces of a video's playback copy wait to be joined (removed after the join). */
export function playbackPieceKeys(video: { projectUuid: string; videoUuid: string }) {
  const prefix = `${videoStoragePrefix(video)}playback-pieces/`;
  return { prefix, piece: (index: number) => `${prefix}${index}.mp4` };
}

/**
 * A video's location-tracking reference for one reference setting (`id`, a digest of what the reference depends
 * on: location.reference.ts), shared by the video's previews and runs: the picture (Float32 per pixel) and, beside
 * it, the notes its check made (JSON). Under the video's prefix, so it goes with the video.
 */
export function locationReferenceKeys(video: { projectUuid: string; videoUuid: string }, id: string) {
  const prefix = `${videoStoragePrefix(video)}location-references/`;
  return { prefix, picture: `${prefix}${id}.f32`, notes: `${prefix}${id}.json`, frames: `${prefix}${id}.frames.json` };
}

/**
 * An imported pose set's files (modules/pose/pose-file.ts describes `points`), in a folder of its own under the video's
 * prefix: deleting the set removes the folder, deleting (purging) the video removes it with the video's other files.
 */
export function poseSetKeys(set: { projectUuid: string; videoUuid: string; poseUuid: string }) {
  const prefix = `${videoStoragePrefix(set)}pose/${set.poseUuid}/`;
  return { prefix, points: `${prefix}points.f32` };
}

/** Everything a run owns, under its video (deleting the video removes it). */
export const analysisStoragePrefix = (run: { projectUuid: string; videoUuid: string; analysisUuid: string }) =>
  `${videoStoragePrefix(run)}analyses/${run.analysisUuid}/`;

/**
 * Every prefix that may hold a run's files: the current layout's, and the folder of its series when the run was
 * stored before migration 0010 under its video's subject-based prefix (only a folder named after the run).
 */
export function analysisStoragePrefixes(run: {
  projectUuid: string;
  videoUuid: string;
  analysisUuid: string;
  seriesKey: string | null;
}): string[] {
  const current = analysisStoragePrefix(run);
  const folder = run.seriesKey ? run.seriesKey.slice(0, run.seriesKey.lastIndexOf('/') + 1) : current;
  const legacy = folder !== current && folder.endsWith(`/analyses/${run.analysisUuid}/`) ? [folder] : [];
  return [current, ...legacy];
}

/**
 * The project and video a stored key belongs to (either layout), read back from the key; null for keys outside
 * `projects/` (avatars).
 */
export function ownersOfKey(key: string): { projectUuid: string; videoUuid: string | null } | null {
  const match = /^projects\/([0-9a-f-]{36})\/(?:(?:subjects\/[0-9a-f-]{36}\/)?videos\/([0-9a-f-]{36})\/)?/.exec(key);
  return match ? { projectUuid: match[1]!, videoUuid: match[2] ?? null } : null;
}

/** Keys of a run's outputs: the series (Float64 values, times when imported with its own), its CSV, its segments. */
export function analysisKeys(run: { projectUuid: string; videoUuid: string; analysisUuid: string }) {
  const prefix = analysisStoragePrefix(run);
  return {
    prefix,
    series: `${prefix}series.f64`,
    times: `${prefix}times.f64`,
    seriesCsv: `${prefix}series.csv`,
    /** A location-tracking run's positions: x of every frame, then y (Float64, NaN = none). */
    track: `${prefix}track.f64`,
    /**
     * A location-tracking run's reference picture (Float32 per pixel), computed once for all its pieces; for a run
     * from a pose body part, the video's first frame (ADR 037). The figures are drawn over it.
     */
    reference: `${prefix}reference.f32`,
    /** What the reference's check found (JSON notes for the run's summary), beside it. */
    referenceNotes: `${prefix}reference.json`,
    /** Which frames the reference is the median of, with their hashes while the run must still check them. */
    referenceFrames: `${prefix}reference-frames.json`,
    segmentsPrefix: `${prefix}segments/`,
    segment: (index: number) => `${prefix}segments/${index}.f64`,
  };
}

/** Whose a stored file is: a project's (everything under `projects/{uuid}/`) or a user's (`users/{id}/avatar-*`). */
export type StorageKeyOwner = { project: string } | { user: number };

/**
 * The one place that reads the owner back from a key (the inverse of the builders above), for `/api/files/`'s
 * check on every request. Null for anything else — a key no builder here makes, or one with `..` or empty parts.
 */
export function storageKeyOwner(key: string): StorageKeyOwner | null {
  const parts = key.split('/');
  if (parts.some((part) => part === '' || part === '.' || part === '..')) return null;
  const [root, id, ...rest] = parts;
  if (!id || rest.length === 0) return null;
  if (root === 'projects' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) {
    return { project: id.toLowerCase() };
  }
  if (root === 'users' && /^[1-9][0-9]{0,15}$/.test(id) && rest.length === 1 && rest[0]!.startsWith('avatar-')) {
    const user = Number(id);
    return Number.isSafeInteger(user) ? { user } : null;
  }
  return null;
}

/**
 * Local working folders (never in storage), all under DATA_DIR/tmp (S3's `localFile()` downloads go there too).
 * `tus` holds resumable uploads' parts, `uploads` whole multipart uploads; the others are one job's scratch space.
 */
export const localTempDir = (dataDir: string) => path.join(dataDir, 'tmp');
export const tusPartsDir = (dataDir: string) => path.join(localTempDir(dataDir), 'tus');
export const multipartUploadsDir = (dataDir: string) => path.join(localTempDir(dataDir), 'uploads');
export const jobWorkDir = (dataDir: string, kind: 'job' | 'import' | 'analysis' | 'playback', id: string) =>
  path.join(localTempDir(dataDir), `${kind}-${id}`);
