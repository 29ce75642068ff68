import { describe, expect, it } from 'vitest';
import { insideMask, type LocationSummaryInput, locationSummary, type ZoneMask } from './summary.js';

const W = 40;
const H = 30;

/** A filled rectangle [x0, x1) × [y0, y1) as a zone mask. */
function rect(name: string, x0: number, y0: number, x1: number, y1: number): ZoneMask {
  const mask = new Uint8Array(W * H);
  for (let r = y0; r < y1; r++) for (let c = x0; c < x1; c++) mask[r * W + c] = 1;
  return { name, mask };
}

function input(points: ([number, number] | null)[], extra: Partial<LocationSummaryInput> = {}): LocationSummaryInput {
  return {
    x: Float64Array.from(points, (p) => (p ? p[0] : Number.NaN)),
    y: Float64Array.from(points, (p) => (p ? p[1] : Number.NaN)),
    fps: 10,
    width: W,
    height: H,
    zones: [],
    scale: null,
    binS: null,
    bypassRanges: [],
    ...extra,
  };
}

describe('location summary, on hand-checked tracks', () => {
  it('distance sums Euclidean steps and restarts after a frame without a position', () => {
    // Steps: (0,0)→(3,4) = 5, (3,4)→(6,8) = 5, then no position, then (6,8)→(6,10) after the gap does not count,
    // (6,10)→(6,11) = 1. Total 11 px over 5 tracked frames at 10 fps = 0.5 s.
    const summary = locationSummary(input([[0, 0], [3, 4], [6, 8], null, [6, 10], [6, 11]]));
    expect(summary.frames).toBe(6);
    expect(summary.frames_tracked).toBe(5);
    expect(summary.tracked_s).toBeCloseTo(0.5, 12);
    expect(summary.distance_px).toBe(11);
    expect(summary.distance).toBeNull();
    expect(summary.unit).toBeNull();
    // Without a scale the speed is in pixels per second: 11 px / 0.5 s.
    expect(summary.mean_speed).toBeCloseTo(22, 12);
  });

  it('a scale converts distance and speed to its unit', () => {
    // 20 px are 5 cm: 0.25 cm per pixel; 10 px → 2.5 cm over 2 tracked frames (0.2 s) = 12.5 cm/s.
    const summary = locationSummary(
      input(
        [
          [0, 0],
          [6, 8],
        ],
        { scale: { px_distance: 20, true_distance: 5, unit: 'cm' } },
      ),
    );
    expect(summary.distance_px).toBe(10);
    expect(summary.distance).toBeCloseTo(2.5, 12);
    expect(summary.unit).toBe('cm');
    expect(summary.mean_speed).toBeCloseTo(12.5, 12);
  });

  it('nothing tracked: zero distance, no speed, no percentages', () => {
    const summary = locationSummary(input([null, null], { zones: [rect('A', 0, 0, 10, 10)] }));
    expect(summary).toMatchObject({ frames_tracked: 0, distance_px: 0, mean_speed: null });
    expect(summary.zones[0]).toMatchObject({ time_s: 0, percent: null, entries: 0, latency_s: null });
  });

  it("zone membership is the mask's pixel at (⌊x⌋, ⌊y⌋): edges of the filled pixels included", () => {
    const zone = rect('A', 10, 10, 20, 20);
    expect(insideMask(zone.mask, W, H, 10, 10)).toBe(true);
    expect(insideMask(zone.mask, W, H, 19.999, 19.999)).toBe(true);
    expect(insideMask(zone.mask, W, H, 20, 15)).toBe(false);
    expect(insideMask(zone.mask, W, H, 9.999, 15)).toBe(false);
    expect(insideMask(zone.mask, W, H, -0.5, 15)).toBe(false);
    expect(insideMask(zone.mask, W, H, 45, 15)).toBe(false);
  });

  it('entries, time, percent, latency and distance inside a zone', () => {
    const A = rect('A', 10, 0, 20, 30);
    // Frames: 0 out, 1 out, 2 in, 3 in, 4 (none), 5 in, 6 out, 7 in, 8 in.
    const track: ([number, number] | null)[] = [
      [0, 5],
      [5, 5],
      [12, 5],
      [15, 5],
      null,
      [15, 9],
      [25, 9],
      [15, 9],
      [15, 12],
    ];
    const [zone] = locationSummary(input(track, { zones: [A] })).zones;
    // In: frames 2, 3, 5, 7, 8 = 5 of 8 tracked frames at 10 fps.
    expect(zone!.time_s).toBeCloseTo(0.5, 12);
    expect(zone!.percent).toBeCloseTo(62.5, 12);
    // Out→in: 1→2 and 6→7; 3→(none)→5 stays inside, so it is no new entry.
    expect(zone!.entries).toBe(2);
    // First inside at frame 2, first analysed frame 0: 0.2 s.
    expect(zone!.latency_s).toBeCloseTo(0.2, 12);
    // Steps with both ends inside: 2→3 = 3, 7→8 = 3 (3→5 spans the gap and is no step).
    expect(zone!.distance_px).toBe(6);
  });

  it('starting inside is an entry with latency 0; overlapping zones count independently', () => {
    const A = rect('A', 0, 0, 20, 30);
    const B = rect('B', 10, 0, 30, 30);
    const summary = locationSummary(
      input(
        [
          [5, 5],
          [15, 5],
          [25, 5],
          [15, 5],
        ],
        { zones: [A, B] },
      ),
    );
    const [a, b] = summary.zones;
    // A: in, in, out, in → entries 1 (start) + 1 (2→3); latency 0.
    expect(a).toMatchObject({ entries: 2, latency_s: 0 });
    expect(a!.time_s).toBeCloseTo(0.3, 12);
    // B: out, in, in, in → one entry at frame 1.
    expect(b).toMatchObject({ entries: 1 });
    expect(b!.latency_s).toBeCloseTo(0.1, 12);
    expect(b!.distance_px).toBe(20);
  });

  it('latency counts from the first analysed frame: a bypassed start is not waited for', () => {
    const A = rect('A', 10, 0, 20, 30);
    // 0.0–0.3 s bypassed (frames 0–2, no positions); frame 3 out, frame 4 in.
    const summary = locationSummary(
      input([null, null, null, [5, 5], [15, 5]], { zones: [A], bypassRanges: [[0, 0.3]] }),
    );
    expect(summary.zones[0]!.latency_s).toBeCloseTo(0.1, 12);
    // Never inside: null.
    const never = locationSummary(
      input(
        [
          [5, 5],
          [6, 5],
        ],
        { zones: [A] },
      ),
    );
    expect(never.zones[0]!.latency_s).toBeNull();
    expect(never.zones[0]!.entries).toBe(0);
  });

  it('bins: steps by their second frame, entries by the entering frame, latency from the bin start', () => {
    const A = rect('A', 10, 0, 20, 30);
    // 10 fps, bin_s 0.3: bins [0, 0.3) = frames 0–2, [0.3, 0.6) = 3–5, [0.6, 0.7) = frame 6 (ends at the duration).
    const track: ([number, number] | null)[] = [
      [0, 0],
      [0, 3],
      [12, 3],
      [12, 7],
      [0, 7],
      [14, 7],
      [14, 10],
    ];
    const summary = locationSummary(input(track, { zones: [A], binS: 0.3 }));
    expect(summary.bins.map((bin) => [bin.start_s, bin.end_s])).toEqual([
      [0, 0.3],
      [0.3, 0.6],
      [0.6, expect.closeTo(0.7, 12)],
    ]);
    // Steps: 3, 12, 4, 12, 14, 3 → bin 0 gets 1→2 (3 + 12), bin 1 gets 3, 4, 5 (4 + 12 + 14), bin 2 gets 3.
    expect(summary.bins.map((bin) => bin.distance_px)).toEqual([15, 30, 3]);
    expect(summary.distance_px).toBe(48);
    const zones = summary.bins.map((bin) => bin.zones[0]!);
    // In at frames 2, 3, 5, 6: entries at 2 (bin 0) and 5 (bin 1); frame 3 continues frame 2's visit.
    expect(zones.map((zone) => zone.entries)).toEqual([1, 1, 0]);
    expect(summary.zones[0]!.entries).toBe(2);
    // Latency from each bin's first frame: frame 2 − 0, frame 3 − 3, frame 6 − 6.
    expect(zones.map((zone) => zone.latency_s)).toEqual([expect.closeTo(0.2, 12), 0, 0]);
    // Distance inside: 2→3 (4, bin 1), 5→6 (3, bin 2).
    expect(zones.map((zone) => zone.distance_px)).toEqual([0, 4, 3]);
    expect(zones.map((zone) => zone.percent)).toEqual([expect.closeTo(100 / 3, 12), expect.closeTo(200 / 3, 12), 100]);
  });
});

