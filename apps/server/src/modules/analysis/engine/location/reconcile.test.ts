import { describe, expect, it } from 'vitest';
import { canonicalJson, type PieceStates, reconcilePieces, referenceMatches, sameState } from './reconcile.js';
import type { TrackerHandoff } from './tracker.js';

/** A toy tracker over a list of frames: its state is the running sum of the frames seen, and `previous`. */
const state = (sum: number, previous: { x: number; y: number } | null = null): TrackerHandoff => ({ previous, sum });

describe('reconciling side-by-side pieces with a single pass', () => {
  it('compares states field by field whatever their key order', () => {
    expect(sameState({ previous: { x: 1, y: 2 }, a: 0.1 }, { a: 0.1, previous: { y: 2, x: 1 } })).toBe(true);
    expect(sameState({ previous: null, a: 0.1 }, { previous: null, a: 0.1 + Number.EPSILON })).toBe(false);
    expect(canonicalJson({ b: [2, { d: 1, c: 0 }], a: null })).toBe('{"a":null,"b":[2,{"c":0,"d":1}]}');
  });

  it('keeps pieces whose entry is the exit before them, tracks the others again from it, in plan order', async () => {
    // Piece 1 caught up (entry = exit of piece 0); piece 2 did not; piece 3's entry equals piece 2's exit as
    // speculated, but piece 2 is tracked again and ends elsewhere, so piece 3 must be tracked again too.
    const pieces: PieceStates[] = [
      { entry: state(0), exit: state(10) },
      { entry: state(10), exit: state(20) },
      { entry: state(99), exit: state(130) },
      { entry: state(130), exit: state(140) },
    ];
    const calls: [number, TrackerHandoff][] = [];
    const retrack = async (index: number, from: TrackerHandoff) => {
      calls.push([index, from]);
      return state((from.sum as number) + 5 * index);
    };
    const { exit, retracked } = await reconcilePieces(pieces, retrack);
    expect(calls).toEqual([
      [2, state(20)],
      [3, state(30)],
    ]);
    expect(retracked).toEqual([2, 3]);
    expect(exit).toEqual(state(45));
  });

  it('tracks nothing again when every piece caught up, and answers the last exit', async () => {
    const pieces: PieceStates[] = [
      { entry: state(0), exit: state(1, { x: 3, y: 4 }) },
      { entry: state(1, { x: 3, y: 4 }), exit: state(2) },
    ];
    const result = await reconcilePieces(pieces, async () => {
      throw new Error('not expected');
    });
    expect(result).toEqual({ exit: state(2), retracked: [] });
    expect(await reconcilePieces([], async () => state(0))).toEqual({ exit: null, retracked: [] });
  });

  it('accepts a fast reference only when every one of its frames was decoded by a piece with the same hash', () => {
    const reference = { frames: [0, 30, 60], hashes: ['a', 'b', 'c'] };
    const pieces = [
      { checked: [[0, 'a']] as [number, string][] },
      {
        checked: [
          [30, 'b'],
          [60, 'c'],
        ] as [number, string][],
      },
    ];
    expect(referenceMatches(reference, pieces)).toBe(true);
    // A picture that differs, or a frame no piece decoded, sends the run to the proven reference.
    expect(
      referenceMatches(reference, [
        pieces[0]!,
        {
          checked: [
            [30, 'b'],
            [60, 'x'],
          ],
        },
      ]),
    ).toBe(false);
    expect(referenceMatches(reference, [pieces[0]!, { checked: [[30, 'b']] }])).toBe(false);
    expect(referenceMatches(reference, [{}, pieces[1]!])).toBe(false);
    // A proven reference (or one from another video) has nothing to check.
    expect(referenceMatches({ frames: [0, 30], hashes: null }, [])).toBe(true);
  });
});
