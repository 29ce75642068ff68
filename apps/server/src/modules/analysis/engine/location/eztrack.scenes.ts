/**
 * Generated arenas with known truth for the eztrack tests: a textured lighter floor, a dark (or light) ellipse
 * "animal" moving on a known path, per-frame noise, optionally a thin wire down to the animal and a dark
 * distractor (to sit under an exclusion region). Deterministic (seeded). Test support only.
 */

/** mulberry32: a small seeded generator, so every run draws the same frames. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface SceneOptions {
  width: number;
  height: number;
  frames: number;
  seed?: number;
  /** Amplitude of the floor's texture (0: flat). */
  texture?: number;
  /** Per-frame noise, ± this many gray levels. */
  noise?: number;
  /** The animal's gray value (darker or lighter than the floor's ~150). */
  animal?: number;
  /** A 1-pixel wire of this gray value from the top edge down to the animal. */
  wire?: number | null;
  /** A square distractor [x, y, side, gray], fixed in place. */
  distractor?: [number, number, number, number] | null;
  /** Frames (by index) that show the bare floor, without animal, wire or noise. */
  empty?: readonly number[];
  semiAxes?: [number, number];
}

export interface Scene {
  width: number;
  height: number;
  floor: Uint8Array;
  frames: Uint8Array[];
  /** The animal's centre per frame (null on empty frames), and the mean (column, row) of its drawn pixels. */
  centres: ({ x: number; y: number } | null)[];
  drawnCentroids: ({ x: number; y: number } | null)[];
}

/** The animal's path: a loop around the arena, so the window has to follow it. */
function centreAt(t: number, width: number, height: number) {
  return {
    x: width / 2 + width * 0.28 * Math.cos(t * 0.45) + 0.37,
    y: height / 2 + height * 0.26 * Math.sin(t * 0.6) + 0.21,
  };
}

export function makeScene(options: SceneOptions): Scene {
  const { width, height } = options;
  const random = seeded(options.seed ?? 1);
  const texture = options.texture ?? 12;
  const floor = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const pattern = texture * Math.sin(x / 6) * Math.cos(y / 9) + (texture / 2) * (random() - 0.5);
      floor[y * width + x] = Math.round(150 + pattern);
    }
  }
  const [a, b] = options.semiAxes ?? [8, 4.5];
  const frames: Uint8Array[] = [];
  const centres: Scene['centres'] = [];
  const drawnCentroids: Scene['drawnCentroids'] = [];
  for (let f = 0; f < options.frames; f++) {
    const frame = Uint8Array.from(floor);
    if (options.empty?.includes(f)) {
      frames.push(frame);
      centres.push(null);
      drawnCentroids.push(null);
      continue;
    }
    const noise = options.noise ?? 3;
    if (noise > 0) {
      for (let i = 0; i < frame.length; i++) {
        frame[i] = Math.max(0, Math.min(255, (frame[i] as number) + Math.round((random() * 2 - 1) * noise)));
      }
    }
    const centre = centreAt(f, width, height);
    const angle = f * 0.4;
    const cos = Math.cos(angle);
    const sin = Math.sin(angle);
    let sumX = 0;
    let sumY = 0;
    let count = 0;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        // Pixel (x, y) covers [x, x + 1) × [y, y + 1): the animal covers it when its centre is inside.
        const dx = x + 0.5 - centre.x;
        const dy = y + 0.5 - centre.y;
        const u = (dx * cos + dy * sin) / a;
        const v = (-dx * sin + dy * cos) / b;
        if (u * u + v * v <= 1) {
          frame[y * width + x] = options.animal ?? 50;
          sumX += x;
          sumY += y;
          count++;
        }
      }
    }
    if (options.wire != null) {
      const column = Math.round(centre.x);
      for (let y = 0; y < Math.round(centre.y); y++) frame[y * width + column] = options.wire;
    }
    if (options.distractor) {
      const [dx0, dy0, side, gray] = options.distractor;
      for (let y = dy0; y < dy0 + side; y++) for (let x = dx0; x < dx0 + side; x++) frame[y * width + x] = gray;
    }
    frames.push(frame);
    centres.push(centre);
    drawnCentroids.push({ x: sumX / count, y: sumY / count });
  }
  return { width, height, floor, frames, centres, drawnCentroids };
}