/** The documented definitions, written plainly (per zone, per frame, with lists), to compare on random tracks. */
function reference(inp: LocationSummaryInput) {
  const { x, y, fps } = inp;
  const n = x.length;
  const has = (f: number) => !Number.isNaN(x[f]!) && !Number.isNaN(y[f]!);
  const isIn = (zone: ZoneMask, f: number) => {
    if (!has(f)) return false;
    const c = Math.floor(x[f]!);
    const r = Math.floor(y[f]!);
    return c >= 0 && r >= 0 && c < inp.width && r < inp.height && zone.mask[r * inp.width + c] === 1;
  };
  const step = (f: number) => (f > 0 && has(f) && has(f - 1) ? Math.hypot(x[f]! - x[f - 1]!, y[f]! - y[f - 1]!) : 0);
  const bypassed = (f: number) =>
    inp.bypassRanges.some(([s, e]) => f >= Math.ceil(s * fps - 1e-6) && f < Math.ceil(e * fps - 1e-6));
  const frames = Array.from({ length: n }, (_, f) => f);
  const tracked = frames.filter(has);
  const zones = inp.zones.map((zone) => {
    const inside = tracked.filter((f) => isIn(zone, f));
    let entries = 0;
    tracked.forEach((f, i) => {
      if (isIn(zone, f) && (i === 0 || !isIn(zone, tracked[i - 1]!))) entries++;
    });
    const firstAnalysed = frames.find((f) => !bypassed(f))!;
    return {
      time_s: inside.length / fps,
      percent: tracked.length ? (inside.length / tracked.length) * 100 : null,
      entries,
      latency_s: inside.length ? (inside[0]! - firstAnalysed) / fps : null,
      distance_px: frames.filter((f) => f > 0 && isIn(zone, f) && isIn(zone, f - 1)).reduce((s, f) => s + step(f), 0),
    };
  });
  return { tracked: tracked.length, distance: frames.reduce((s, f) => s + step(f), 0), zones };
}

