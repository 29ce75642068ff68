/**
 * The location trackers a run may name (`parameters.algorithm`): the one list the parameter schema, the worker
 * and the docs read. A tracker is added here and nowhere else.
 */
export const LOCATION_ALGORITHMS = ['eztrack'] as const;
export type LocationAlgorithm = (typeof LOCATION_ALGORITHMS)[number];

/** What a run uses when it names none. */
export const DEFAULT_LOCATION_ALGORITHM: LocationAlgorithm = 'eztrack';
