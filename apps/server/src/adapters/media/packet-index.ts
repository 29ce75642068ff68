/**
 * The packet index of a video (issue 21): every frame of the first video stream, in display order, with its time
 * and keyframe flag, read once per video from ffprobe's packet list (demuxing only, no decoding) and stored with
 * the video. Everything that needs to know where frames and keyframes are — the thumbnail, the proofs of clean
 * starts (as `seekIndexOf`), the playback copy's pieces, an analysis run's segments — reads this one format.
 * Everything here is pure (no processes).
 */
import type { SeekIndex } from './clean-start.js';
import { inputArgs, type MediaInput } from './input-policy.js';

export interface PacketIndex {
  /** The container's start time (ffmpeg's -ss counts from it). */
  startTime: number;
  /** Every frame's presentation time (seconds, the container's clock), in display order. */
  times: Float64Array;
  /** 1 where that frame's packet is flagged as a keyframe. */
  keyframes: Uint8Array;
  /** Packets with no timestamp at all (not in `times`; with any, no keyframe can be placed to seek to). */
  untimed: number;
}

/** ffprobe arguments that list the first video stream's packets and the container's start time, as CSV. */
export function packetIndexArgs(input: MediaInput): string[] {
  return [
    ...['-v', 'error', '-select_streams', 'v:0'],
    ...['-show_entries', 'format=start_time:packet=pts_time,dts_time,flags', '-of', 'csv', ...inputArgs(input)],
  ];
}

/**
 * Builds a PacketIndex from ffprobe's lines (packetIndexArgs) as they stream in. Packets come in decode order;
 * a packet's time is its pts, else its dts (AVI may give no pts). Packets flagged discard (D) are not shown by
 * the decoder and are left out. Frames are sorted by time at the end, ties kept in decode order.
 */
export class PacketIndexReader {
  private times = new Float64Array(1024);
  private keys = new Uint8Array(1024);
  private count = 0;
  private untimed = 0;
  private startTime = 0;

  line(text: string): void {
    const fields = text.trim().split(',');
    if (fields[0] === 'format') {
      this.startTime = Number(fields[1]) || 0;
      return;
    }
    if (fields[0] !== 'packet') return;
    const flags = fields[3] ?? '';
    if (flags.includes('D')) return;
    const parse = (value: string | undefined) => (value && value !== 'N/A' ? Number(value) : Number.NaN);
    let time = parse(fields[1]);
    if (!Number.isFinite(time)) time = parse(fields[2]);
    if (!Number.isFinite(time)) {
      this.untimed++;
      return;
    }
    this.push(time, flags.includes('K'));
  }

  /** One timed packet (for tests and the line parser). */
  push(time: number, key: boolean): void {
    if (this.count === this.times.length) {
      const times = new Float64Array(this.count * 2);
      times.set(this.times);
      this.times = times;
      const keys = new Uint8Array(this.count * 2);
      keys.set(this.keys);
      this.keys = keys;
    }
    this.times[this.count] = time;
    this.keys[this.count] = key ? 1 : 0;
    this.count++;
  }

  finish(): PacketIndex {
    const order = Uint32Array.from({ length: this.count }, (_, i) => i);
    const times = this.times;
    order.sort((a, b) => times[a]! - times[b]! || a - b);
    return {
      startTime: this.startTime,
      times: Float64Array.from(order, (i) => times[i]!),
      keyframes: Uint8Array.from(order, (i) => this.keys[i]!),
      untimed: this.untimed,
    };
  }
}

/** Keyframes closer than this to the previous kept one are left out of a seek index (MJPEG: every frame is one). */
export const KEYFRAME_SPACING_S = 0.999;

/**
 * The keyframes a decode may seek to (clean-start.ts), derived from the packet index: each with its frame number
 * and the time half-way from the frame shown before it (so `t ≥ from` keeps exactly it on), at least
 * KEYFRAME_SPACING_S apart. None when a packet had no time: then frames cannot be placed by time.
 */
export function seekIndexOf(index: PacketIndex): SeekIndex {
  const frameCount = index.times.length + index.untimed;
  const keyframes: SeekIndex['keyframes'] = [];
  if (index.untimed === 0) {
    const { times } = index;
    for (let frame = 0; frame < times.length; frame++) {
      if (!index.keyframes[frame]) continue;
      const time = times[frame]!;
      const last = keyframes.at(-1);
      if (last && time < last.time + KEYFRAME_SPACING_S) continue;
      let previous = frame - 1;
      while (previous >= 0 && times[previous]! >= time) previous--;
      const from = previous >= 0 ? (times[previous]! + time) / 2 : time - 0.0005;
      keyframes.push({ frame, time, from });
    }
  }
  return { frameCount, startTime: index.startTime, keyframes };
}

/** The index's frame rate (for a proof's window): frames over the time to the last kept keyframe, else 30. */
export function indexFps(seek: SeekIndex): number {
  const last = seek.keyframes.at(-1);
  if (!last || last.frame === 0 || last.time <= seek.startTime) return 30;
  return last.frame / (last.time - seek.startTime);
}

const HEADER_BYTES = 24;
const FORMAT_VERSION = 2;

/** The index as stored (little-endian): version, frames, untimed packets, start time, then times and flags. */
export function encodePacketIndex(index: PacketIndex): Buffer {
  const frames = index.times.length;
  const buffer = Buffer.alloc(HEADER_BYTES + frames * 9);
  buffer.writeUInt32LE(FORMAT_VERSION, 0);
  buffer.writeUInt32LE(frames, 4);
  buffer.writeUInt32LE(index.untimed, 8);
  buffer.writeDoubleLE(index.startTime, 16);
  for (let i = 0; i < frames; i++) buffer.writeDoubleLE(index.times[i]!, HEADER_BYTES + i * 8);
  buffer.set(index.keyframes, HEADER_BYTES + frames * 8);
  return buffer;
}

/** A stored index, or null when it is not one this version writes (it is then read again from the file). */
export function decodePacketIndex(buffer: Uint8Array): PacketIndex | null {
  const bytes = Buffer.from(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  if (bytes.length < HEADER_BYTES || bytes.readUInt32LE(0) !== FORMAT_VERSION) return null;
  const frames = bytes.readUInt32LE(4);
  if (bytes.length !== HEADER_BYTES + frames * 9) return null;
  const times = new Float64Array(frames);
  for (let i = 0; i < frames; i++) times[i] = bytes.readDoubleLE(HEADER_BYTES + i * 8);
  return {
    startTime: bytes.readDoubleLE(16),
    times,
    keyframes: Uint8Array.from(bytes.subarray(HEADER_BYTES + frames * 8)),
    untimed: bytes.readUInt32LE(8),
  };
}
