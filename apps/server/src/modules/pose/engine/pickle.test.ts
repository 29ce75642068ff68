import { describe, expect, it } from 'vitest';
import { pickleLabels } from '../pose-files.test-support.js';
import { PickleError, readPickle } from './pickle.js';

describe('protocol-0 pickle reader', () => {
  it('reads the label lists PyTables writes: tuples, memo puts and gets, long ints', () => {
    // The shape of pandas' non_index_axes: [(1, [(scorer, part, coord), …])], with repeats memoised.
    const text = '(lp0\n(L1L\n(lp1\n(VPranav\np2\nVsnout\np3\nVx\np4\ntp5\na(g2\ng3\nVy\np6\ntp7\natp8\na.';
    expect(readPickle(text)).toEqual([
      [
        1,
        [
          ['Pranav', 'snout', 'x'],
          ['Pranav', 'snout', 'y'],
        ],
      ],
    ]);
  });

  it('round-trips labels written by the tests’ writer, non-ASCII and backslashes included', () => {
    const labels = [
      ['DLC_resnet50', 'mäuschen', 'nose', 'x'],
      ['DLC_resnet50', 'mäuschen', 'a\\b', 'likelihood'],
    ];
    expect(readPickle(pickleLabels(labels))).toEqual(labels);
    expect(readPickle(pickleLabels(labels, true))).toEqual([[1, labels]]);
  });

  it('reads numbers, None, booleans and quoted byte strings', () => {
    expect(readPickle("(lp0\nI5\naF2.5\naNaI01\naS'it\\'s'\np1\na.")).toEqual([5, 2.5, null, true, "it's"]);
  });

  it('refuses what a label list never holds, by name', () => {
    expect(() => readPickle('\x80\x02]q\x00.')).toThrow(/protocol 2 or later/);
    expect(() => readPickle('cpandas\nIndex\np0\n.')).toThrow(PickleError);
    expect(() => readPickle('(lp0\nVx\np1\na')).toThrow(/no stop/);
    expect(() => readPickle('g7\n.')).toThrow(/Memo 7/);
  });
});
