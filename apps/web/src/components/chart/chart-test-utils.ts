/** Seeded randomness for the chart helpers' property tests (apps/web has no fast-check): repeatable failures. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randomInt(random: () => number, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

/** Ascending times with repeats and uneven steps, as an imported series may have. */
export function randomSortedTimes(random: () => number, length: number): Float64Array {
  const times = new Float64Array(length);
  let t = randomInt(random, -5, 5);
  for (let i = 0; i < length; i++) {
    times[i] = t;
    const r = random();
    t += r < 0.2 ? 0 : r < 0.6 ? 1 : randomInt(random, 1, 7) / 4;
  }
  return times;
}

/** Values with NaN gaps (single frames and runs) among integers. */
export function randomValues(random: () => number, length: number, nanRate = 0.1): Float64Array {
  const values = new Float64Array(length);
  let gap = 0;
  for (let i = 0; i < length; i++) {
    if (gap > 0) {
      values[i] = Number.NaN;
      gap--;
    } else if (random() < nanRate) {
      values[i] = Number.NaN;
      gap = randomInt(random, 0, 4);
    } else values[i] = randomInt(random, -50, 200);
  }
  return values;
}
