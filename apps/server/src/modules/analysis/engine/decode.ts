/**
 * The analysis side of decoding: the media adapter (adapters/media/gray-frames.ts, which owns ffmpeg's arguments,
 * its process and the socket its frames arrive on) writes raw 8-bit gray frames straight into the counter's buffer.
 * ffmpeg decodes with its own threads; the analysis reads the frames in a worker thread.
 */
export {
  type DecodeSource,
  type DecodeWindow,
  grayDecodeArgs,
  needsRangeMapping,
  readsLumaPlane,
} from '../../../adapters/media/gray-frames.js';
