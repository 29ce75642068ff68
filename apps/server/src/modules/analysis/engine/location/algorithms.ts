/**
 * The location trackers a run may name (`parameters.algorithm`): the one list the parameter schema, the worker
 * and the docs read. A tracker is added here and nowhere else.
 */
import { BODY_ALGORITHM } from './body-parameters.js';

export const LOCATION_ALGORITHMS = [BODY_ALGORITHM, 'eztrack'] as const;
export type LocationAlgorithm = (typeof LOCATION_ALGORITHMS)[number];

/** What a run uses when it names none: the tracker that finds the body (issue 22). */
export const DEFAULT_LOCATION_ALGORITHM: LocationAlgorithm = BODY_ALGORITHM;
