/**
 * Pose files of every format, written from one known truth in the formats' documented layouts (DeepLabCut's CSV and
 * pandas table, SLEAP's analysis HDF5 in both orders and its CSV), so tests compare what the app answers with what
 * was written. HDF5 is written with h5wasm; the pandas column labels as a protocol-0 pickle made here by hand.
 */
import h5wasm from 'h5wasm/node';

export interface PoseTruth {
  frames: number;
  individuals: string[];
  /** Body parts of each individual (a multi-animal DeepLabCut file's "single" has its own). */
  parts: Record<string, string[]>;
  /** The point of (frame, individual, part), or null when it is missing. */
  point(frame: number, individual: string, part: string): [number, number, number] | null;
}

/** Deterministic points with decimals; every 13th frame of a part is missing, shifted per part. */
export function makeTruth(frames: number, parts: Record<string, string[]>): PoseTruth {
  const individuals = Object.keys(parts);
  return {
    frames,
    individuals,
    parts,
    point(frame, individual, part) {
      const i = individuals.indexOf(individual);
      const p = parts[individual]!.indexOf(part);
      if ((frame + 3 * p + 5 * i) % 13 === 0) return null;
      const x = Math.round((320 + 200 * Math.sin(frame / 37 + p + i * 2)) * 1e4) / 1e4;
      const y = Math.round((240 + 150 * Math.cos(frame / 53 + 2 * p - i)) * 1e4) / 1e4;
      const likelihood = ((frame * 7 + p * 11 + i * 5) % 1000) / 1000 + 0.0003;
      return [x, y, likelihood];
    },
  };
}

/** What the app should answer for a point: the written numbers as Float32, likelihood null when not written. */
export function expectedPoint(truth: PoseTruth, frame: number, individual: string, part: string, likelihood = true) {
  const point = truth.point(frame, individual, part);
  if (!point) return null;
  return [Math.fround(point[0]), Math.fround(point[1]), likelihood ? Math.fround(point[2]) : null];
}

const columnsOf = (truth: PoseTruth) =>
  truth.individuals.flatMap((individual) => truth.parts[individual]!.map((part) => [individual, part] as const));

const num = (value: number | undefined) => (value === undefined || Number.isNaN(value) ? '' : String(value));

/**
 * DeepLabCut's CSV. `multi`: the 4-row header with `individuals`; `labelled`: x, y only, indexed by image paths, only
 * the frames in `labelledFrames`.
 */
export function dlcCsv(
  truth: PoseTruth,
  options: { multi?: boolean; labelledFrames?: number[]; scorer?: string; crlf?: boolean } = {},
): Buffer {
  const scorer = options.scorer ?? 'DLC_resnet50_openfieldOct30shuffle1_1030000';
  const coords = options.labelledFrames ? ['x', 'y'] : ['x', 'y', 'likelihood'];
  const columns = columnsOf(truth).flatMap(([individual, part]) => coords.map((coord) => [individual, part, coord]));
  const rows = [
    ['scorer', ...columns.map(() => scorer)],
    ...(options.multi ? [['individuals', ...columns.map((c) => c[0]!)]] : []),
    ['bodyparts', ...columns.map((c) => c[1]!)],
    ['coords', ...columns.map((c) => c[2]!)],
  ];
  const frames = options.labelledFrames ?? Array.from({ length: truth.frames }, (_, f) => f);
  for (const frame of frames) {
    const index = options.labelledFrames
      ? `labeled-data/openfield/img${String(frame).padStart(4, '0')}.png`
      : String(frame);
    rows.push([
      index,
      ...columnsOf(truth).flatMap(([individual, part]) => {
        const point = truth.point(frame, individual, part);
        return coords.map((_, c) => num(point?.[c]));
      }),
    ]);
  }
  return Buffer.from(`${rows.map((row) => row.join(',')).join(options.crlf ? '\r\n' : '\n')}\n`);
}

/**
 * DeepLabCut's project file, config.yaml, as `deeplabcut.create_new_project` writes it (and as a user edits it): the
 * project's keys with their comments, the body parts, and the skeleton as a block list of pairs. `multi`: the
 * multi-animal layout (`individuals`, `uniquebodyparts`, `multianimalbodyparts`, `bodyparts: MULTI!`).
 */
