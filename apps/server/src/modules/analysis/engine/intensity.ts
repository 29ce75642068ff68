/**
 * Intensity-change movement detection on 8-bit gray frames (product brief, "Algorithms"):
 *
 * 1. box blur, radius 1: each pixel becomes the mean of its 3×3 neighbourhood, edges replicated;
 * 2. a pixel is changed when its blurred brightness differs from the previous frame's by more than `threshold`
 *    (compared exactly, as 3×3 sums against 9 × threshold, so no rounding enters);
 * 3. only pixels inside the ROI active for the frame can be changed; everything after this step works on the
 *    ROI alone, with pixels outside it counting as unchanged (so cropping the decode to the ROIs' bounding box,
 *    with a one-pixel margin for the blur, gives exactly the whole-frame result);
 * 4. optional opening, then closing, with a k×k square (k = 0 or 1: off), and removal of 8-connected changed
 *    regions smaller than `small_object_removal` pixels;
 * 5. the frame's value is the number of changed pixels left.
 *
 * Allocation-free per frame: this runs in worker threads at the speed of decoding.
 */
import { KERNEL_WASM_BASE64 } from './kernel.wasm.js';
import { closeMask, morphologyScratch, openMask } from './morphology.js';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface IntensityParameters {
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

interface Kernel {
  map_limited(pointer: number, length: number): void;
  box_sums(frame: number, sums: number, columns: number, width: number, height: number): void;
  count_changed(
    current: number,
    previous: number,
    width: number,
    x: number,
    y: number,
    roiWidth: number,
    roiHeight: number,
    limit: number,
  ): number;
}

let kernelModule: WebAssembly.Module | undefined;
function compiledKernel(): WebAssembly.Module {
  kernelModule ??= new WebAssembly.Module(Buffer.from(KERNEL_WASM_BASE64, 'base64'));
  return kernelModule;
}

/** Room after each buffer for the vector loops' overshoot (kernel.wat). */
const PAD = 64;

/**
 * Changed-pixel counting over consecutive frames of one fixed-size picture (the decoded crop). The hot loops
 * (range mapping, 3×3 sums, counting) run in WebAssembly SIMD (kernel.wat) on buffers in this counter's own
 * memory; morphology and small-object removal, opt-in, run in TypeScript on the ROI's mask.
 */
export class IntensityCounter {
  private readonly kernel: Kernel;
  private readonly memory: WebAssembly.Memory;
  private readonly framePointer: number;
  private currentPointer: number;
  private previousPointer: number;
  private readonly columnsPointer: number;
  /** The frame buffer inside the kernel's memory: the decoder writes frames straight into it. */
  readonly frame: Uint8Array;
  private hasPrevious = false;
  private mask: Uint8Array = new Uint8Array(0);
  private readonly scratch = { stack: new Int32Array(0), labels: new Int32Array(0) };
  private readonly morphology = morphologyScratch();
  /** The ROI of the last counted frame when `lastMask()` holds its mask. */
  private lastRoi: Rect | null = null;

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
    const size = width * height;
    const align = (n: number) => Math.ceil(n / 16) * 16;
    this.framePointer = 0;
    this.currentPointer = align(size + PAD);
    this.previousPointer = this.currentPointer + align(size * 2 + PAD);
    this.columnsPointer = this.previousPointer + align(size * 2 + PAD);
    const bytes = this.columnsPointer + align((width + 32) * 2 + PAD);
    this.memory = new WebAssembly.Memory({ initial: Math.ceil(bytes / 65536) });
    const instance = new WebAssembly.Instance(compiledKernel(), { env: { memory: this.memory } });
    this.kernel = instance.exports as unknown as Kernel;
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
    if (this.limitedRange) this.kernel.map_limited(this.framePointer, width * height);
    this.kernel.box_sums(this.framePointer, this.currentPointer, this.columnsPointer, width, height);
    let count = 0;
    this.lastRoi = null;
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
              9 * this.parameters.threshold,
            );
    }
    const swap = this.previousPointer;
    this.previousPointer = this.currentPointer;
    this.currentPointer = swap;
    this.hasPrevious = true;
    return count;
  }

  /** The changed mask (ROI-sized, 1 = changed) of the last counted frame, when `push` was asked to keep it. */
  lastMask(): { roi: Rect; mask: Uint8Array } | null {
    return this.lastRoi ? { roi: this.lastRoi, mask: this.mask } : null;
  }

  private countWithMask(roi: Rect, keepMask: boolean): number {
    const { width } = this;
    const size = roi.width * roi.height;
    const current = new Uint16Array(this.memory.buffer, this.currentPointer, this.width * this.height);
    const previous = new Uint16Array(this.memory.buffer, this.previousPointer, this.width * this.height);
    const limit = 9 * this.parameters.threshold;
    if (this.mask.length !== size) this.mask = new Uint8Array(size);
    const mask = this.mask;
    for (let y = 0; y < roi.height; y++) {
      const source = (roi.y + y) * width + roi.x;
      const target = y * roi.width;
      for (let x = 0; x < roi.width; x++) {
        const difference = current[source + x]! - previous[source + x]!;
        mask[target + x] = difference > limit || difference < -limit ? 1 : 0;
      }
    }
    const p = this.parameters;
    if (p.opening > 1) openMask(mask, roi.width, roi.height, p.opening, this.morphology);
    if (p.closing > 1) closeMask(mask, roi.width, roi.height, p.closing, this.morphology);
    if (p.small_object_removal > 1) {
      removeSmallObjects(mask, roi.width, roi.height, p.small_object_removal, this.scratch);
    }
    let count = 0;
    for (let i = 0; i < size; i++) count += mask[i]!;
    if (keepMask) this.lastRoi = roi;
    return count;
  }
}

/**
 * Clears 8-connected regions of 1s smaller than `minPixels`. Flood fill with an explicit stack (no recursion),
 * each pixel visited a bounded number of times: linear in the mask size.
 */
export function removeSmallObjects(
  mask: Uint8Array,
  width: number,
  height: number,
  minPixels: number,
  scratch: { stack: Int32Array; labels: Int32Array } = { stack: new Int32Array(0), labels: new Int32Array(0) },
): void {
  const size = width * height;
  if (scratch.labels.length < size) {
    scratch.labels = new Int32Array(size);
    scratch.stack = new Int32Array(size);
  }
  const { labels, stack } = scratch;
  labels.fill(0, 0, size);
  let label = 0;
  for (let start = 0; start < size; start++) {
    if (mask[start] === 0 || labels[start] !== 0) continue;
    label++;
    // First pass: collect the region (the stack doubles as the list of its pixels).
    let top = 0;
    let visited = 0;
    stack[top++] = start;
    labels[start] = label;
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
          if (mask[neighbour] === 1 && labels[neighbour] === 0) {
            labels[neighbour] = label;
            stack[top++] = neighbour;
          }
        }
      }
    }
    if (top < minPixels) for (let i = 0; i < top; i++) mask[stack[i]!] = 0;
  }
}
