/**
 * Small reference implementations of the figures' documented definitions (ADR 025, figure.ts), written the
 * other way round from the code under test, for the tests only.
 */

/**
 * Seconds per heat-map bin, keyed `column,row`, non-empty bins only: for each bin (side ⌈max(w, h) / 64⌉ from
 * the top-left corner), the frames whose position lies in the bin and on the picture, over fps.
 */
export function referenceBinSeconds(
  x: ArrayLike<number>,
  y: ArrayLike<number>,
  width: number,
  height: number,
  fps: number,
): Map<string, number> {
  const side = Math.ceil(Math.max(width, height) / 64);
  const seconds = new Map<string, number>();
  for (let top = 0; top < height; top += side) {
    for (let left = 0; left < width; left += side) {
      let frames = 0;
      for (let f = 0; f < x.length; f++) {
        const px = x[f]!;
        const py = y[f]!;
        const inPicture = px >= 0 && px < width && py >= 0 && py < height;
        if (inPicture && px >= left && px < left + side && py >= top && py < top + side) frames++;
      }
      if (frames > 0) seconds.set(`${left / side},${top / side}`, frames / fps);
    }
  }
  return seconds;
}

/**
 * The drawn path: the positions split where one is missing (NaN), each piece walked keeping the positions a pixel
 * or more from the last kept one, and its last position.
 */
export function referencePath(x: ArrayLike<number>, y: ArrayLike<number>): [number, number][][] {
  const pieces: [number, number][][] = [];
  let current: [number, number][] = [];
  const flush = () => {
    if (current.length === 0) return;
    const kept = [current[0]!];
    for (const point of current.slice(1)) {
      const last = kept[kept.length - 1]!;
      if (Math.hypot(point[0] - last[0], point[1] - last[1]) >= 1) kept.push(point);
    }
    const end = current[current.length - 1]!;
    if (kept[kept.length - 1] !== end) kept.push(end);
    pieces.push(kept);
    current = [];
  };
  for (let f = 0; f < x.length; f++) {
    if (Number.isNaN(x[f]!) || Number.isNaN(y[f]!)) flush();
    else current.push([x[f]!, y[f]!]);
  }
  flush();
  return pieces;
}
