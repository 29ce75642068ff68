/**
 * Freezing in the manner of ezTrack's freezing module: a frame is still when its value (motion) is valid and
 * at or below freeze_threshold; a run of consecutive still frames is freezing only when it lasts at least
 * min_freeze_s, i.e. spans at least max(1, ceil(min_freeze_s × fps)) frames (1e-9 tolerance so that 0.5 s at
 * 30 fps is 15 frames, not 16). A NaN (bypassed) frame breaks a run and is not a valid frame.
 *
 * Percentages are freezing frames / valid frames × 100, overall and per time bin [k·bin_s, (k+1)·bin_s) over
 * the duration values.length / fps (the last bin ends at the duration); frame i falls in the bin of time i / fps.
 */

export interface FreezingParameters {
  freeze_threshold: number;
  min_freeze_s: number;
  bin_s: number;
}

export interface FreezingSummary {
  /** Freezing frames / valid frames × 100, null when no valid frame. */
  percent: number | null;
  freezing_frames: number;
  valid_frames: number;
  bins: { start_s: number; end_s: number; percent: number | null }[];
}

/** Absorbs decimal-to-binary error, e.g. 0.3 s / 0.1 s = 2.9999999999999996 must be bin 3. */
const EPSILON = 1e-9;

export function freezingSummary(values: Float64Array, fps: number, parameters: FreezingParameters): FreezingSummary {
  if (!(fps > 0) || !Number.isFinite(fps)) throw new RangeError(`fps must be a positive number, got ${fps}.`);
  const { freeze_threshold: threshold, min_freeze_s: minFreezeS, bin_s: binS } = parameters;
  if (!(binS > 0) || !Number.isFinite(binS)) throw new RangeError(`bin_s must be a positive number, got ${binS}.`);

  const count = values.length;
  const minRunFrames = Math.max(1, Math.ceil(minFreezeS * fps - EPSILON));
  const duration = count / fps;
  const binCount = count === 0 ? 0 : Math.max(1, Math.ceil(duration / binS - EPSILON));
  const lastBin = binCount - 1;
  const validPerBin = new Float64Array(binCount);
  const freezingPerBin = new Float64Array(binCount);
  const binOf = (frame: number) => Math.min(lastBin, Math.floor(frame / fps / binS + EPSILON));

  let validFrames = 0;
  let freezingFrames = 0;
  let runStart = 0;
  let runLength = 0;

  // Each frame is visited once here and at most once more when the run it ends is credited: O(n).
  const creditRun = () => {
    if (runLength < minRunFrames) return;
    freezingFrames += runLength;
    for (let frame = runStart; frame < runStart + runLength; frame++) freezingPerBin[binOf(frame)]! += 1;
  };

  for (let i = 0; i < count; i++) {
    const value = values[i]!;
    const valid = !Number.isNaN(value);
    if (valid) {
      validFrames++;
      validPerBin[binOf(i)]! += 1;
    }
    if (valid && value <= threshold) {
      if (runLength === 0) runStart = i;
      runLength++;
    } else {
      creditRun();
      runLength = 0;
    }
  }
  creditRun();

  const bins: FreezingSummary['bins'] = [];
  for (let bin = 0; bin < binCount; bin++) {
    const valid = validPerBin[bin]!;
    bins.push({
      start_s: bin * binS,
      end_s: Math.min((bin + 1) * binS, duration),
      percent: valid === 0 ? null : (freezingPerBin[bin]! / valid) * 100,
    });
  }

  return {
    percent: validFrames === 0 ? null : (freezingFrames / validFrames) * 100,
    freezing_frames: freezingFrames,
    valid_frames: validFrames,
    bins,
  };
}
