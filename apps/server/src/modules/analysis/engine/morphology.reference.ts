// Plain reference implementations for the engine's tests (not used by the app).

/**
 * Reference morphology written the obvious way: for each pixel, scan its k×k window clipped to the image.
 * Erosion's window at x is [x − ⌊k/2⌋, x − ⌊k/2⌋ + k − 1]; dilation's is the mirror, [x − (k − 1 − ⌊k/2⌋), x + ⌊k/2⌋].
 */
export function referenceMorphology(mask: Uint8Array, width: number, height: number, k: number, erode: boolean) {
  const half = Math.floor(k / 2);
  const before = erode ? half : k - 1 - half;
  const after = k - 1 - before;
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let all = true;
      let any = false;
      for (let wy = Math.max(0, y - before); wy <= Math.min(height - 1, y + after); wy++) {
        for (let wx = Math.max(0, x - before); wx <= Math.min(width - 1, x + after); wx++) {
          if (mask[wy * width + wx] === 1) any = true;
          else all = false;
        }
      }
      out[y * width + x] = (erode ? all : any) ? 1 : 0;
    }
  }
  return out;
}
