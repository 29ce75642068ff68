/**
 * Generated series with known truth for suggestions' tests and bench (issue 25): a motion-like signal (a noisy floor)
 * with three kinds of planted events — a twitch (a sharp spike, kept, labelled "twitch"), a burst (a broad plateau,
 * kept, labelled "burst"), and a slow drift that creeps over the threshold (discarded). Each video has its own gain
 * and noise, so a model must learn shapes, not one video's levels. `flickerScene` adds a pose set: there only the
 * body parts tell a twitch from a flicker of the light.
 */
import { detectEvents, type Series } from '../../analysis/engine/events.js';
import { seededRandom as random } from './forest.js';
import type { PoseTracks } from './pose-features.js';

export type PlantedKind = 'twitch' | 'burst' | 'drift';

export interface ReviewedEvent {
  time: number;
  discarded: boolean;
  label: string | null;
}

export interface ReviewScene {
  series: Series;
  threshold: number;
  /** The detected events with the decision a careful reviewer makes (the planted kind nearest the onset). */
  events: ReviewedEvent[];
  /** The animal's body parts, frame by frame, when the scene has a pose set. */
  pose?: PoseTracks;
}

/** A video's series: `seconds` at 30 fps, an event every 4–9 s of a kind drawn at random. */
export function reviewScene(seed: number, seconds = 600): ReviewScene {
  const fps = 30;
  const next = random(seed);
  const gain = 0.7 + 0.8 * next();
  const noise = 0.2 + 0.2 * next();
  const values = new Float64Array(seconds * fps);
  for (let i = 0; i < values.length; i++) values[i] = gain * (1 + noise * (next() + next() + next() - 1.5));
  const planted: { frame: number; kind: PlantedKind }[] = [];
  for (let t = 3 + 3 * next(); t < seconds - 10; t += 4 + 5 * next()) {
    const roll = next();
    const kind: PlantedKind = roll < 0.4 ? 'twitch' : roll < 0.65 ? 'burst' : 'drift';
    const start = Math.round(t * fps);
    planted.push({ frame: start, kind });
    const add = (offset: number, amount: number) => {
      const i = start + offset;
      if (i >= 0 && i < values.length) values[i]! += gain * amount;
    };
    if (kind === 'twitch') {
      const peak = 5 + 4 * next();
      for (let k = 0; k < 12; k++) add(k, peak * (k < 2 ? (k + 1) / 2 : Math.exp(-(k - 1) / 2.5)));
    } else if (kind === 'burst') {
      const level = 3 + 2 * next();
      for (let k = 0; k < 18; k++) add(k, level * (k < 3 ? (k + 1) / 3 : k > 14 ? (18 - k) / 4 : 1));
    } else {
      // Up over 3 s to a little above the threshold, down over 3 s.
      const top = 2.2 + 0.6 * next();
      for (let k = 0; k < 180; k++) add(k - 90, top * (1 - Math.abs(k - 90) / 90));
    }
  }
  const series: Series = { values, times: null, fps };
  const detected = detectEvents(series, { event_threshold_k: 3, event_threshold: null, refractory_s: 0.5 });
  const events = decide(detected.onsets, planted, fps);
  return { series, threshold: detected.threshold, events };
}

/** The reviewer's decision for each detected onset: the planted kind within 3 s of it, else a noise crossing. */
function decide(
  onsets: Int32Array | number[],
  planted: { frame: number; kind: PlantedKind | 'flicker' }[],
  fps: number,
) {
  return Array.from(onsets, (onset): ReviewedEvent => {
    let nearest = planted[0];
    for (const event of planted) {
      if (Math.abs(event.frame - onset) < Math.abs((nearest?.frame ?? 0) - onset)) nearest = event;
    }
    const kind = nearest && Math.abs(nearest.frame - onset) <= 3 * fps ? nearest.kind : 'drift';
    const kept = kind === 'twitch' || kind === 'burst';
    return { time: onset / fps, discarded: !kept, label: kept ? kind : null };
  });
}

/**
 * A video where the series cannot tell two kinds apart and a pose set can: every planted event is the same sharp
 * spike in the series, but only a twitch moves a body part (the paw swings 12–20 px out and back within a third of a
 * second, kept, labelled "twitch"); a flicker of the light moves nothing (discarded). Four points of a still animal,
 * about 40 × 30 px, with half a pixel of tracking jitter.
 */
export function flickerScene(seed: number, seconds = 600): ReviewScene {
  const fps = 30;
  const next = random(seed);
  const gain = 0.7 + 0.8 * next();
  const frames = seconds * fps;
  const values = new Float64Array(frames);
  for (let i = 0; i < frames; i++) values[i] = gain * (1 + 0.3 * (next() + next() + next() - 1.5));
  const home = [
    [100, 100],
    [140, 100],
    [100, 130],
    [140, 130],
  ];
  const x = home.map(([hx]) => Float64Array.from({ length: frames }, () => hx! + (next() - 0.5)));
  const y = home.map(([, hy]) => Float64Array.from({ length: frames }, () => hy! + (next() - 0.5)));
  const planted: { frame: number; kind: 'twitch' | 'flicker' }[] = [];
  for (let t = 3 + 3 * next(); t < seconds - 10; t += 4 + 5 * next()) {
    const kind = next() < 0.5 ? 'twitch' : 'flicker';
    const start = Math.round(t * fps);
    planted.push({ frame: start, kind });
    const peak = 5 + 4 * next();
    for (let k = 0; k < 12; k++) values[start + k]! += gain * peak * (k < 2 ? (k + 1) / 2 : Math.exp(-(k - 1) / 2.5));
    if (kind === 'twitch') {
      // The paw (point 1) out over 3 frames, back over 6.
      const reach = 12 + 8 * next();
      for (let k = 0; k < 10; k++) x[1]![start + k]! += reach * (k <= 3 ? k / 3 : (9 - k) / 6);
    }
  }
  const series: Series = { values, times: null, fps };
  const detected = detectEvents(series, { event_threshold_k: 3, event_threshold: null, refractory_s: 0.5 });
  return { series, threshold: detected.threshold, events: decide(detected.onsets, planted, fps), pose: { fps, x, y } };
}
