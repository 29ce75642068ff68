/**
 * The analysis side of decoding: raw 8-bit gray frames arrive on a pipe from the media adapter
 * (adapters/media/gray-frames.ts, which owns ffmpeg's arguments and process) and are cut into frames here.
 * ffmpeg decodes with its own threads; the analysis reads the frames in a worker thread.
 */
export {
  type DecodeSource,
  type DecodeWindow,
  grayDecodeArgs,
  needsRangeMapping,
  readsLumaPlane,
} from '../../../adapters/media/gray-frames.js';

/**
 * Cuts a byte stream into frames of `frameBytes`, calling `onFrame` with one reused buffer per frame (copy it
 * to keep it). Chunks arrive in any size; at most one frame is buffered.
 */
export class FrameAssembler {
  private readonly frame: Uint8Array;
  private filled = 0;
  framesOut = 0;

  constructor(
    readonly frameBytes: number,
    private readonly onFrame: (frame: Uint8Array, index: number) => void,
    private readonly lut: Uint8Array | null = null,
    /** Assemble straight into this buffer (the counter's own), instead of a new one. */
    target?: Uint8Array,
  ) {
    this.frame = target ?? new Uint8Array(frameBytes);
  }

  push(chunk: Uint8Array): void {
    let offset = 0;
    while (offset < chunk.length) {
      const take = Math.min(this.frameBytes - this.filled, chunk.length - offset);
      const part = chunk.subarray(offset, offset + take);
      if (this.lut) {
        const lut = this.lut;
        const target = this.frame;
        let j = this.filled;
        for (let i = 0; i < part.length; i++) target[j++] = lut[part[i]!]!;
      } else {
        this.frame.set(part, this.filled);
      }
      this.filled += take;
      offset += take;
      if (this.filled === this.frameBytes) {
        this.filled = 0;
        this.onFrame(this.frame, this.framesOut++);
      }
    }
  }

  /** Bytes of an unfinished last frame (a stream that ended mid-frame), 0 when the stream ended cleanly. */
  get leftoverBytes(): number {
    return this.filled;
  }
}
