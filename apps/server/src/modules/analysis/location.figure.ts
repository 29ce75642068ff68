/**
 * A location-tracking run's figures as downloads (issue 22, ADR 025): the track or the heat map over the run's
 * reference picture (a pose-sourced run's: the video's first frame, ADR 037), as PNG or SVG, drawn in a worker thread
 * (a long run's figure takes longer than the event loop may wait) from the stored positions and the picture stored
 * beside them.
 */
import type { AppContext } from '../../context.js';
import { downloadFileName, runNamePart } from '../../lib/download-names.js';
import { badRequest } from '../../lib/errors.js';
import { analysisKeys } from '../../lib/storage-keys.js';
import type { VideoRow } from '../videos/video.lookup.js';
import { findRunOfVideo } from './analysis.read.js';
import type { RunSource } from './analysis.runs.js';
import type { FigureFormat, FigureName } from './engine/location/figure.js';
import { runTask } from './engine/worker-client.js';
import type { LocationParameters } from './location.schemas.js';
import { readTrack } from './location.tracking.js';

export const FIGURE_CONTENT_TYPES: Record<FigureFormat, string> = {
  png: 'image/png',
  svg: 'image/svg+xml; charset=utf-8',
};

const FIGURE_TITLES: Record<FigureName, string> = { track: 'Track', heatmap: 'Occupancy heat map' };

/**
 * The run's picture — a tracked run's reference, a pose-sourced run's first frame (ADR 037) — or null when none was
 * kept (a pose-sourced run made before ADR 037, or whose video could not be decoded): the figure is then on white.
 */
async function readReference(context: AppContext, key: string): Promise<Float32Array | null> {
  if (!(await context.storage.stat(key))) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of await context.storage.read(key)) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  const reference = new Float32Array(bytes.length / 4);
  new Uint8Array(reference.buffer).set(bytes);
  return reference;
}

/** A finished location-tracking run's figure, its content type and its file name. */
export async function locationFigure(
  context: AppContext,
  scope: { subject: { name: string }; video: VideoRow },
  analysisUuid: string,
  name: FigureName,
  format: FigureFormat,
) {
  const run = await findRunOfVideo(context, scope.video, analysisUuid);
  if (run.kind !== 'location_tracking') {
    throw badRequest({ analysis_uuid: ['Figures are drawn for location-tracking runs only.'] });
  }
  if (run.status !== 'succeeded' || !run.seriesKey) {
    throw badRequest({ analysis_uuid: ['This run has not finished, so it has no figures yet.'] });
  }
  const source = run.source as RunSource;
  const parameters = run.parameters as LocationParameters;
  const { x, y } = await readTrack(context, run.seriesKey);
  const reference = await readReference(context, analysisKeys(run).reference);
  const usable = reference && reference.length === source.width * source.height ? reference : null;
  const nameParts = [scope.subject.name, scope.video.name, runNamePart(run), name];
  const { bytes } = await runTask({
    kind: 'location-figure',
    input: {
      name,
      width: source.width,
      height: source.height,
      fps: source.fps,
      x,
      y,
      reference: usable,
      zones: parameters.zones,
      scale: parameters.scale,
    },
    format,
    title: `${FIGURE_TITLES[name]}: ${scope.subject.name}, ${scope.video.name}`,
  });
  return {
    bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    contentType: FIGURE_CONTENT_TYPES[format],
    fileName: downloadFileName(nameParts, format),
  };
}
