/**
 * The preview of a location-tracking run (issue 22): the run's parameters checked as a run's are, the video's
 * reference for them (cached per video and reference setting: location.reference.ts), then a few seconds tracked
 * in a worker thread by the run's own tracker — positions and a picture of the last frame with the zones and the
 * tracked point.
 */
import { DecodeErrorReport, FILE_START } from '../../adapters/media/clean-start.js';
import type { AppContext } from '../../context.js';
import { badRequest } from '../../lib/errors.js';
import type { VideoRow } from '../videos/video.lookup.js';
import { openMediaInput } from './analysis.media-input.js';
import { probeSource } from './analysis.source.js';
import { cleanStartsFor } from './clean-starts.js';
import { runTask } from './engine/worker-client.js';
import { checkLocationParameters, locationReference } from './location.reference.js';

const undecodable = (error: unknown) => {
  if (error instanceof DecodeErrorReport) {
    throw badRequest(`The video cannot be decoded cleanly here (${error.lines[0]}): its positions would be wrong.`);
  }
  throw error;
};

export async function locationPreview(
  context: AppContext,
  video: VideoRow,
  window: { parameters: unknown; start_s: number; length_s: number },
) {
  const { parameters, notices } = await checkLocationParameters(context, video, window.parameters);
  if (parameters.source !== null) {
    throw badRequest({
      'parameters.source': [
        "A preview shows the video tracker at work; positions from a pose set's body part need none: run it.",
      ],
    });
  }
  const source = await probeSource(context, video);
  const startFrame = Math.min(Math.round(window.start_s * source.fps), Math.max(0, source.frameCount - 1));
  const endFrame = Math.min(source.frameCount, startFrame + Math.max(1, Math.round(window.length_s * source.fps)));
  const started = performance.now();
  const local = await openMediaInput(context, { originalKey: source.originalKey, container: video.container });
  try {
    const reference = await locationReference(context, video, source, local.input, parameters).catch(undecodable);
    // The window decodes from a proven clean start before it; without one near, from the file's start.
    const [start] =
      startFrame > 0 ? await cleanStartsFor(context, video, local.input, source.fps, [startFrame - 1]) : [];
    const result = await runTask({
      kind: 'location-preview',
      ffmpeg: context.media.binaries.ffmpeg,
      source: { ...source, ...local.input },
      startFrame,
      endFrame,
      start: start ?? FILE_START,
      bypass_ranges: parameters.bypass_ranges,
      tracker: {
        parameters,
        width: source.width,
        height: source.height,
        reference: reference.reference,
        exclusions: parameters.exclusions.map((region) => region.points),
        handoff: null,
      },
      zones: parameters.zones,
    }).catch(undecodable);
    const position = (values: Float64Array) => Array.from(values, (v) => (Number.isNaN(v) ? null : v));
    return {
      kind: 'location_tracking' as const,
      start_s: startFrame / source.fps,
      fps: source.fps,
      frames: Array.from(result.x, (_, i) => startFrame + i),
      x: position(result.x),
      y: position(result.y),
      image: `data:image/png;base64,${Buffer.from(result.png).toString('base64')}`,
      reference: { cached: reference.cached, notes: reference.notes },
      elapsed_ms: Math.round(performance.now() - started),
      notices,
    };
  } finally {
    await local.release();
  }
}
