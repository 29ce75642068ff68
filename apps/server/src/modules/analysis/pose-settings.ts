/**
 * The settings every run that reads a pose set takes for its points (ADR 032): the likelihood below which a point is
 * missing, and the longest run of missing frames filled by interpolation; and how a run names a body part (ADR 037).
 * Apart, so parameter schemas and the runs' answers can take them without the runs' machinery.
 */
import { z } from 'zod';

export const likelihoodCutoff = z
  .number({ error: 'likelihood_cutoff must be a number.' })
  .min(0, 'Must be between 0 and 1.')
  .max(1, 'Must be between 0 and 1.')
  .default(0.6);
export const maxGapFrames = z
  .int({ error: 'max_gap_frames must be a whole number of frames.' })
  .min(0, 'Must be 0 or more.')
  .max(100_000, 'Must be at most 100000.')
  .default(5);

/**
 * A body part as a run names it (ADR 037): a name — a part of the run's `individual` (or of the set's only one) —
 * or `{individual, part}`, a part of the individual it names, so one measure can take parts of different individuals
 * (an animal's nose and a multi-animal DeepLabCut file's unique `single` object, or two animals' noses).
 */
export type PartRequest = string | { individual: string; part: string };

/** A body part with its individual: one keypoint of a set. */
export interface NamedPart {
  individual: string;
  part: string;
}

/** Each requested part with its individual: a bare name belongs to `individual`. */
export function namedParts(requested: { individual?: string; parts: PartRequest[] }): NamedPart[] {
  return requested.parts.map((entry) =>
    typeof entry === 'string' ? { individual: requested.individual ?? '', part: entry } : entry,
  );
}
