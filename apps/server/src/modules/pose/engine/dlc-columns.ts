/**
 * DeepLabCut's column index, shared by its CSV and HDF5 files: each data column is (scorer, [individual,] body part,
 * coord) with coord x, y or likelihood (x and y alone in hand-labelled CollectedData). A single-animal file's points
 * belong to the individual "single", as do a multi-animal file's unique body parts (DeepLabCut's own name for them).
 */
import { fileError, KeypointIndex, SINGLE } from './pose-data.js';

export interface DlcLabel {
  scorer: string;
  individual: string | null;
  bodypart: string;
  coord: string;
}

const CHANNEL_OF: Record<string, number> = { x: 0, y: 1, likelihood: 2 };

export interface DlcColumns {
  index: KeypointIndex;
  /** For each data column, the series it fills (keypoint × 3 + channel). */
  target: Int32Array;
  hasLikelihood: boolean;
  scorer: string | null;
}

export function dlcColumns(labels: DlcLabel[], where: (column: number) => string): DlcColumns {
  if (labels.length === 0) throw fileError('The file has no data columns (no body parts).');
  const index = new KeypointIndex();
  const target = new Int32Array(labels.length);
  const filled = new Map<number, Set<number>>();
  labels.forEach((label, column) => {
    const channel = CHANNEL_OF[label.coord];
    if (channel === undefined) {
      throw fileError(`${where(column)}: coords is "${label.coord}"; DeepLabCut's are x, y and likelihood.`);
    }
    if (label.bodypart === '') throw fileError(`${where(column)}: the body part is empty.`);
    const keypoint = index.index(label.individual || SINGLE, label.bodypart);
    const channels = filled.get(keypoint) ?? new Set<number>();
    if (channels.has(channel)) {
      throw fileError(`${where(column)}: a second "${label.coord}" for ${describe(label)}.`);
    }
    channels.add(channel);
    filled.set(keypoint, channels);
    target[column] = keypoint * 3 + channel;
  });
  let withLikelihood = 0;
  for (const [keypoint, channels] of filled) {
    const [i, b] = index.keypoints[keypoint]!;
    const name = describe({ individual: index.individuals[i]!, bodypart: index.bodyparts[b]! });
    if (!channels.has(0) || !channels.has(1)) {
      throw fileError(`${name} has ${channels.has(0) ? 'x but no y' : 'y but no x'} column.`);
    }
    if (channels.has(2)) withLikelihood++;
  }
  if (withLikelihood !== 0 && withLikelihood !== filled.size) {
    throw fileError('Some body parts have a likelihood column and others not: every one needs x, y and likelihood.');
  }
  const scorers = [...new Set(labels.map((label) => label.scorer))];
  return { index, target, hasLikelihood: withLikelihood > 0, scorer: scorers.length === 1 ? scorers[0]! : null };
}

function describe(label: { individual: string | null; bodypart: string }) {
  return label.individual && label.individual !== SINGLE
    ? `Body part "${label.bodypart}" of "${label.individual}"`
    : `Body part "${label.bodypart}"`;
}

/** The frame an image of a labelled-data folder shows: the digits at the end of its name (`img0042.png` → 42). */
export function frameOfImage(path: string): number | null {
  const name = path.split(/[\\/]/).pop() ?? '';
  const match = /(\d+)(?:\.[A-Za-z0-9]+)?$/.exec(name);
  return match ? Number(match[1]) : null;
}
