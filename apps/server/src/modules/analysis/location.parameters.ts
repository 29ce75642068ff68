/**
 * A location-tracking run's parameters checked against its video: the schema's rules (location.schemas.ts), then
 * what needs the picture — every polygon point inside it, the window and the wire kernel no larger than it, the
 * reference's frames within memory, chosen reference frames inside the video — and bypass ranges cut at the video's
 * end. A reference from another video is checked against the project by `checkReferenceVideo` (location.reference.ts).
 */
import { badRequest } from '../../lib/errors.js';
import { clipTimeRanges } from '../../lib/time-ranges.js';
import type { VideoRow } from '../videos/video.lookup.js';
import { parameterErrors } from './analysis.parameter-errors.js';
import { type LocationParameters, locationParameters, MAX_REFERENCE_BYTES } from './location.schemas.js';

type Polygon = readonly (readonly [number, number])[];

/** The first point of the polygon outside [0, width] × [0, height], as "point 3 (400, 10)", or null. */
function pointOutside(points: Polygon, width: number, height: number): string | null {
  const index = points.findIndex(([x, y]) => !(x >= 0 && y >= 0 && x <= width && y <= height));
  if (index === -1) return null;
  const [x, y] = points[index]!;
  return `point ${index + 1} (${x}, ${y})`;
}

/** Why a scale's drawn line does not fit the picture ("The scale line's end 2 (700, 10) lies outside …"), or null. */
export function scaleLineOutside(
  scale: { line?: readonly (readonly [number, number])[] },
  video: Pick<VideoRow, 'width' | 'height'>,
): string | null {
  if (!scale.line) return null;
  const width = video.width ?? 0;
  const height = video.height ?? 0;
  const outside = pointOutside(scale.line, width, height);
  return outside
    ? `The scale line's ${outside.replace('point', 'end')} lies outside the ${width}×${height} picture.`
    : null;
}

/** What the video tracker's settings must fit in the picture: exclusions inside it, the window, the kernel, memory. */
function checkTrackerSettings(
  parameters: LocationParameters,
  video: Pick<VideoRow, 'width' | 'height' | 'frameCount'>,
  add: (field: string, message: string) => void,
) {
  const width = video.width ?? 0;
  const height = video.height ?? 0;
  const picture = `the ${width}×${height} picture`;
  parameters.exclusions.forEach((region, index) => {
    const outside = pointOutside(region.points, width, height);
    if (outside) add('exclusions', `Exclusion region ${index + 1}: ${outside} lies outside ${picture}.`);
  });
  if (parameters.window_size > Math.max(width, height)) {
    add('window_size', `Must be at most ${Math.max(width, height)}, the larger side of ${picture}.`);
  }
  if (parameters.wire_krn > Math.min(width, height)) {
    add('wire_krn', `Must be at most ${Math.min(width, height)}, the smaller side of ${picture}.`);
  }
  const maxFrames = Math.floor(MAX_REFERENCE_BYTES / Math.max(1, width * height));
  if (parameters.reference_frames > maxFrames) {
    add('reference_frames', `At most ${maxFrames} frames of ${picture} fit in the reference's memory.`);
  }
  const chosen = parameters.reference?.frames;
  if (chosen) {
    const frameCount = video.frameCount ?? 0;
    const outside = chosen.find((frame) => frame < 0 || frame >= frameCount);
    const twice = chosen.find((frame, index) => chosen.indexOf(frame) !== index);
    if (outside !== undefined) {
      add('reference.frames', `Frame ${outside} is not in the video: its frames are 0 to ${frameCount - 1}.`);
    } else if (twice !== undefined) add('reference.frames', `Frame ${twice} is listed twice.`);
    if (chosen.length > maxFrames) add('reference.frames', `At most ${maxFrames} frames of ${picture} fit in memory.`);
  }
}

export function parseLocationParameters(
  raw: unknown,
  video: Pick<VideoRow, 'width' | 'height' | 'durationS' | 'frameCount'>,
): { parameters: LocationParameters; notices: string[] } {
  const parsed = locationParameters.safeParse(raw);
  if (!parsed.success) throw parameterErrors(parsed.error);
  const parameters = parsed.data;
  const width = video.width ?? 0;
  const height = video.height ?? 0;
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => {
    errors[`parameters.${field}`] = [...(errors[`parameters.${field}`] ?? []), message];
  };
  const picture = `the ${width}×${height} picture`;
  parameters.zones.forEach((zone, index) => {
    const outside = pointOutside(zone.points, width, height);
    if (outside) add('zones', `Zone ${index + 1} ("${zone.name}"): ${outside} lies outside ${picture}.`);
  });
  const lineOutside = parameters.scale ? scaleLineOutside(parameters.scale, video) : null;
  if (lineOutside) add('scale.line', lineOutside);
  // The video tracker's own settings; a pose body part's positions take none of them (ADR 037).
  if (parameters.source === null) checkTrackerSettings(parameters, video, add);
  if (Object.keys(errors).length > 0) throw badRequest(errors);
  // The chosen frames in decoding order (the median does not depend on it).
  const chosen = parameters.reference?.frames;
  if (chosen) parameters.reference = { frames: [...chosen].sort((a, b) => a - b) };
  // Bypass ranges past the end are cut to the video (the run keeps what it used), and the answer says so.
  const bypass = clipTimeRanges(parameters.bypass_ranges, video.durationS);
  return { parameters: { ...parameters, bypass_ranges: bypass.ranges }, notices: bypass.notices };
}
