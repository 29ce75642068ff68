/**
 * A minimal PNG writer (8-bit grey or RGB, no interlace): each row filtered with Sub, the whole compressed by
 * fflate's zlib. Enough for the figures (the location figures of ADR 025, the batch plots of ADR 035) without a
 * native image library.
 */
import { zlibSync } from 'fflate';

const SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array, start: number, end: number): number {
  let c = 0xffffffff;
  for (let i = start; i < end; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out, 4, 8 + data.length));
  return out;
}

/** `pixels`: width × height × channels bytes, row-major (channels 1 = grey, 3 = RGB). */
export function encodePng(pixels: Uint8Array, width: number, height: number, channels: 1 | 3): Uint8Array {
  if (pixels.length !== width * height * channels) throw new RangeError('pixels do not match the size');
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header[8] = 8; // bit depth
  header[9] = channels === 1 ? 0 : 2; // colour type: grey or truecolour
  const stride = width * channels;
  const filtered = new Uint8Array((stride + 1) * height);
  for (let row = 0; row < height; row++) {
    const from = row * stride;
    const to = row * (stride + 1);
    filtered[to] = 1; // Sub: each byte less the same channel of the pixel on its left
    for (let i = 0; i < stride; i++) {
      filtered[to + 1 + i] = (pixels[from + i]! - (i >= channels ? pixels[from + i - channels]! : 0)) & 0xff;
    }
  }
  const parts = [
    SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', zlibSync(filtered, { level: 6 })),
    chunk('IEND', new Uint8Array(0)),
  ];
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** The reference picture as 8-bit grey (its values are whole or half numbers 0–255). */
export function greyBytes(reference: Float32Array): Uint8Array {
  const grey = new Uint8Array(reference.length);
  for (let i = 0; i < reference.length; i++) grey[i] = Math.min(255, Math.max(0, Math.round(reference[i]!)));
  return grey;
}
