import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { closeMask, dilateMask, erodeMask, morphologyScratch, openMask } from './morphology.js';
import { referenceMorphology } from './morphology.reference.js';

const referenceErode = (m: Uint8Array, w: number, h: number, k: number) => referenceMorphology(m, w, h, k, true);
const referenceDilate = (m: Uint8Array, w: number, h: number, k: number) => referenceMorphology(m, w, h, k, false);
const referenceOpen = (m: Uint8Array, w: number, h: number, k: number) =>
  referenceDilate(referenceErode(m, w, h, k), w, h, k);
const referenceClose = (m: Uint8Array, w: number, h: number, k: number) =>
  referenceErode(referenceDilate(m, w, h, k), w, h, k);

type InPlace = (mask: Uint8Array, width: number, height: number, k: number) => void;

/** Runs an in-place operation on a copy. */
function run(operation: InPlace, mask: Uint8Array, width: number, height: number, k: number) {
  const copy = mask.slice();
  operation(copy, width, height, k);
  return copy;
}

/** Parses a picture of a mask: one string per row, '#' = 1, '.' = 0. */
function parse(rows: string[]) {
  const width = rows[0]!.length;
  const mask = Uint8Array.from(rows.join(''), (c) => (c === '#' ? 1 : 0));
  return { mask, width, height: rows.length };
}

function show(mask: Uint8Array, width: number) {
  const rows: string[] = [];
  for (let i = 0; i < mask.length; i += width) {
    rows.push(Array.from(mask.subarray(i, i + width), (v) => (v === 1 ? '#' : '.')).join(''));
  }
  return rows;
}

/** Random masks up to 40 × 40 with a random density, so both sparse specks and near-full masks appear. */
const maskArbitrary = fc
  .record({
    width: fc.integer({ min: 1, max: 40 }),
    height: fc.integer({ min: 1, max: 40 }),
    density: fc.double({ min: 0, max: 1, noNaN: true }),
  })
  .chain(({ width, height, density }) =>
    fc
      .array(fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), {
        minLength: width * height,
        maxLength: width * height,
      })
      .map((draws) => ({ width, height, mask: Uint8Array.from(draws, (d) => (d < density ? 1 : 0)) })),
  );

const kArbitrary = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 1, max: 12 }) },
  { weight: 1, arbitrary: fc.constant(10000) },
  { weight: 1, arbitrary: fc.integer({ min: 13, max: 60 }) },
);

const isSubset = (a: Uint8Array, b: Uint8Array) => a.every((v, i) => v === 0 || b[i] === 1);

const runs = { numRuns: 150 };

describe('morphology examples', () => {
  it('erodes a 3×3 square with k = 3 to its centre, and dilates it back', () => {
    const { mask, width, height } = parse(['.....', '.###.', '.###.', '.###.', '.....']);
    const eroded = run(erodeMask, mask, width, height, 3);
    expect(show(eroded, width)).toEqual(['.....', '.....', '..#..', '.....', '.....']);
    expect(show(run(dilateMask, eroded, width, height, 3), width)).toEqual(show(mask, width));
  });

  it('treats pixels outside the mask as absent: a full mask survives erosion, an edge region survives closing', () => {
    const full = new Uint8Array(12).fill(1);
    expect([...run(erodeMask, full, 4, 3, 5)]).toEqual([...full]);
    const { mask, width, height } = parse(['##..', '##..', '##..']);
    expect(show(run(closeMask, mask, width, height, 3), width)).toEqual(['##..', '##..', '##..']);
  });

  it('uses the window [x − 1, x] for erosion and [x, x + 1] for dilation when k = 2', () => {
    // One row: erosion at x needs x−1 and x; dilation at x looks at x and x+1.
    const { mask, width, height } = parse(['.##..#.']);
    expect(show(run(erodeMask, mask, width, height, 2), width)).toEqual(['..#....']);
    expect(show(run(dilateMask, mask, width, height, 2), width)).toEqual(['###.##.']);
  });

  it('opening removes specks narrower than k and closing fills gaps narrower than k', () => {
    const specks = parse(['#.....', '......', '..####', '..####', '..####', '..####']);
    expect(show(run(openMask, specks.mask, specks.width, specks.height, 3), specks.width)).toEqual([
      '......',
      '......',
      '..####',
      '..####',
      '..####',
      '..####',
    ]);
    // Two pixels of margin, so the dilation does not reach the border (where clipping would keep it).
    const gap = parse(['........', '........', '..####..', '..#.##..', '..####..', '........', '........']);
    expect(show(run(closeMask, gap.mask, gap.width, gap.height, 3), gap.width)).toEqual([
      '........',
      '........',
      '..####..',
      '..####..',
      '..####..',
      '........',
      '........',
    ]);
  });

  it('reuses a scratch buffer across sizes without changing the results', () => {
    const scratch = morphologyScratch();
    const big = parse(['####', '####', '####', '#..#']);
    const small = parse(['.#', '##']);
    const bigEroded = big.mask.slice();
    erodeMask(bigEroded, big.width, big.height, 3, scratch);
    const smallDilated = small.mask.slice();
    dilateMask(smallDilated, small.width, small.height, 2, scratch);
    expect([...bigEroded]).toEqual([...referenceErode(big.mask, big.width, big.height, 3)]);
    expect([...smallDilated]).toEqual([...referenceDilate(small.mask, small.width, small.height, 2)]);
  });
});

