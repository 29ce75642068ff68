/**
 * The default location tracker's settings (issue 22, ADR 024): `body_core` finds the animal's body, not the
 * darkest change. Every number has a range the API checks and a default that needs no tuning.
 */

/** The name of the default algorithm, as `parameters.algorithm`. */
export const BODY_ALGORITHM = 'body_core';

export interface BodyParameters {
  /** Which way the animal differs from the arena: "auto" takes it from the first animal found and keeps it. */
  polarity: 'auto' | 'dark' | 'light';
  /** A pixel block is changed when it differs from the reference by more than this many robust noise SDs. */
  noise_k: number;
  /** …and by at least this many grey levels (the floor when the picture is almost noiseless). */
  min_contrast: number;
  /** The body core: pixels whose distance to the background is at least this fraction of the largest. */
  core_fraction: number;
  /** The smallest area, in pixels, a changed region needs to be the animal. */
  min_area: number;
  /** How far from the previous position, in body lengths, a region still counts as the same animal. */
  reach: number;
  /** Frames whose per-pixel median is the reference (as ezTrack's). */
  reference_frames: number;
}

export const BODY_DEFAULTS: BodyParameters = {
  polarity: 'auto',
  noise_k: 6,
  min_contrast: 12,
  core_fraction: 0.4,
  min_area: 150,
  reach: 1.5,
  reference_frames: 50,
};

/** Inclusive ranges of the numeric settings; `integer` ones must be whole numbers. */
export const BODY_RANGES: Record<
  Exclude<keyof BodyParameters, 'polarity'>,
  { min: number; max: number; integer: boolean }
> = {
  noise_k: { min: 2, max: 50, integer: false },
  min_contrast: { min: 1, max: 128, integer: false },
  core_fraction: { min: 0.1, max: 0.9, integer: false },
  min_area: { min: 4, max: 1_000_000, integer: true },
  reach: { min: 0.25, max: 10, integer: false },
  reference_frames: { min: 3, max: 500, integer: true },
};

export const BODY_POLARITIES = ['auto', 'dark', 'light'] as const;
