import type { PoseFrame, PoseSet } from './api';

/** Colours of the individuals, in the set's order (then round again). Bright on dark and light pictures. */
export const INDIVIDUAL_COLOURS = [
  'rgb(244 63 94)',
  'rgb(56 189 248)',
  'rgb(163 230 53)',
  'rgb(250 204 21)',
  'rgb(192 132 252)',
  'rgb(251 146 60)',
  'rgb(45 212 191)',
  'rgb(244 114 182)',
];

export function individualColour(set: Pick<PoseSet, 'individuals'>, individual: string): string {
  const index = Math.max(0, set.individuals.indexOf(individual));
  return INDIVIDUAL_COLOURS[index % INDIVIDUAL_COLOURS.length]!;
}

export interface PosePoint {
  individual: string;
  bodypart: string;
  x: number;
  y: number;
  /** Null for hand-labelled sets (no likelihood). */
  likelihood: number | null;
}

export interface PoseEdge {
  individual: string;
  from: PosePoint;
  to: PosePoint;
}

export interface PoseView {
  /** Points below this likelihood are hidden (sets without likelihoods show every point). */
  cutoff: number;
  /** Body parts switched off. */
  hidden: ReadonlySet<string>;
}

/**
 * What the overlay draws for one frame: the set's keypoints that are present, shown and at or above the cutoff, and
 * its skeleton edges whose two ends are both drawn, per individual.
 */
export function visiblePose(
  set: Pick<PoseSet, 'keypoints' | 'edges'>,
  frame: PoseFrame | undefined,
  view: PoseView,
): { points: PosePoint[]; edges: PoseEdge[] } {
  if (!frame) return { points: [], edges: [] };
  const points: PosePoint[] = [];
  const byKey = new Map<string, PosePoint>();
  for (const { individual, bodypart } of set.keypoints) {
    if (view.hidden.has(bodypart)) continue;
    const value = frame.individuals[individual]?.[bodypart];
    const x = value?.[0];
    const y = value?.[1];
    if (x == null || y == null || !Number.isFinite(x) || !Number.isFinite(y)) continue;
    const likelihood = value?.[2] ?? null;
    if (likelihood !== null && !(likelihood >= view.cutoff)) continue;
    const point = { individual, bodypart, x, y, likelihood };
    points.push(point);
    byKey.set(`${individual}\u0000${bodypart}`, point);
  }
  const edges: PoseEdge[] = [];
  const individuals = [...new Set(set.keypoints.map((k) => k.individual))];
  for (const individual of individuals) {
    for (const [a, b] of set.edges) {
      const from = byKey.get(`${individual}\u0000${a}`);
      const to = byKey.get(`${individual}\u0000${b}`);
      if (from && to) edges.push({ individual, from, to });
    }
  }
  return { points, edges };
}