export function dlcConfigYaml(
  truth: Pick<PoseTruth, 'individuals' | 'parts'>,
  skeleton: [string, string][],
  options: { multi?: boolean } = {},
): Buffer {
  const named = truth.individuals.filter((individual) => individual !== 'single');
  const animalParts = truth.parts[named[0] ?? truth.individuals[0]!]!;
  const list = (items: string[]) => items.map((item) => `- ${item}`).join('\n');
  const lines = [
    '    # Project definitions (do not edit)',
    'Task: openfield',
    'scorer: Mara',
    'date: Nov27',
    `multianimalproject: ${options.multi ? 'true' : 'false'}`,
    'identity:',
    '',
    '    # Project path (change when moving around)',
    'project_path: /home/mara/openfield-Mara-2026-11-27',
    '',
    '    # Annotation data set configuration (and individual video cropping parameters)',
    'video_sets:',
    '  /home/mara/videos/openfield.mp4:',
    '    crop: 0, 640, 0, 480',
    ...(options.multi
      ? [
          'individuals:',
          list(named),
          'uniquebodyparts:',
          list(truth.parts.single ?? []),
          'multianimalbodyparts:',
          list(animalParts),
          'bodyparts: MULTI!',
        ]
      : ['bodyparts:', list(animalParts)]),
    '',
    '    # Fraction of video to start/stop when extracting frames for labeling/refinement',
    'start: 0',
    'stop: 1',
    'numframes2pick: 20',
    '',
    '    # Plotting configuration',
    'skeleton:',
    ...skeleton.map(([a, b]) => `- - ${a}\n  - ${b}`),
    'skeleton_color: black',
    'pcutoff: 0.6',
    'dotsize: 12',
    'alphavalue: 0.7',
    'colormap: rainbow',
    '',
    '    # Training,Evaluation and Analysis configuration',
    'TrainingFraction:',
    '- 0.95',
    'iteration: 0',
    'default_net_type: resnet_50',
    'snapshotindex: -1',
    'batch_size: 8',
  ];
  return Buffer.from(`${lines.join('\n')}\n`);
}

