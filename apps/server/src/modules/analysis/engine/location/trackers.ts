/**
 * Makes a run's tracker from its parameters (`algorithm` and that algorithm's settings), in the worker thread that
 * tracks: exclusion polygons are rasterised here, once per piece.
 */
import type { TrackerSpec } from '../tasks.js';
import type { LocationAlgorithm } from './algorithms.js';
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
