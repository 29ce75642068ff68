import { describe, expect, it } from 'vitest';
import { tsvCell } from './annotation.files.js';

describe("BORIS TSV cells (a track's or a video's name typed by a member)", () => {
  it.each<[string | number | null, string]>([
    ['Grooming', 'Grooming'],
    ['=HYPERLINK("http://x")', `'=HYPERLINK("http://x")`],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['＝1+1', "'＝1+1"],
    ['＋1', "'＋1"],
    ['－1', "'－1"],
    ['＠SUM(A1)', "'＠SUM(A1)"],
    ["|cmd '/C calc'!A0", "'|cmd '/C calc'!A0"],
    // Tabs and line breaks cannot stay inside a TSV cell; what is left is still defused.
    ['\t=1', "' =1"],
    ['\r\n=1', "' =1"],
    ['a|b', 'a|b'],
    [-2.5, '-2.5'],
    [null, ''],
  ])('%j → %j', (value, expected) => {
    expect(tsvCell(value)).toBe(expected);
  });
});
