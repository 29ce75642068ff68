import { describe, expect, it } from 'vitest';
import { decodePacketIndex, encodePacketIndex, type PacketIndex, PacketIndexReader } from './packet-index.js';

const read = (lines: string[]): PacketIndex => {
  const reader = new PacketIndexReader();
  for (const line of lines) reader.line(line);
  return reader.finish();
};

describe('the packet index', () => {
  it('reads packets in display order, dts where pts is missing, keyframe flags', () => {
    const index = read([
      'packet,0.000000,N/A,K_',
      'packet,0.080000,0.040000,__',
      'packet,0.040000,0.080000,__',
      'packet,N/A,0.120000,K_',
    ]);
    expect(Array.from(index.times)).toEqual([0, 0.04, 0.08, 0.12]);
    expect(Array.from(index.keyframes)).toEqual([1, 0, 0, 1]);
    expect(index.untimed).toBe(0);
  });

  it('counts packets without any time apart and leaves discarded ones out', () => {
    const index = read(['packet,N/A,N/A,K_', 'packet,0.5,0.5,_D', 'packet,1.0,1.0,K_', 'format,0.25', '']);
    expect(Array.from(index.times)).toEqual([1]);
    expect(index).toMatchObject({ untimed: 1, startTime: 0.25 });
  });

  it('keeps equal times in decode order, across many frames (the arrays grow)', () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `packet,${Math.floor(i / 2) / 25},N/A,${i % 2 ? 'K_' : '__'}`);
    const index = read(lines);
    expect(index.times.length).toBe(5000);
    expect(Array.from(index.keyframes.slice(0, 4))).toEqual([0, 1, 0, 1]);
  });

  it('is stored and read back exactly; another format version reads as none', () => {
    const index = read(['format,1.5', 'packet,1.5,N/A,K_', 'packet,1.5333333333,N/A,__', 'packet,N/A,N/A,__']);
    const stored = encodePacketIndex(index);
    expect(stored.length).toBe(24 + 2 * 9);
    expect(decodePacketIndex(stored)).toEqual(index);
    const other = Buffer.from(stored);
    other.writeUInt32LE(1, 0);
    expect(decodePacketIndex(other)).toBeNull();
    expect(decodePacketIndex(stored.subarray(0, 30))).toBeNull();
  });
});
