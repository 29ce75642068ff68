/**
 * A video as the source of a run or a preview: whether it can be analysed, and the facts every worker needs to
 * decode it the same way.
 */
import { demuxerOf } from '../../adapters/media/input-policy.js';
import type { AppContext } from '../../context.js';
import { badRequest } from '../../lib/errors.js';
import type { VideoRow } from '../videos/video.lookup.js';
import type { RunSource } from './analysis.runs.js';

/**
 * A video is analysable once its original is stored and probed (at the end of its upload): runs decode the
 * original, so they never wait for the thumbnail or the playback copy.
 */
export function requireAnalysable(video: VideoRow) {
  if (video.status === 'uploading' || !video.originalKey) {
    throw badRequest('The video is still being uploaded: analyse it once the upload has finished.');
  }
}

/** ffmpeg opens only videos stored in an allowed container (input-policy.ts); a row from before the list may not be. */
export function requireDecodable(video: VideoRow) {
  if (!demuxerOf(video.container)) {
    throw badRequest(
      `The file is not a video in a container we accept (it is "${video.container ?? 'unknown'}"); upload the camera's own video file.`,
    );
  }
}

/**
 * What every worker needs to decode the video the same way: the facts ffprobe read at upload, or (for videos
 * uploaded before those were kept) a probe now.
 */
export async function probeSource(context: AppContext, video: VideoRow): Promise<RunSource> {
  if (!video.originalKey) throw badRequest('The video has no original file.');
  if (video.pixelFormat !== null && video.fullRange !== null && video.fps && video.width && video.height) {
    return {
      fps: video.fps,
      width: video.width,
      height: video.height,
      pixelFormat: video.pixelFormat,
      fullRange: video.fullRange,
      startTime: video.startTime ?? 0,
      frameCount: video.frameCount ?? 0,
      durationS: video.durationS ?? 0,
      originalKey: video.originalKey,
    };
  }
  const local = await context.storage.localFile(video.originalKey);
  try {
    const facts = await context.media.probe(local.path);
    return {
      fps: facts.fps,
      width: facts.width,
      height: facts.height,
      pixelFormat: facts.pixelFormat,
      fullRange: facts.fullRange,
      startTime: facts.startTime,
      frameCount: facts.frameCount,
      durationS: facts.durationS,
      originalKey: video.originalKey,
    };
  } finally {
    await local.release();
  }
}

export function basicSource(video: VideoRow): RunSource {
  return {
    fps: video.fps ?? 30,
    width: video.width ?? 0,
    height: video.height ?? 0,
    pixelFormat: 'unknown',
    fullRange: false,
    startTime: 0,
    frameCount: video.frameCount ?? 0,
    durationS: video.durationS ?? 0,
    originalKey: video.originalKey ?? '',
  };
}