describe('location summary, against the plain definitions', () => {
  it('equals the reference on random walks with gaps, bypasses and overlapping zones', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (let trial = 0; trial < 20; trial++) {
      const n = 200 + Math.floor(random() * 200);
      const points: ([number, number] | null)[] = [];
      let px = random() * W;
      let py = random() * H;
      for (let f = 0; f < n; f++) {
        px = Math.min(W + 2, Math.max(-2, px + (random() - 0.5) * 6));
        py = Math.min(H + 2, Math.max(-2, py + (random() - 0.5) * 6));
        points.push(random() < 0.1 ? null : [px, py]);
      }
      const bypassRanges: [number, number][] = [
        [0, 0.5 + random()],
        [5, 6],
      ];
      // Bypassed frames have no position, as the run stores them.
      for (let f = 0; f < n; f++)
        if (f < Math.ceil(bypassRanges[0]![1] * 10 - 1e-6) || (f >= 50 && f < 60)) points[f] = null;
      const zones = [rect('A', 0, 0, 20, 15), rect('B', 10, 5, 40, 30), rect('C', 30, 0, 33, 3)];
      const inp = input(points, { zones, bypassRanges });
      const summary = locationSummary(inp);
      const expected = reference(inp);
      expect(summary.frames_tracked).toBe(expected.tracked);
      expect(summary.distance_px).toBeCloseTo(expected.distance, 9);
      summary.zones.forEach((zone, z) => {
        const want = expected.zones[z]!;
        expect(zone.entries).toBe(want.entries);
        expect(zone.time_s).toBeCloseTo(want.time_s, 12);
        expect(zone.latency_s).toEqual(want.latency_s === null ? null : expect.closeTo(want.latency_s, 12));
        expect(zone.percent ?? -1).toBeCloseTo(want.percent ?? -1, 9);
        expect(zone.distance_px).toBeCloseTo(want.distance_px, 9);
      });
      // Bins add up to the whole: frames, distance, time and entries.
      const binned = locationSummary({ ...inp, binS: 3.7 });
      expect(binned.bins.reduce((s, b) => s + b.frames_tracked, 0)).toBe(expected.tracked);
      expect(binned.bins.reduce((s, b) => s + b.distance_px, 0)).toBeCloseTo(expected.distance, 9);
      binned.zones.forEach((zone, z) => {
        expect(binned.bins.reduce((s, b) => s + b.zones[z]!.entries, 0)).toBe(zone.entries);
        expect(binned.bins.reduce((s, b) => s + b.zones[z]!.time_s, 0)).toBeCloseTo(zone.time_s, 9);
      });
    }
  });
});
