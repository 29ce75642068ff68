import { crc32, inflateSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodePng } from './preview.js';

interface Chunk {
  type: string;
  data: Uint8Array;
  crc: number;
  /** The bytes the CRC covers: type and data. */
  typeAndData: Uint8Array;
}

/** Splits a PNG after its signature into chunks, reading each length, type, data and CRC by hand. */
function readChunks(png: Uint8Array): Chunk[] {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const chunks: Chunk[] = [];
  let offset = 8;
  while (offset < png.length) {
    const length = view.getUint32(offset);
    const typeAndData = png.subarray(offset + 4, offset + 8 + length);
    chunks.push({
      type: Buffer.from(png.subarray(offset + 4, offset + 8)).toString('ascii'),
      data: png.subarray(offset + 8, offset + 8 + length),
      crc: view.getUint32(offset + 8 + length),
      typeAndData,
    });
    offset += 12 + length;
  }
  expect(offset).toBe(png.length);
  return chunks;
}

function checkPng(png: Uint8Array, rgb: Uint8Array, width: number, height: number) {
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const chunks = readChunks(png);
  expect(chunks.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
  for (const chunk of chunks) expect(chunk.crc).toBe(crc32(chunk.typeAndData));

  const header = chunks[0]!.data;
  expect(header.length).toBe(13);
  const headerView = new DataView(header.buffer, header.byteOffset, header.byteLength);
  expect(headerView.getUint32(0)).toBe(width);
  expect(headerView.getUint32(4)).toBe(height);
  // Bit depth 8, colour type 2 (RGB), deflate compression, adaptive filtering, no interlace.
  expect([...header.subarray(8)]).toEqual([8, 2, 0, 0, 0]);
  expect(chunks[2]!.data.length).toBe(0);

  const raw = inflateSync(chunks[1]!.data);
  const rowBytes = width * 3;
  expect(raw.length).toBe(height * (rowBytes + 1));
  for (let y = 0; y < height; y++) {
    const row = y * (rowBytes + 1);
    expect(raw[row]).toBe(0);
    for (let i = 0; i < rowBytes; i++) {
      if (raw[row + 1 + i] !== rgb[y * rowBytes + i]) {
        throw new Error(`pixel byte ${i} of row ${y}: ${raw[row + 1 + i]} instead of ${rgb[y * rowBytes + i]}`);
      }
    }
  }
}

describe('encodePng', () => {
  it('encodes a 2×2 picture with a known signature, header and rows', () => {
    const rgb = Uint8Array.from([255, 0, 0, 0, 255, 0, 0, 0, 255, 10, 20, 30]);
    const png = encodePng(rgb, 2, 2);
    checkPng(png, rgb, 2, 2);
    // IHDR is the first chunk: length 13, then the type.
    expect([...png.subarray(8, 16)]).toEqual([0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
    // IEND is always the same 12 bytes; its CRC is the well-known AE 42 60 82.
    expect([...png.subarray(png.length - 12)]).toEqual([0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);
  });

  it('round-trips random pictures through inflate', () => {
    const pictureArbitrary = fc
      .record({ width: fc.integer({ min: 1, max: 40 }), height: fc.integer({ min: 1, max: 40 }) })
      .chain(({ width, height }) =>
        fc.record({
          width: fc.constant(width),
          height: fc.constant(height),
          rgb: fc.uint8Array({ minLength: width * height * 3, maxLength: width * height * 3 }),
        }),
      );
    fc.assert(
      fc.property(pictureArbitrary, ({ width, height, rgb }) => {
        checkPng(encodePng(rgb, width, height), rgb, width, height);
      }),
      { numRuns: 150 },
    );
  });

  it('writes dimensions beyond 16 bits big-endian', () => {
    const width = 70_000;
    const rgb = new Uint8Array(width * 3).map((_, i) => i % 251);
    checkPng(encodePng(rgb, width, 1), rgb, width, 1);
  });
});
