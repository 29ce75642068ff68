/**
 * Reads back a PNG for the tests (8-bit grey or RGB, no interlace, any of the five row filters): the signature,
 * every chunk's CRC, IHDR, and the pixels — written from the PNG specification, independent of png.ts.
 */
import { inflateSync } from 'node:zlib';

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function crc32(bytes: Uint8Array): number {
  let c = ~0;
  for (const byte of bytes) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

export interface DecodedPng {
  width: number;
  height: number;
  channels: number;
  pixels: Uint8Array;
}

export function readPng(file: Uint8Array): DecodedPng {
  if (!SIGNATURE.every((byte, i) => file[i] === byte)) throw new Error('not a PNG signature');
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Uint8Array[] = [];
  const types: string[] = [];
  while (offset < file.length) {
    const length = view.getUint32(offset);
    const type = String.fromCharCode(...file.subarray(offset + 4, offset + 8));
    const body = file.subarray(offset + 8, offset + 8 + length);
    if (crc32(file.subarray(offset + 4, offset + 8 + length)) !== view.getUint32(offset + 8 + length)) {
      throw new Error(`bad CRC in ${type}`);
    }
    types.push(type);
    if (type === 'IHDR') {
      width = view.getUint32(offset + 8);
      height = view.getUint32(offset + 12);
      if (body[8] !== 8 || body[12] !== 0) throw new Error('only 8-bit, non-interlaced PNGs');
      channels = ({ 0: 1, 2: 3 } as Record<number, number>)[body[9]!] ?? 0;
      if (!channels) throw new Error(`colour type ${body[9]}`);
    }
    if (type === 'IDAT') data.push(body);
    offset += 12 + length;
  }
  if (types[0] !== 'IHDR' || types[types.length - 1] !== 'IEND') throw new Error(`chunks ${types.join(',')}`);
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const pixels = new Uint8Array(stride * height);
  for (let row = 0; row < height; row++) {
    const filter = raw[row * (stride + 1)];
    for (let i = 0; i < stride; i++) {
      const value = raw[row * (stride + 1) + 1 + i]!;
      const left = i >= channels ? pixels[row * stride + i - channels]! : 0;
      const up = row > 0 ? pixels[(row - 1) * stride + i]! : 0;
      const upLeft = row > 0 && i >= channels ? pixels[(row - 1) * stride + i - channels]! : 0;
      const paeth = () => {
        const p = left + up - upLeft;
        const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
        return pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
      };
      const predictor = [0, left, up, (left + up) >> 1, paeth()][filter!];
      if (predictor === undefined) throw new Error(`filter ${filter}`);
      pixels[row * stride + i] = (value + predictor) & 0xff;
    }
  }
  return { width, height, channels, pixels };
}
