/**
 * Location tracking (issue 22): where the animal is, frame by frame. The shapes every tracker shares, so the
 * run (chained pieces: piece i + 1 starts from piece i's hand-off), the preview and the summary do not depend on
 * which algorithm found the position.
 */

/** A position in the video's pixels (x to the right, y down; pixel (c, r) covers [c, c + 1) × [r, r + 1)). */
export interface Point {
  x: number;
  y: number;
}

/** A polygon in the video's pixels, at least 3 points. */
export type Polygon = readonly (readonly [number, number])[];

/** ezTrack's Location Tracking settings (its Individual notebook's names and defaults). */
export interface EztrackParameters {
  /** Percentile (0–100) below which the difference is set to 0. */
  loc_thresh: number;
  use_window: boolean;
  /** Side of the square window around the previous position, in pixels. */
  window_size: number;
  /** 0–1: how much the difference outside the window is weakened. */
  window_weight: number;
  /** "dark": the animal is darker than the arena; "light": lighter; "abs": either. */
  method: 'abs' | 'light' | 'dark';
  rmv_wire: boolean;
  /** Side of the all-ones kernel of the wire-removing grey opening, in pixels. */
  wire_krn: number;
  /** Frames whose per-pixel median is the reference (the empty arena). */
  reference_frames: number;
}

export const EZTRACK_DEFAULTS: EztrackParameters = {
  loc_thresh: 99.5,
  use_window: true,
  window_size: 100,
  window_weight: 0.9,
  method: 'dark',
  rmv_wire: true,
  wire_krn: 5,
  reference_frames: 50,
};

/**
 * What a tracker carries from one frame to the next, as JSON: a piece of a split run saves it after its last
 * frame and the next piece starts from it, so a split run equals a single pass. `previous` is the last position
 * found (null before the first, or after a frame without one).
 */
export interface TrackerHandoff {
  previous: Point | null;
  /** Anything else the algorithm keeps between frames (JSON values only). */
  [key: string]: unknown;
}

/** The picture a tracker works on. */
export interface TrackerFrameShape {
  width: number;
  height: number;
}

export interface FrameTracker {
  /**
   * The position in one full-range gray frame (width × height bytes, row-major, OpenCV's BGR→GRAY values), or
   * null when nothing is found. The buffer is reused by the caller after the call returns.
   */
  track(frame: Uint8Array): Point | null;
  /** The state the next frame would start from (for the next piece). */
  handoff(): TrackerHandoff;
}
