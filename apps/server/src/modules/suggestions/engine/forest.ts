/**
 * The classifier behind suggestions (issue 25): a random forest of CART trees (Breiman's: each tree on a bootstrap
 * sample, each split chosen by Gini impurity among a random share of the features), seeded so that the same reviews
 * train the same model. A class's probability is the share of trees that vote for it.
 *
 * Our own rather than mljs' `ml-random-forest` (ADR 034 first used it): its trees test every candidate threshold by
 * splitting the node's samples again, so a tree costs O(n²) per feature — 11 s for a forest on 1,000 reviews. Here a
 * node sorts its samples once per feature and sweeps the thresholds with running class counts: O(n log n), a forest on
 * 1,000 reviews in about 0.3 s (ADR 038).
 */

export interface ForestOptions {
  trees: number;
  /** Share of the features each split chooses from (at least one). */
  featureShare: number;
  maxDepth: number;
  seed: number;
}

export const FOREST_DEFAULTS: ForestOptions = { trees: 60, featureShare: 0.7, maxDepth: 8, seed: 20261127 };

export interface Forest {
  /** Per row, the probability of each class 0 … classCount − 1 (the share of trees voting for it). */
  probabilities(rows: number[][]): number[][];
  toJSON(): ForestJson;
}

/**
 * A tree as flat arrays, node 0 the root: a split node has `feature[i] ≥ 0` and sends a row to `left[i]` when its
 * value is below `threshold[i]`, else to `right[i]`; a leaf has `feature[i] = -1` and votes for `vote[i]`.
 */
export interface TreeJson {
  feature: number[];
  threshold: number[];
  left: number[];
  right: number[];
  vote: number[];
}

export interface ForestJson {
  classCount: number;
  trees: TreeJson[];
}

/** A small seeded generator (mulberry32): the same seed draws the same samples and features on every machine. */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Gini impurity of class counts over `total` (weighted) samples. */
function gini(counts: ArrayLike<number>, total: number): number {
  if (total === 0) return 0;
  let sum = 0;
  for (let c = 0; c < counts.length; c++) sum += counts[c]! * counts[c]!;
  return 1 - sum / (total * total);
}

export interface Split {
  feature: number;
  threshold: number;
  /** Weighted impurity of the two sides (lower is better). */
  impurity: number;
}

/**
 * The best threshold of one feature among a node's rows: `order` holds the node's distinct rows sorted by the
 * feature, `weight` how many times the node holds each (a bootstrap sample repeats rows). Every boundary between two
 * different values is scored with running class counts; the threshold is the midpoint of the two values, so a row
 * equal to the lower one goes left. Null when every value is the same.
 */
function sweep(
  values: (row: number) => number,
  classes: readonly number[],
  classCount: number,
  order: ArrayLike<number>,
  weight: ArrayLike<number>,
  feature: number,
): Split | null {
  const right = new Float64Array(classCount);
  let total = 0;
  for (let k = 0; k < order.length; k++) {
    const i = order[k]!;
    right[classes[i]!]! += weight[i]!;
    total += weight[i]!;
  }
  const left = new Float64Array(classCount);
  let n = 0;
  let best: Split | null = null;
  for (let k = 0; k < order.length - 1; k++) {
    const i = order[k]!;
    left[classes[i]!]! += weight[i]!;
    right[classes[i]!]! -= weight[i]!;
    n += weight[i]!;
    const here = values(i);
    const next = values(order[k + 1]!);
    if (here === next) continue;
    const impurity = (n * gini(left, n) + (total - n) * gini(right, total - n)) / total;
    if (!best || impurity < best.impurity - 1e-12) best = { feature, threshold: (here + next) / 2, impurity };
  }
  return best;
}

/** The best threshold of `feature` over `samples` (row indices, repeats allowed): the split a tree's node makes. */
export function bestThreshold(
  rows: readonly (readonly number[])[],
  classes: readonly number[],
  classCount: number,
  samples: readonly number[],
  feature: number,
): Split | null {
  const weight = new Float64Array(rows.length);
  for (const i of samples) weight[i]!++;
  const order = [...new Set(samples)].sort((a, b) => rows[a]![feature]! - rows[b]![feature]!);
  return sweep((i) => rows[i]![feature]!, classes, classCount, order, weight, feature);
}

/**
 * One tree on a bootstrap sample (`weight`: how many times each row was drawn). Each node keeps its rows sorted by
 * every feature (`lists[f]`, the forest's presorted orders filtered to the node), so a split sweeps each candidate
 * feature in O(n) and hands its children their sorted lists by a stable partition — no sorting below the root.
 */
