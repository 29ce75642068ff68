/**
 * The stored form of a pose set: one file of little-endian Float32, no header (the row says what it holds).
 *
 * Frames are cut into blocks of BLOCK_FRAMES; inside a block the values are columnar — for each keypoint (in the row's
 * `keypoints` order) x of the block's frames, then y, then likelihood. A window of frames for the player is one
 * contiguous byte range (one read, also on S3), and a whole body part's series is a read of the file without
 * reshuffling rows. NaN marks a missing point (or a missing likelihood).
 *
 * Why Float32: image coordinates stay below 2^14 px, where Float32 keeps better than 0.001 px, and likelihoods in [0, 1]
 * keep about 7 digits — far finer than any pose estimator's error, at half the size of Float64 (an hour at 30 fps with
 * 2 × 13 keypoints is 34 MB instead of 67 MB).
 */

export const BLOCK_FRAMES = 1024;
/** x, y, likelihood. */
export const CHANNELS = 3;

/** A pose set laid over the video's frames: values[k * 3 + c] is keypoint k's channel c for every frame. */
export interface PoseColumns {
  frameCount: number;
  keypointCount: number;
  values: Float32Array[];
}

/** Byte offset of a frame block's start. */
export function blockOffset(block: number, keypointCount: number): number {
  return block * BLOCK_FRAMES * keypointCount * CHANNELS * 4;
}

/** The bytes of the stored file, block by block (each chunk is one block, ready to write). */
export function* encodeBlocks(columns: PoseColumns): Generator<Uint8Array> {
  const { frameCount, keypointCount, values } = columns;
  for (let start = 0; start < frameCount; start += BLOCK_FRAMES) {
    const length = Math.min(BLOCK_FRAMES, frameCount - start);
    const block = new Float32Array(length * keypointCount * CHANNELS);
    for (let series = 0; series < values.length; series++) {
      block.set(values[series]!.subarray(start, start + length), series * length);
    }
    yield littleEndianBytes(block);
  }
}

function littleEndianBytes(values: Float32Array): Uint8Array {
  const bytes = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  if (new Uint8Array(new Uint16Array([1]).buffer)[0] === 1) return bytes;
  const swapped = new Uint8Array(values.byteLength);
  const view = new DataView(swapped.buffer);
  for (let i = 0; i < values.length; i++) view.setFloat32(i * 4, values[i]!, true);
  return swapped;
}

export function storedSize(frameCount: number, keypointCount: number): number {
  return frameCount * keypointCount * CHANNELS * 4;
}

/** The byte range (inclusive end) that holds frames [start, start + count). */
export function frameWindowRange(frameCount: number, keypointCount: number, start: number, count: number) {
  const first = Math.floor(start / BLOCK_FRAMES);
  const last = Math.floor((start + count - 1) / BLOCK_FRAMES);
  const end = Math.min(frameCount, (last + 1) * BLOCK_FRAMES);
  return {
    firstBlock: first,
    lastBlock: last,
    start: blockOffset(first, keypointCount),
    end: blockOffset(first, keypointCount) + (end - first * BLOCK_FRAMES) * keypointCount * CHANNELS * 4 - 1,
  };
}

/**
 * Reads frames [start, start + count) out of the bytes of whole blocks starting at block `firstBlock`:
 * `at(frame, keypoint, channel)` answers the value.
 */
export function decodeWindow(bytes: Uint8Array, frameCount: number, keypointCount: number, firstBlock: number) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return (frame: number, keypoint: number, channel: number): number => {
    const block = Math.floor(frame / BLOCK_FRAMES);
    const blockStart = block * BLOCK_FRAMES;
    const length = Math.min(BLOCK_FRAMES, frameCount - blockStart);
    const offset =
      blockOffset(block, keypointCount) -
      blockOffset(firstBlock, keypointCount) +
      ((keypoint * CHANNELS + channel) * length + (frame - blockStart)) * 4;
    return view.getFloat32(offset, true);
  };
}

/** Every value of a stored file back as columns (exports, and later the derived series). */
export function decodeAll(bytes: Uint8Array, frameCount: number, keypointCount: number): PoseColumns {
  const values = Array.from({ length: keypointCount * CHANNELS }, () => new Float32Array(frameCount));
  const at = decodeWindow(bytes, frameCount, keypointCount, 0);
  for (let start = 0; start < frameCount; start += BLOCK_FRAMES) {
    const length = Math.min(BLOCK_FRAMES, frameCount - start);
    for (let s = 0; s < values.length; s++) {
      const column = values[s]!;
      const k = Math.floor(s / CHANNELS);
      const c = s % CHANNELS;
      for (let f = start; f < start + length; f++) column[f] = at(f, k, c);
    }
  }
  return { frameCount, keypointCount, values };
}

/**
 * The shortest decimal text that reads back as the same Float32 (123.45679, not 123.456787109375): exports write
 * what was stored, and importing them again gives the same values. Six significant digits first (most points need
 * 6–8; the Number round trip drops trailing zeros, so 0.5 stays "0.5"), up to the 9 that every Float32 needs at most.
 */
export function float32Text(value: number): string {
  if (!Number.isFinite(value)) return '';
  for (let digits = 6; digits <= 9; digits++) {
    const shortest = Number(value.toPrecision(digits));
    if (Math.fround(shortest) === value) return String(shortest);
  }
  return String(value);
}
