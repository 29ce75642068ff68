/**
 * SLEAP's analysis HDF5. As SLEAP writes it (transposed for MATLAB, as h5py and h5wasm read it): `tracks`
 * (tracks, 2, nodes, frames), `track_occupancy` (frames, tracks), `point_scores` (tracks, nodes, frames),
 * and `edge_inds` (edges, 2), which is not transposed. Newer writers can keep the standard order — (frames, nodes, 2,
 * tracks), (tracks, frames), (frames, nodes, tracks) — and the shapes tell which, with the node count and the frame count.
 */
import type { Dataset, File } from 'h5wasm/node';
import { emptyValues, fileError, KeypointIndex, type ParsedPose, SINGLE } from './pose-data.js';

function dataset(file: File, name: string): Dataset | null {
  if (!file.keys().includes(name)) return null;
  const entity = file.get(name);
  return entity && 'shape' in entity ? (entity as Dataset) : null;
}

function names(file: File, name: string): string[] {
  const value: unknown = dataset(file, name)?.value;
  if (value === null || value === undefined) return [];
  const list: unknown[] = Array.isArray(value)
    ? value
    : typeof value === 'string'
      ? [value]
      : Array.from(value as ArrayLike<unknown>);
  return list.map((item) =>
    typeof item === 'string'
      ? item.replace(/\0+$/, '')
      : item instanceof Uint8Array
        ? new TextDecoder().decode(item)
        : String(item),
  );
}

function numbers(set: Dataset): ArrayLike<number> {
  const value: unknown = set.value;
  if (value instanceof BigInt64Array || value instanceof BigUint64Array) return Array.from(value, Number);
  if (ArrayBuffer.isView(value)) return value as unknown as ArrayLike<number>;
  if (Array.isArray(value)) return (value as unknown[]).flat(8).map(Number);
  throw fileError(`"${set.path.slice(1)}" does not hold numbers.`);
}