function growTree(
  columns: readonly Float64Array[],
  presorted: readonly Int32Array[],
  classes: readonly number[],
  classCount: number,
  weight: Float64Array,
  options: ForestOptions,
  random: () => number,
): TreeJson {
  const tree: TreeJson = { feature: [], threshold: [], left: [], right: [], vote: [] };
  const featureCount = columns.length;
  const perSplit = Math.max(1, Math.min(featureCount, Math.round(options.featureShare * featureCount)));
  const goesLeft = new Uint8Array(weight.length);
  const node = (): number => {
    tree.feature.push(-1);
    tree.threshold.push(0);
    tree.left.push(-1);
    tree.right.push(-1);
    tree.vote.push(0);
    return tree.feature.length - 1;
  };
  const grow = (at: number, lists: Int32Array[], depth: number) => {
    const members = lists[0]!;
    const counts = new Float64Array(classCount);
    for (let k = 0; k < members.length; k++) counts[classes[members[k]!]!]! += weight[members[k]!]!;
    let vote = 0;
    for (let c = 1; c < classCount; c++) if (counts[c]! > counts[vote]!) vote = c;
    tree.vote[at] = vote;
    let present = 0;
    for (let c = 0; c < classCount; c++) if (counts[c]! > 0) present++;
    if (depth >= options.maxDepth || present <= 1) return;
    // A random share of the features, drawn without replacement (a partial Fisher–Yates shuffle).
    const features = Array.from({ length: featureCount }, (_, f) => f);
    for (let k = 0; k < perSplit; k++) {
      const j = k + Math.floor(random() * (featureCount - k));
      [features[k], features[j]] = [features[j]!, features[k]!];
    }
    let best: Split | null = null;
    for (const feature of features.slice(0, perSplit)) {
      const column = columns[feature]!;
      const split = sweep((i) => column[i]!, classes, classCount, lists[feature]!, weight, feature);
      if (split && (!best || split.impurity < best.impurity - 1e-12)) best = split;
    }
    if (!best) return;
    const column = columns[best.feature]!;
    let lowerCount = 0;
    for (let k = 0; k < members.length; k++) {
      const i = members[k]!;
      goesLeft[i] = column[i]! < best.threshold ? 1 : 0;
      lowerCount += goesLeft[i]!;
    }
    const lower: Int32Array[] = [];
    const upper: Int32Array[] = [];
    for (const list of lists) {
      const l = new Int32Array(lowerCount);
      const u = new Int32Array(list.length - lowerCount);
      let a = 0;
      let b = 0;
      for (let k = 0; k < list.length; k++) {
        const i = list[k]!;
        if (goesLeft[i]) l[a++] = i;
        else u[b++] = i;
      }
      lower.push(l);
      upper.push(u);
    }
    tree.feature[at] = best.feature;
    tree.threshold[at] = best.threshold;
    const left = node();
    const right = node();
    tree.left[at] = left;
    tree.right[at] = right;
    grow(left, lower, depth + 1);
    grow(right, upper, depth + 1);
  };
  grow(
    node(),
    presorted.map((order) => order.filter((i) => weight[i]! > 0)),
    0,
  );
  return tree;
}

function voteOf(tree: TreeJson, row: readonly number[]): number {
  let at = 0;
  while (tree.feature[at]! >= 0) {
    at = row[tree.feature[at]!]! < tree.threshold[at]! ? tree.left[at]! : tree.right[at]!;
  }
  return tree.vote[at]!;
}

/** A forest from its JSON (as `toJSON` wrote it): the stored model answers exactly as the trained one did. */
export function loadForest(json: ForestJson): Forest {
  const { classCount, trees } = json;
  return {
    probabilities(rows) {
      return rows.map((row) => {
        const votes = new Array<number>(classCount).fill(0);
        for (const tree of trees) votes[voteOf(tree, row)]!++;
        return votes.map((count) => count / trees.length);
      });
    },
    toJSON: () => json,
  };
}

/**
 * A forest trained on `rows` (features) and `classes` (0 … classCount − 1). With a single class present every tree is
 * one leaf voting for it (probability 1): the caller decides whether so few examples may suggest anything.
 */
export function trainForest(
  rows: number[][],
  classes: number[],
  classCount: number,
  options: ForestOptions = FOREST_DEFAULTS,
): Forest {
  if (rows.length === 0) throw new RangeError('a forest needs at least one example');
  const random = seededRandom(options.seed);
  const featureCount = rows[0]!.length;
  const columns = Array.from({ length: featureCount }, (_, f) => Float64Array.from(rows, (row) => row[f]!));
  // Every feature's order of the rows, sorted once for the whole forest.
  const presorted = columns.map((column) =>
    Int32Array.from(rows.keys()).sort((a, b) => column[a]! - column[b]! || a - b),
  );
  const trees = Array.from({ length: options.trees }, () => {
    // A bootstrap sample: n draws with replacement, kept as how many times each row was drawn.
    const weight = new Float64Array(rows.length);
    for (let k = 0; k < rows.length; k++) weight[Math.floor(random() * rows.length)]!++;
    return growTree(columns, presorted, classes, classCount, weight, options, random);
  });
  return loadForest({ classCount, trees });
}
