export type RangeRequest =
  | { kind: 'full' }
  | { kind: 'partial'; start: number; end: number }
  | { kind: 'unsatisfiable' };

/**
 * Reads an HTTP `Range` header against a file of `size` bytes (RFC 9110 §14). One range is served as 206;
 * a header that is not a bytes range, or asks for several ranges, is ignored (200 with the whole file, as the
 * RFC allows); a range starting past the end is 416.
 */
export function parseRange(header: string | undefined, size: number): RangeRequest {
  if (!header) return { kind: 'full' };
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match) return { kind: 'full' };
  const [, first, last] = match;
  if (first === '' && last === '') return { kind: 'full' };
  if (first === '') {
    // "bytes=-500": the last 500 bytes.
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (start >= size) return { kind: 'unsatisfiable' };
  if (end < start) return { kind: 'full' };
  return { kind: 'partial', start, end };
}
