import { describe, expect, it } from 'vitest';
import { findNullCharacter } from './null-characters.js';

describe('findNullCharacter', () => {
  it('finds a NUL in a nested string or key and names its path', () => {
    expect(findNullCharacter({ a: [1, 'ok', { b: 'x\u0000' }] })).toEqual(['a', 2, 'b']);
    expect(findNullCharacter({ a: { 'k\u0000': 1 } })).toEqual(['a', 'k\u0000']);
    expect(findNullCharacter('\u0000')).toEqual([]);
    expect(findNullCharacter({ a: 'no nul here', b: [null, true, 3, '\\u0000'] })).toBeUndefined();
  });

  it('walks any depth without recursion', () => {
    let deep: unknown = 'end\u0000';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(findNullCharacter(deep)).toHaveLength(200_000);
  });
});
