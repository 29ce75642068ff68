/**
 * Intensity-change movement detection on 8-bit gray frames (product brief, "Algorithms"), defined to equal what
 * a lab computes with OpenCV in a notebook, value for value (ADR 006; opencv.test.ts compares with OpenCV itself):
 *
 * 1. `cv2.blur(gray, (3, 3))`: each pixel becomes the mean of its 3×3 neighbourhood, rounded to the nearest
 *    integer (round(sum / 9); a ninth never ends in exactly .5), with OpenCV's default border BORDER_REFLECT_101
 *    (the pixel beyond the edge mirrors the one inside it: pixel −1 is pixel 1);
 * 2. `cv2.absdiff(blurred, previous_blurred) > threshold`: a pixel is changed when its blurred value differs from
 *    the previous frame's by more than `threshold` (strictly);
 * 3. only pixels inside the ROI active for the frame can be changed; everything after this step works on the
 *    ROI alone, with pixels outside it counting as unchanged. The blur reads one pixel beyond the ROI, so the
 *    decode may be cropped to the ROIs' bounding box plus a one-pixel margin (plan.ts): where that margin exists it
 *    holds the real neighbours, and where the crop meets the picture's edge the reflection happens at that same
 *    edge, so the result inside the ROI is exactly the whole-frame one;
 * 4. optional opening, then closing, with a k×k square (k = 0 or 1: off), and removal of 8-connected changed
 *    regions smaller than `small_object_removal` pixels;
 * 5. the frame's value is the number of changed pixels left.
 *
 * Allocation-free per frame: this runs in worker threads at the speed of decoding.
 */
import { alignToVector, instantiateKernel, KERNEL_PAD, type Kernel } from './kernel.js';
import { closeInKernel, layoutMaskBuffers, type MaskBuffers, openInKernel } from './morphology.js';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface IntensityParameters {
  /** A whole number 0–255: the kernel compares bytes. */
  threshold: number;
  opening: number;
  closing: number;
  small_object_removal: number;
}

/**
 * Decoded H.264 luma is limited range (16–235). This maps it to 0–255 exactly as ffmpeg's own conversion to
 * gray does (checked value for value against `-pix_fmt gray` for all 256 inputs), so reading the Y plane
 * directly — skipping the colour conversion, half of the decode cost — changes no result.
 */
export const LIMITED_TO_FULL_RANGE = (() => {
  const table = new Uint8Array(256);
  for (let y = 0; y < 256; y++) table[y] = Math.min(255, Math.max(0, Math.round(((y - 16) * 255) / 219)));
  return table;
})();

/**
 * Changed-pixel counting over consecutive frames of one fixed-size picture (the decoded crop). The hot loops
 * (range mapping, 3×3 mean, counting, and when asked the changed mask with its opening and closing) run in
 * WebAssembly SIMD (kernel.wat) on buffers in this counter's own memory; small-object removal, opt-in, runs in
 * TypeScript on that mask.
 */
export class IntensityCounter {
  private readonly kernel: Kernel;
  private readonly memory: WebAssembly.Memory;
  private readonly framePointer: number;
  /** The blurred current and previous frames (8-bit, width × height each). */
  private currentPointer: number;
  private previousPointer: number;
  private readonly columnsPointer: number;
  private readonly maskBuffers: MaskBuffers;
  /** The frame buffer inside the kernel's memory: the decoder writes frames straight into it. */
  readonly frame: Uint8Array;
  private hasPrevious = false;
  private readonly scratch = { stack: new Int32Array(0) };
  /** The ROI and mask of the last counted frame, when `push` was asked to keep them. */
  private last: { roi: Rect; mask: Uint8Array } | null = null;

  /**
   * @param limitedRange the frames are limited-range luma (16–235), mapped to 0–255 here exactly as ffmpeg's
   *   gray conversion would.
   */
  constructor(
    readonly width: number,
    readonly height: number,
    private readonly parameters: IntensityParameters,
    private readonly limitedRange = false,
  ) {
    if (!Number.isInteger(parameters.threshold) || parameters.threshold < 0 || parameters.threshold > 255) {
      throw new RangeError(`threshold must be a whole number 0–255, not ${parameters.threshold}`);
    }
    const size = width * height;
    this.framePointer = 0;
    this.currentPointer = alignToVector(size + KERNEL_PAD);
    this.previousPointer = this.currentPointer + alignToVector(size + KERNEL_PAD);
    this.columnsPointer = this.previousPointer + alignToVector(size + KERNEL_PAD);
    const masks = layoutMaskBuffers(
      this.columnsPointer + alignToVector((width + 32) * 2 + KERNEL_PAD),
      size,
      width,
      Math.max(parameters.opening, parameters.closing),
    );
    this.maskBuffers = masks.buffers;
    ({ kernel: this.kernel, memory: this.memory } = instantiateKernel(masks.end));
    this.frame = new Uint8Array(this.memory.buffer, this.framePointer, size);
  }

