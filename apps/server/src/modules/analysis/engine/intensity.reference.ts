// Plain reference implementation of the counting definition for the engine's tests (not used by the app).

/** OpenCV's BORDER_REFLECT_101: index −1 is 1, index n is n − 2; a 1-long axis has only index 0. */
export function reflect101(index: number, length: number): number {
  if (length === 1) return 0;
  if (index < 0) return -index;
  if (index >= length) return 2 * length - 2 - index;
  return index;
}

/** `cv2.blur(frame, (3, 3))` written the obvious way: the 9 neighbours' sum over 9, rounded to the nearest integer. */
export function referenceBlur(frame: Uint8Array, width: number, height: number): Uint8Array {
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let sum = 0;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) sum += frame[reflect101(y + dy, height) * width + reflect101(x + dx, width)]!;
      }
      out[y * width + x] = Math.round(sum / 9);
    }
  }
  return out;
}

/** Pixels of `area` where the blurred frames differ by more than `threshold`, as a mask the size of `area`. */
export function referenceChangedMask(
  blurredBefore: Uint8Array,
  blurredNow: Uint8Array,
  width: number,
  area: { x: number; y: number; width: number; height: number },
  threshold: number,
): Uint8Array {
  const mask = new Uint8Array(area.width * area.height);
  for (let y = 0; y < area.height; y++) {
    for (let x = 0; x < area.width; x++) {
      const at = (area.y + y) * width + area.x + x;
      mask[y * area.width + x] = Math.abs(blurredNow[at]! - blurredBefore[at]!) > threshold ? 1 : 0;
    }
  }
  return mask;
}
