/**
 * Binary morphology with a k×k square on a mask of 0/1 bytes (the ROI). Windows are clipped to the mask:
 * pixels outside it take no part (as OpenCV treats the image border), so a closing does not eat into regions
 * that touch the ROI's edge and an opening does not grow them. Erosion's window at x is
 * [x − ⌊k/2⌋, x − ⌊k/2⌋ + k − 1]; dilation uses the mirrored window, so an opening (erode, then dilate) never
 * grows a region and a closing never shrinks one, also for even k.
 *
 * The square is separable, so each operation is a horizontal then a vertical pass, both in the WebAssembly
 * kernel (kernel.wat): the horizontal pass builds the window by doubling (log2 k vector steps a row), the
 * vertical one keeps a running count per column (8 columns a step, whatever k is; the brief allows k up to
 * 10000). A 640×480 opening takes well under a millisecond, so morphology keeps pace with decoding.
 */
import { alignToVector, instantiateKernel, KERNEL_PAD, type Kernel } from './kernel.js';

/** Where a mask and the passes' scratch buffers sit in a kernel's memory. */
export interface MaskBuffers {
  /** The mask, operated on in place. */
  mask: number;
  /** The horizontal pass's result, the vertical pass's input. */
  between: number;
  /** One padded row for the horizontal pass. */
  row: number;
  /** The vertical pass's 16-bit column counts. */
  counts: number;
}

/** Lays out, from byte `start`, buffers for masks of up to `maxSize` pixels and `maxWidth` columns, windows up to `maxK`. */
export function layoutMaskBuffers(
  start: number,
  maxSize: number,
  maxWidth: number,
  maxK: number,
): { buffers: MaskBuffers; end: number } {
  const mask = alignToVector(start);
  const between = mask + alignToVector(maxSize + KERNEL_PAD);
  const row = between + alignToVector(maxSize + KERNEL_PAD);
  const counts = row + alignToVector(maxWidth + Math.max(1, maxK) + KERNEL_PAD);
  const end = counts + alignToVector((maxWidth + 16) * 2 + KERNEL_PAD);
  return { buffers: { mask, between, row, counts }, end };
}

/** How many pixels before the centre the window reaches (the rest, k − 1 − before, after it). */
export function windowBefore(k: number, erode: boolean): number {
  const half = Math.floor(k / 2);
  return erode ? half : k - 1 - half;
}

function pass(kernel: Kernel, buffers: MaskBuffers, width: number, height: number, k: number, erode: boolean) {
  const before = windowBefore(k, erode);
  const flag = erode ? 1 : 0;
  kernel.morph_rows(buffers.mask, buffers.between, buffers.row, width, height, k, before, flag);
  kernel.morph_columns(buffers.between, buffers.mask, buffers.counts, width, height, k, before, flag);
}

/** Opening of the mask at `buffers.mask`: removes changed specks narrower than k, keeping larger regions' shape. */
export function openInKernel(kernel: Kernel, buffers: MaskBuffers, width: number, height: number, k: number) {
  pass(kernel, buffers, width, height, k, true);
  pass(kernel, buffers, width, height, k, false);
}

/** Closing of the mask at `buffers.mask`: fills gaps narrower than k inside and between changed regions. */
export function closeInKernel(kernel: Kernel, buffers: MaskBuffers, width: number, height: number, k: number) {
  pass(kernel, buffers, width, height, k, false);
  pass(kernel, buffers, width, height, k, true);
}

/** A kernel instance kept between calls on plain arrays, regrown when a mask or window outgrows it. */
export interface MorphologyScratch {
  instance: {
    kernel: Kernel;
    memory: WebAssembly.Memory;
    buffers: MaskBuffers;
    size: number;
    width: number;
    maxK: number;
  } | null;
}

export function morphologyScratch(): MorphologyScratch {
  return { instance: null };
}

type Operation = (kernel: Kernel, buffers: MaskBuffers, width: number, height: number, k: number) => void;

/** Runs an operation on a mask held in a plain array: copied into the kernel's memory and back. */
function onArray(
  operation: Operation,
  mask: Uint8Array,
  width: number,
  height: number,
  k: number,
  scratch: MorphologyScratch,
) {
  const size = width * height;
  let instance = scratch.instance;
  if (!instance || instance.size < size || instance.width < width || instance.maxK < k) {
    const grown = {
      size: Math.max(size, instance?.size ?? 0),
      width: Math.max(width, instance?.width ?? 0),
      maxK: Math.max(k, instance?.maxK ?? 0),
    };
    const { buffers, end } = layoutMaskBuffers(0, grown.size, grown.width, grown.maxK);
    instance = { ...instantiateKernel(end), buffers, ...grown };
    scratch.instance = instance;
  }
  const inMemory = new Uint8Array(instance.memory.buffer, instance.buffers.mask, size);
  inMemory.set(mask);
  operation(instance.kernel, instance.buffers, width, height, k);
  mask.set(inMemory);
}

const erodeOperation: Operation = (kernel, buffers, width, height, k) => pass(kernel, buffers, width, height, k, true);
const dilateOperation: Operation = (kernel, buffers, width, height, k) =>
  pass(kernel, buffers, width, height, k, false);

export function erodeMask(mask: Uint8Array, width: number, height: number, k: number, scratch = morphologyScratch()) {
  onArray(erodeOperation, mask, width, height, k, scratch);
}

export function dilateMask(mask: Uint8Array, width: number, height: number, k: number, scratch = morphologyScratch()) {
  onArray(dilateOperation, mask, width, height, k, scratch);
}

export function openMask(mask: Uint8Array, width: number, height: number, k: number, scratch = morphologyScratch()) {
  onArray(openInKernel, mask, width, height, k, scratch);
}

export function closeMask(mask: Uint8Array, width: number, height: number, k: number, scratch = morphologyScratch()) {
  onArray(closeInKernel, mask, width, height, k, scratch);
}