  private get usesMask(): boolean {
    const p = this.parameters;
    return p.opening > 1 || p.closing > 1 || p.small_object_removal > 1;
  }

  /**
   * Feeds the next frame (`width × height` gray bytes; pass `counter.frame` itself after filling it to skip a
   * copy). Returns the changed-pixel count inside `roi` (crop coordinates) against the previous frame fed; 0
   * for the first frame. A null ROI (a bypassed frame) counts nothing, but the frame still becomes the
   * previous one. After the call `counter.frame` holds the frame in full range.
   */
  push(frame: Uint8Array, roi: Rect | null, keepMask = false): number {
    if (frame !== this.frame) this.frame.set(frame);
    const { width, height } = this;
    this.kernel.box_blur(
      this.framePointer,
      this.currentPointer,
      this.columnsPointer,
      width,
      height,
      this.limitedRange ? 1 : 0,
    );
    let count = 0;
    this.last = null;
    if (roi && this.hasPrevious) {
      count =
        this.usesMask || keepMask
          ? this.countWithMask(roi, keepMask)
          : this.kernel.count_changed(
              this.currentPointer,
              this.previousPointer,
              width,
              roi.x,
              roi.y,
              roi.width,
              roi.height,
              this.parameters.threshold,
            );
    }
    const swap = this.previousPointer;
    this.previousPointer = this.currentPointer;
    this.currentPointer = swap;
    this.hasPrevious = true;
    return count;
  }

  /** A copy of the last frame fed, blurred (`width × height` bytes): what `cv2.blur(gray, (3, 3))` gives. */
  blurredFrame(): Uint8Array {
    return new Uint8Array(this.memory.buffer, this.previousPointer, this.width * this.height).slice();
  }

  /** The changed mask (ROI-sized, 1 = changed) of the last counted frame, when `push` was asked to keep it. */
  lastMask(): { roi: Rect; mask: Uint8Array } | null {
    return this.last;
  }

  private countWithMask(roi: Rect, keepMask: boolean): number {
    const { kernel, maskBuffers } = this;
    const { width, height } = roi;
    const p = this.parameters;
    kernel.changed_mask(
      this.currentPointer,
      this.previousPointer,
      this.width,
      roi.x,
      roi.y,
      width,
      height,
      p.threshold,
      maskBuffers.mask,
    );
    if (p.opening > 1) openInKernel(kernel, maskBuffers, width, height, p.opening);
    if (p.closing > 1) closeInKernel(kernel, maskBuffers, width, height, p.closing);
    const mask = new Uint8Array(this.memory.buffer, maskBuffers.mask, width * height);
    if (p.small_object_removal > 1) removeSmallObjects(mask, width, height, p.small_object_removal, this.scratch);
    // A copy: the view is overwritten by the next frame, and posting it would clone the whole memory.
    if (keepMask) this.last = { roi, mask: mask.slice() };
    return kernel.count_ones(maskBuffers.mask, width * height);
  }
}

/**
 * Clears 8-connected regions of 1s smaller than `minPixels`. Flood fill with an explicit stack (no recursion),
 * each pixel visited a bounded number of times: linear in the mask size. Pixels being filled are marked 2 in
 * the mask itself (no label array to clear each frame); the kept regions' pixels stay on the stack and go back
 * to 1 at the end. The scan skips four empty pixels at a time, as changed pixels are usually few.
 */
export function removeSmallObjects(
  mask: Uint8Array,
  width: number,
  height: number,
  minPixels: number,
  scratch: { stack: Int32Array } = { stack: new Int32Array(0) },
): void {
  const size = width * height;
  if (scratch.stack.length < size) scratch.stack = new Int32Array(size);
  const { stack } = scratch;
  const words = mask.byteOffset % 4 === 0 ? new Uint32Array(mask.buffer, mask.byteOffset, size >> 2) : null;
  const wordEnd = words ? words.length * 4 : 0;
  let top = 0;
  for (let start = 0; start < size; start++) {
    if (start < wordEnd && (start & 3) === 0 && words![start >> 2] === 0) {
      start += 3;
      continue;
    }
    if (mask[start] !== 1) continue;
    const base = top;
    let visited = top;
    stack[top++] = start;
    mask[start] = 2;
    while (visited < top) {
      const index = stack[visited++]!;
      const x = index % width;
      const y = (index - x) / width;
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          if (nx < 0 || nx >= width) continue;
          const neighbour = ny * width + nx;
          if (mask[neighbour] === 1) {
            mask[neighbour] = 2;
            stack[top++] = neighbour;
          }
        }
      }
    }
    if (top - base < minPixels) {
      for (let i = base; i < top; i++) mask[stack[i]!] = 0;
      top = base;
    }
  }
  for (let i = 0; i < top; i++) mask[stack[i]!] = 1;
}
