/**
 * The WebAssembly kernel (kernel.wat, compiled into kernel.wasm.ts): the per-frame hot loops of intensity-change
 * detection and of mask morphology. Each user instantiates it on a memory of its own and places its buffers there.
 */
import { KERNEL_WASM_BASE64 } from './kernel.wasm.js';

export interface Kernel {
  map_limited(pointer: number, length: number): void;
  /** `map` = 1: the frame is limited-range luma, mapped in place as map_limited does (0: taken as is). */
  box_blur(frame: number, blurred: number, columns: number, width: number, height: number, map: number): void;
  count_changed(
    current: number,
    previous: number,
    width: number,
    x: number,
    y: number,
    roiWidth: number,
    roiHeight: number,
    threshold: number,
  ): number;
  changed_mask(
    current: number,
    previous: number,
    width: number,
    x: number,
    y: number,
    roiWidth: number,
    roiHeight: number,
    threshold: number,
    mask: number,
  ): void;
  morph_rows(
    source: number,
    target: number,
    row: number,
    width: number,
    height: number,
    k: number,
    before: number,
    erode: number,
  ): void;
  morph_columns(
    source: number,
    target: number,
    counts: number,
    width: number,
    height: number,
    k: number,
    before: number,
    erode: number,
  ): void;
  count_ones(pointer: number, length: number): number;
}

/** Room after each buffer for the vector loops' overshoot (kernel.wat). */
export const KERNEL_PAD = 64;

/** Rounds a byte offset up to the vector width. */
export const alignToVector = (bytes: number) => Math.ceil(bytes / 16) * 16;

let kernelModule: WebAssembly.Module | undefined;

/** A memory of at least `bytes` bytes with the kernel instantiated on it. */
export function instantiateKernel(bytes: number): { kernel: Kernel; memory: WebAssembly.Memory } {
  kernelModule ??= new WebAssembly.Module(Buffer.from(KERNEL_WASM_BASE64, 'base64'));
  const memory = new WebAssembly.Memory({ initial: Math.max(1, Math.ceil(bytes / 65536)) });
  const instance = new WebAssembly.Instance(kernelModule, { env: { memory } });
  return { kernel: instance.exports as unknown as Kernel, memory };
}
