/**
 * Clean decode starts of a video, cached per video (ADR 006, issue 9): the keyframe index is read once
 * (ffprobe's packet list) and every proof made is kept, so a video's later runs and previews start at once.
 */
import { eq, sql } from 'drizzle-orm';
import { type CleanStart, findCleanStart, type ProofCache, type SeekIndex } from '../../adapters/media/clean-start.js';
import { prover, readSeekIndex } from '../../adapters/media/clean-start-ffmpeg.js';
import type { MediaInput } from '../../adapters/media/input-policy.js';
import type { AppContext } from '../../context.js';
import { videoSeekIndexes } from '../../db/schema.js';
import { planSegments, type Segment } from './engine/plan.js';

/** The video's keyframe index and the proofs made so far (read from ffprobe the first time). */
async function loadIndex(
  context: AppContext,
  videoUuid: string,
  input: MediaInput,
  signal?: AbortSignal,
): Promise<{ index: SeekIndex; proofs: ProofCache }> {
  const read = async () => {
    const [row] = await context.db.select().from(videoSeekIndexes).where(eq(videoSeekIndexes.videoUuid, videoUuid));
    return row;
  };
  let row = await read();
  if (!row) {
    const index = await readSeekIndex(context.media.binaries.ffprobe, input, signal);
    // Two runs may read it at once: the first insert wins, both then use the stored one.
    await context.db.insert(videoSeekIndexes).values({ videoUuid, seekIndex: index, proofs: {} }).onConflictDoNothing();
    row = await read();
    if (!row) return { index, proofs: new Map() };
  }
  const stored = row.proofs as Record<string, CleanStart | false>;
  return { index: row.seekIndex as SeekIndex, proofs: new Map(Object.entries(stored)) };
}

/**
 * For each frame of `leads`, the latest proven clean start from which a decode gives that frame and all after
 * it (null: none among the few candidates tried — see candidateProofs). New proofs are stored for next time.
 */
export async function cleanStartsFor(
  context: AppContext,
  video: { videoUuid: string },
  input: MediaInput,
  fps: number,
  leads: readonly number[],
  signal?: AbortSignal,
): Promise<(CleanStart | null)[]> {
  const { index, proofs } = await loadIndex(context, video.videoUuid, input, signal);
  const known = new Set(proofs.keys());
  const prove = prover(context.media.binaries.ffmpeg, input, index, fps, signal);
  const starts: (CleanStart | null)[] = [];
  for (const lead of leads) starts.push(await findCleanStart(index, lead, proofs, prove));
  const fresh = Object.fromEntries([...proofs].filter(([key]) => !known.has(key)));
  if (Object.keys(fresh).length > 0) {
    await context.db
      .update(videoSeekIndexes)
      .set({ proofs: sql`${videoSeekIndexes.proofs} || ${JSON.stringify(fresh)}::jsonb` })
      .where(eq(videoSeekIndexes.videoUuid, video.videoUuid));
  }
  return starts;
}

/** How a run of `frameCount` frames is cut with this server's settings (before clean starts are applied). */
export function plannedSegments(context: AppContext, frameCount: number, fps: number): Segment[] {
  const segmentFrames = Math.max(1, Math.round(context.config.analysisSegmentSeconds * fps));
  return planSegments(frameCount, {
    parallelism: context.config.analysisWorkers,
    maxSegmentFrames: segmentFrames,
    minSegmentFrames: Math.min(300, segmentFrames),
  });
}

/**
 * Reads the video's keyframe index and proves the starts its runs will need with this server's settings, when the
 * video is processed — so a run's creation finds them cached and starts at once. Errors are the caller's to log:
 * a run proves what is missing itself.
 */
export async function prepareCleanStarts(
  context: AppContext,
  video: { videoUuid: string },
  input: MediaInput,
  facts: { frameCount: number; fps: number },
  signal?: AbortSignal,
): Promise<void> {
  const planned = plannedSegments(context, facts.frameCount, facts.fps);
  const leads = planned.slice(1).map((segment) => segment.startFrame - 1);
  // One segment: nothing to prove (a later run with other settings reads the index then).
  if (leads.length === 0) return;
  await cleanStartsFor(context, video, input, facts.fps, leads, signal);
}
