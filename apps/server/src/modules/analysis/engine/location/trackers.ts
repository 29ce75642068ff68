/**
 * Makes a run's tracker from its parameters (`algorithm` and that algorithm's settings), in the worker thread that
 * tracks: exclusion polygons are rasterised here, once per piece.
 */
import type { LocationReferenceTask, TrackerSpec } from '../tasks.js';
import type { LocationAlgorithm } from './algorithms.js';
import { BODY_ALGORITHM, BODY_DEFAULTS, type BodyParameters } from './body-parameters.js';
import { checkReference } from './body-reference.js';
import { createBodyTracker } from './body-tracker.js';
import { createEztrackTracker } from './eztrack.js';
import { polygonsMask } from './polygon-mask.js';
import { EZTRACK_DEFAULTS, type EztrackParameters, type FrameTracker } from './tracker.js';

/** The named settings of `parameters`, each defaulted (a run stores them all; older runs may lack new ones). */
function settings<T extends object>(defaults: T, parameters: Record<string, unknown>): T {
  const out = { ...defaults } as Record<string, unknown>;
  for (const key of Object.keys(defaults)) if (parameters[key] !== undefined) out[key] = parameters[key];
  return out as T;
}

export function createTracker(spec: TrackerSpec): FrameTracker {
  const { width, height, reference, handoff } = spec;
  const exclusionMask = spec.exclusions.length > 0 ? polygonsMask(spec.exclusions, width, height) : null;
  const algorithm = spec.parameters.algorithm as LocationAlgorithm;
  switch (algorithm) {
    case 'body_core':
      return createBodyTracker({
        parameters: settings<BodyParameters>(BODY_DEFAULTS, spec.parameters),
        reference,
        width,
        height,
        exclusionMask,
        handoff,
      });
    case 'eztrack':
      return createEztrackTracker({
        parameters: settings<EztrackParameters>(EZTRACK_DEFAULTS, spec.parameters),
        reference,
        width,
        height,
        exclusionMask,
        handoff,
      });
    default:
      throw new Error(`unknown location algorithm "${String(algorithm)}"`);
  }
}

/** What a note on a reference that held the animal offers instead (the `reference` parameter's choices). */
const OTHER_REFERENCES =
  'For a reference without the animal, take it from a video of the empty arena (recorded with the same camera) or from frames of this video you choose, where the animal is elsewhere.';

/**
 * The reference a run uses: the median as is, or for body_core, repaired where the animal sat through most of its
 * frames (body-reference.ts), with notes saying so for the run's summary.
 */
export function checkedReference(
  frames: readonly Uint8Array[],
  median: Float32Array,
  task: Pick<LocationReferenceTask, 'source'> & { tracker: NonNullable<LocationReferenceTask['tracker']> },
): { reference: Float32Array; notes: string[] } {
  if (task.tracker.parameters.algorithm !== BODY_ALGORITHM) return { reference: median, notes: [] };
  const { width, height } = task.source;
  const check = checkReference({
    reference: median,
    frames,
    width,
    height,
    exclusionMask: task.tracker.exclusions.length > 0 ? polygonsMask(task.tracker.exclusions, width, height) : null,
    parameters: settings<BodyParameters>(BODY_DEFAULTS, task.tracker.parameters),
  });
  if (!check.holdsAnimal) return { reference: median, notes: [] };
  if (check.repaired) {
    return {
      reference: check.repaired,
      notes: [
        `The animal sat still through most of the reference's frames; the reference was repaired where it rested, from the ${check.repairFrames} frames in which it was elsewhere. ${OTHER_REFERENCES}`,
      ],
    };
  }
  return {
    reference: median,
    notes: [
      `The animal sat still through most of the reference's frames, and too few frames show the arena where it rested: positions near that place may be wrong. ${OTHER_REFERENCES}`,
    ],
  };
}