/** `videoFrames` (when the file should cover the video) decides between the two orders when the shapes alone cannot. */
export function readSleapH5(file: File, videoFrames: number | null): ParsedPose {
  const tracksSet = dataset(file, 'tracks')!;
  const shape = tracksSet.shape ?? [];
  if (shape.length !== 4) {
    throw fileError(`"tracks" has ${shape.length} dimensions; SLEAP's has 4 (tracks, 2, nodes, frames).`);
  }
  const nodeNames = names(file, 'node_names');
  if (nodeNames.length === 0) throw fileError('The SLEAP file has no "node_names".');
  const nodes = nodeNames.length;
  const matlabFits = shape[1] === 2 && shape[2] === nodes;
  const standardFits = shape[2] === 2 && shape[1] === nodes;
  let matlab: boolean;
  if (matlabFits && standardFits) {
    // (2, 2, 2, 2)-like shapes: the frame count decides, else SLEAP's default (MATLAB order).
    matlab = !(videoFrames !== null && shape[0] === videoFrames && shape[3] !== videoFrames);
  } else if (matlabFits || standardFits) {
    matlab = matlabFits;
  } else {
    throw fileError(
      `"tracks" has shape (${shape.join(', ')}), which fits neither (tracks, 2, ${nodes}, frames) nor (frames, ${nodes}, 2, tracks) for the ${nodes} node names.`,
    );
  }
  const trackCount = matlab ? shape[0]! : shape[3]!;
  const frames = matlab ? shape[3]! : shape[0]!;
  const trackNames = names(file, 'track_names');
  if (trackNames.length !== 0 && trackNames.length !== trackCount) {
    throw fileError(`"track_names" has ${trackNames.length} names for ${trackCount} tracks.`);
  }
  const individuals =
    trackNames.length > 0
      ? trackNames
      : trackCount === 1
        ? [SINGLE]
        : Array.from({ length: trackCount }, (_, t) => `track_${t}`);
  if (new Set(individuals).size !== individuals.length) throw fileError('"track_names" holds a name twice.');

  const points = numbers(tracksSet);
  const occupancySet = dataset(file, 'track_occupancy');
  const occupancy = occupancySet ? numbers(occupancySet) : null;
  if (occupancySet && (occupancySet.shape ?? []).reduce((a, b) => a * b, 1) !== frames * trackCount) {
    throw fileError(
      `"track_occupancy" has shape (${occupancySet.shape?.join(', ')}); ${frames} frames × ${trackCount} tracks expected.`,
    );
  }
  const scoresSet = dataset(file, 'point_scores');
  const scores = scoresSet ? numbers(scoresSet) : null;
  if (scoresSet && (scoresSet.shape ?? []).reduce((a, b) => a * b, 1) !== frames * trackCount * nodes) {
    throw fileError(
      `"point_scores" has shape (${scoresSet.shape?.join(', ')}); ${trackCount} tracks × ${nodes} nodes × ${frames} frames expected.`,
    );
  }

  const index = new KeypointIndex();
  const keypoint = individuals.map((individual) => nodeNames.map((node) => index.index(individual, node)));
  const values = emptyValues(index.size, frames);
  for (let t = 0; t < trackCount; t++) {
    for (let n = 0; n < nodes; n++) {
      const k = keypoint[t]![n]!;
      const xs = values[k * 3]!;
      const ys = values[k * 3 + 1]!;
      const ls = values[k * 3 + 2]!;
      for (let f = 0; f < frames; f++) {
        const occupied =
          occupancy === null || (matlab ? occupancy[f * trackCount + t] : occupancy[t * frames + f]) !== 0;
        if (!occupied) continue;
        // MATLAB order (tracks, 2, nodes, frames); standard (frames, nodes, 2, tracks).
        const x = matlab
          ? points[((t * 2 + 0) * nodes + n) * frames + f]!
          : points[((f * nodes + n) * 2 + 0) * trackCount + t]!;
        const y = matlab
          ? points[((t * 2 + 1) * nodes + n) * frames + f]!
          : points[((f * nodes + n) * 2 + 1) * trackCount + t]!;
        xs[f] = x;
        ys[f] = y;
        if (scores) ls[f] = matlab ? scores[(t * nodes + n) * frames + f]! : scores[(f * nodes + n) * trackCount + t]!;
      }
    }
  }
  return {
    format: 'sleap_h5',
    scorer: null,
    individuals,
    bodyparts: index.bodyparts,
    keypoints: index.keypoints,
    edges: edgesOf(file, nodeNames),
    hasLikelihood: scores !== null,
    rows: frames,
    rowFrames: null,
    values,
  };
}

function edgesOf(file: File, nodeNames: string[]): [string, string][] {
  const set = dataset(file, 'edge_inds');
  const shape = set?.shape ?? [];
  if (!set || shape.length !== 2 || shape.includes(0)) return [];
  const flat = numbers(set);
  // SLEAP writes (edges, 2) in either order of the other arrays (it is not transposed); (2, edges) is read too.
  const pairsFirst = shape[1] === 2;
  if (!pairsFirst && shape[0] !== 2)
    throw fileError(`"edge_inds" has shape (${shape.join(', ')}); (edges, 2) expected.`);
  const count = pairsFirst ? shape[0]! : shape[1]!;
  const edges: [string, string][] = [];
  for (let e = 0; e < count; e++) {
    const a = pairsFirst ? flat[e * 2]! : flat[e]!;
    const b = pairsFirst ? flat[e * 2 + 1]! : flat[count + e]!;
    const from = nodeNames[a];
    const to = nodeNames[b];
    if (from === undefined || to === undefined) {
      throw fileError(`"edge_inds" names node ${from === undefined ? a : b}; the file has ${nodeNames.length}.`);
    }
    edges.push([from, to]);
  }
  return edges;
}