/** SLEAP's analysis CSV: one row per instance present (a track's frame with at least one point). */
export function sleapCsv(truth: PoseTruth, options: { untracked?: boolean } = {}): Buffer {
  const nodes = truth.parts[truth.individuals[0]!]!;
  const header = ['track', 'frame_idx', 'instance.score', ...nodes.flatMap((n) => [`${n}.x`, `${n}.y`, `${n}.score`])];
  const lines = [header.join(',')];
  for (let frame = 0; frame < truth.frames; frame++) {
    for (const individual of truth.individuals) {
      const points = nodes.map((node) => truth.point(frame, individual, node));
      if (points.every((point) => point === null)) continue;
      lines.push(
        [
          options.untracked ? '' : individual,
          frame,
          '0.93',
          ...points.flatMap((point) => [num(point?.[0]), num(point?.[1]), num(point?.[2])]),
        ].join(','),
      );
    }
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

/** Python's pickle protocol 0 of a list of tuples of str, as PyTables writes it (memoised repeats included). */
export function pickleLabels(labels: string[][], wrapAxes = false): string {
  const memo = new Map<string, number>();
  let next = 0;
  const put = () => `p${next++}\n`;
  let out = wrapAxes ? `(lp${next++}\n(I1\n(lp${next++}\n` : `(lp${next++}\n`;
  for (const label of labels) {
    out += '(';
    for (const part of label) {
      const known = memo.get(part);
      if (known !== undefined) out += `g${known}\n`;
      else {
        memo.set(part, next);
        out += `V${part.replace(/[\\\n\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n${put()}`;
      }
    }
    out += `t${put()}a`;
  }
  return wrapAxes ? `${out}t${put()}a.` : `${out}.`;
}

/**
 * DeepLabCut's `.h5` as pandas writes it (`df.to_hdf(key="df_with_missing", format="table")`): the group
 * `df_with_missing` with `pandas_type` and the labels pickled in `non_index_axes`, the compound table `table` with an
 * int64 `index` and the values, each block's labels pickled in `values_block_<k>_kind`.
 *
 * pandas puts all float64 columns in one block, `values_block_0`, an HDF5 array member of the compound. h5wasm
 * cannot write array members inside a compound (its writer answers "data type not supported"), so here each column
 * is its own block of one scalar float64 — a layout pandas makes for blocks of different dtypes, read by the same
 * code. The one-array-member layout was checked by hand on DeepLabCut's own example files (ADR 030).
 * `labelsOnGroupOnly` leaves the blocks' attributes out, so only `non_index_axes` says the labels.
 */
export async function dlcH5(
  path: string,
  truth: PoseTruth,
  options: { multi?: boolean; labelsOnGroupOnly?: boolean } = {},
): Promise<void> {
  await h5wasm.ready;
  const scorer = 'DLC_resnet50_openfieldOct30shuffle1_1030000';
  const points = columnsOf(truth);
  const labels = points.flatMap(([individual, part]) =>
    ['x', 'y', 'likelihood'].map((coord) =>
      options.multi ? [scorer, individual, part, coord] : [scorer, part, coord],
    ),
  );
  const file = new h5wasm.File(path, 'w');
  try {
    const group = file.create_group('df_with_missing');
    group.create_attribute('pandas_type', 'frame_table');
    const axes = pickleLabels(labels, true);
    group.create_attribute('non_index_axes', axes, null, `S${Buffer.byteLength(axes)}`);
    const columns = new Map<string, BigInt64Array | Float64Array>([
      ['index', BigInt64Array.from({ length: truth.frames }, (_, f) => BigInt(f))],
    ]);
    labels.forEach((_, c) => {
      const [individual, part] = points[Math.floor(c / 3)]!;
      columns.set(
        `values_block_${c}`,
        Float64Array.from({ length: truth.frames }, (_, f) => truth.point(f, individual, part)?.[c % 3] ?? Number.NaN),
      );
    });
    const table = group.create_dataset({
      name: 'table',
      data: columns,
      shape: [truth.frames],
      dtype: [...columns.keys()].map((name) => [name, name === 'index' ? '<q' : '<d'] as [string, string]),
    });
    table.create_attribute('index_kind', 'integer');
    if (!options.labelsOnGroupOnly) {
      labels.forEach((label, c) => {
        const kind = pickleLabels([label]);
        table.create_attribute(`values_block_${c}_kind`, kind, null, `S${Buffer.byteLength(kind)}`);
      });
    }
  } finally {
    file.close();
  }
}

/**
 * SLEAP's analysis HDF5, one node list for every track. `order`: `matlab` as SLEAP writes by default — tracks
 * (tracks, 2, nodes, frames), track_occupancy (frames, tracks), point_scores (tracks, nodes, frames) — or `standard`,
 * the same arrays untransposed. edge_inds is (edges, 2) in both (SLEAP does not transpose it).
 */
export async function sleapH5(
  path: string,
  truth: PoseTruth,
  edges: [number, number][],
  order: 'matlab' | 'standard',
  options: { trackNames?: boolean } = {},
): Promise<void> {
  await h5wasm.ready;
  const nodes = truth.parts[truth.individuals[0]!]!;
  const T = truth.individuals.length;
  const N = nodes.length;
  const F = truth.frames;
  const tracks = new Float64Array(T * 2 * N * F);
  const scores = new Float64Array(T * N * F);
  const occupancy = new Uint8Array(T * F);
  truth.individuals.forEach((individual, t) => {
    for (let f = 0; f < F; f++) {
      nodes.forEach((node, n) => {
        const point = truth.point(f, individual, node);
        for (let c = 0; c < 2; c++) {
          const at = order === 'matlab' ? ((t * 2 + c) * N + n) * F + f : ((f * N + n) * 2 + c) * T + t;
          tracks[at] = point ? point[c]! : Number.NaN;
        }
        scores[order === 'matlab' ? (t * N + n) * F + f : (f * N + n) * T + t] = point ? point[2] : Number.NaN;
      });
      occupancy[order === 'matlab' ? f * T + t : t * F + f] = 1;
    }
  });
  const file = new h5wasm.File(path, 'w');
  try {
    file.create_dataset({ name: 'tracks', data: tracks, shape: order === 'matlab' ? [T, 2, N, F] : [F, N, 2, T] });
    file.create_dataset({ name: 'track_occupancy', data: occupancy, shape: order === 'matlab' ? [F, T] : [T, F] });
    file.create_dataset({ name: 'point_scores', data: scores, shape: order === 'matlab' ? [T, N, F] : [F, N, T] });
    const width = Math.max(...nodes.map((n) => Buffer.byteLength(n)));
    file.create_dataset({ name: 'node_names', data: nodes, dtype: `S${width}` });
    const names = options.trackNames === false ? [] : truth.individuals;
    if (names.length > 0) {
      file.create_dataset({ name: 'track_names', data: names, dtype: `S${Math.max(...names.map((n) => n.length))}` });
    }
    const flatEdges =
      order === 'matlab'
        ? Int32Array.from([...edges.map((e) => e[0]), ...edges.map((e) => e[1])])
        : Int32Array.from(edges.flat());
    file.create_dataset({
      name: 'edge_inds',
      data: flatEdges,
      shape: order === 'matlab' ? [2, edges.length] : [edges.length, 2],
    });
    file.create_dataset({ name: 'labels_path', data: 'openfield.slp' });
  } finally {
    file.close();
  }
}
