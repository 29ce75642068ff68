/**
 * The empty-arena reference of ezTrack's Location Tracking (issue 22): the per-pixel median of N frames spread
 * evenly over the video. ezTrack takes `np.median` of frames at `np.linspace(start, end, N)` positions; we take
 * the same spread as whole frame indices, decoded cleanly (the run decodes them; this file only does the maths).
 * The default tracker takes N of the video's keyframes spread the same way instead (ADR 029), which one pass
 * decodes; a frame's hash lets the run check each picture against its own decode.
 */
import { createHash } from 'node:crypto';

/**
 * The frames whose median is the reference: ⌊k·(frameCount − 1)/(n − 1)⌋ for k = 0 … n − 1, with n clipped to
 * the frame count (so the indices never repeat). n = 1 gives frame 0 (np.linspace with num = 1 gives its start);
 * no frames give none.
 */
export function referenceFrameIndices(frameCount: number, n: number): number[] {
  if (!Number.isSafeInteger(frameCount) || frameCount < 0) throw new RangeError(`frame count ${frameCount}`);
  if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`reference frame count ${n}`);
  const count = Math.min(n, frameCount);
  if (count === 0) return [];
  if (count === 1) return [0];
  const span = frameCount - 1;
  const steps = count - 1;
  const indices = new Array<number>(count);
  for (let k = 0; k < count; k++) {
    const product = k * span; // integers: the floor of the division is exact
    indices[k] = (product - (product % steps)) / steps;
  }
  return indices;
}

/**
 * The keyframes a keyframe reference is the median of (ADR 029): n of them spread evenly over the list by
 * position (referenceFrameIndices over the list), so with a regular keyframe interval they are spread evenly over
 * the video's time as ezTrack's frames are. `keyframes` are frame numbers, increasing. Null when there are fewer
 * keyframes than n, or more than `KEYFRAME_REFERENCE_LIMIT` × n (then one pass would decode too many pictures).
 */
export function keyframeReferenceFrames(keyframes: readonly number[], n: number): number[] | null {
  if (keyframes.length < n || keyframes.length > KEYFRAME_REFERENCE_LIMIT * n) return null;
  return referenceFrameIndices(keyframes.length, n).map((i) => keyframes[i] as number);
}

/** At most this many keyframes per reference frame are decoded in the keyframe pass (8 × 50 = 400 pictures). */
export const KEYFRAME_REFERENCE_LIMIT = 8;

/** A decoded picture's fingerprint: the run compares the reference's frames with its own decode of them. */
export function frameHash(frame: Uint8Array): string {
  return createHash('sha256').update(frame).digest('base64url');
}

/** Pixels handled together, so the per-pixel histograms of a block stay in the cache. */
const BLOCK = 2048;

/**
 * The per-pixel median of gray frames (width × height bytes each): the middle value for an odd count, the mean
 * of the two middle values for an even one (as np.median), so every value is a whole or half number, exact in a
 * Float32Array. Per pixel: a 16-bin histogram of the high nibbles finds the bins of the middle ranks, then one
 * more pass over the frames counts the low nibbles inside those bins — about 3 operations per frame and pixel,
 * no sort.
 */
export function medianReference(frames: readonly Uint8Array[], width: number, height: number): Float32Array {
  const count = frames.length;
  const size = width * height;
  if (count === 0) throw new RangeError('a reference needs at least one frame');
  if (count > 0xffff) throw new RangeError('at most 65535 reference frames');
  for (const frame of frames) {
    if (frame.length < size) throw new RangeError(`a frame has ${frame.length} bytes, expected ${size}`);
  }
  const lowRank = (count - 1) >> 1;
  const highRank = count >> 1;
  const out = new Float32Array(size);
  const high = new Uint16Array(BLOCK * 16);
  const lowA = new Uint16Array(16);
  const lowB = new Uint16Array(16);

  for (let start = 0; start < size; start += BLOCK) {
    const end = Math.min(size, start + BLOCK);
    high.fill(0);
    for (let f = 0; f < count; f++) {
      const frame = frames[f] as Uint8Array;
      for (let i = start; i < end; i++) high[((i - start) << 4) | ((frame[i] as number) >> 4)]!++;
    }
    for (let i = start; i < end; i++) {
      const base = (i - start) << 4;
      // The high-nibble bins holding the two middle ranks, and each rank's place inside its bin.
      let binA = 0;
      let before = 0;
      while (before + (high[base + binA] as number) <= lowRank) before += high[base + binA++] as number;
      const rankA = lowRank - before;
      let binB = binA;
      let beforeB = before;
      while (beforeB + (high[base + binB] as number) <= highRank) beforeB += high[base + binB++] as number;
      const rankB = highRank - beforeB;

      lowA.fill(0);
      lowB.fill(0);
      for (let f = 0; f < count; f++) {
        const value = (frames[f] as Uint8Array)[i] as number;
        const bin = value >> 4;
        if (bin === binA) lowA[value & 15]!++;
        if (bin === binB) lowB[value & 15]!++;
      }
      out[i] = (nth(lowA, rankA) + (binA << 4) + nth(lowB, rankB) + (binB << 4)) / 2;
    }
  }
  return out;
}

/** The value (0–15) at `rank` among the counts of a 16-bin histogram. */
function nth(counts: Uint16Array, rank: number): number {
  let value = 0;
  let seen = counts[0] as number;
  while (seen <= rank) seen += counts[++value] as number;
  return value;
}