describe('morphology properties', () => {
  it('erosion and dilation equal the window-scanning reference', () => {
    fc.assert(
      fc.property(maskArbitrary, kArbitrary, ({ mask, width, height }, k) => {
        expect([...run(erodeMask, mask, width, height, k)]).toEqual([...referenceErode(mask, width, height, k)]);
        expect([...run(dilateMask, mask, width, height, k)]).toEqual([...referenceDilate(mask, width, height, k)]);
      }),
      runs,
    );
  });

  it('opening and closing equal the reference', () => {
    fc.assert(
      fc.property(maskArbitrary, kArbitrary, ({ mask, width, height }, k) => {
        expect([...run(openMask, mask, width, height, k)]).toEqual([...referenceOpen(mask, width, height, k)]);
        expect([...run(closeMask, mask, width, height, k)]).toEqual([...referenceClose(mask, width, height, k)]);
      }),
      runs,
    );
  });

  it('opening is anti-extensive and idempotent', () => {
    fc.assert(
      fc.property(maskArbitrary, kArbitrary, ({ mask, width, height }, k) => {
        const opened = run(openMask, mask, width, height, k);
        expect(isSubset(opened, mask)).toBe(true);
        expect([...run(openMask, opened, width, height, k)]).toEqual([...opened]);
      }),
      runs,
    );
  });

  it('closing is extensive and idempotent', () => {
    fc.assert(
      fc.property(maskArbitrary, kArbitrary, ({ mask, width, height }, k) => {
        const closed = run(closeMask, mask, width, height, k);
        expect(isSubset(mask, closed)).toBe(true);
        expect([...run(closeMask, closed, width, height, k)]).toEqual([...closed]);
      }),
      runs,
    );
  });

  it('k = 1 leaves the mask unchanged under every operation', () => {
    fc.assert(
      fc.property(maskArbitrary, ({ mask, width, height }) => {
        for (const operation of [erodeMask, dilateMask, openMask, closeMask]) {
          expect([...run(operation, mask, width, height, 1)]).toEqual([...mask]);
        }
      }),
      runs,
    );
  });

  it('a k larger than the mask erodes to all-or-nothing and dilates to all-or-nothing', () => {
    fc.assert(
      fc.property(maskArbitrary, ({ mask, width, height }) => {
        const allOnes = mask.every((v) => v === 1);
        const anyOne = mask.some((v) => v === 1);
        expect(run(erodeMask, mask, width, height, 10000).every((v) => v === (allOnes ? 1 : 0))).toBe(true);
        expect(run(dilateMask, mask, width, height, 10000).every((v) => v === (anyOne ? 1 : 0))).toBe(true);
      }),
      runs,
    );
  });
});
