/**
 * The label menu's matcher: the typed letters must appear in the label in order (any case), and the best labels
 * are those where they start words ("lh" → "left hand"), run together, and come early. Labels are short and few
 * (hundreds), so each is scored exactly with a small dynamic programme over (typed letter, label position).
 */

export interface FuzzyMatch {
  score: number;
  /** Positions in the label of the matched letters, for highlighting. */
  positions: number[];
}

const WORD_START = 10;
const FIRST_LETTER = 6;
const RUN = 6;
const GAP = 1;
const MAX_GAP_PENALTY = 6;

const isSeparator = (char: string | undefined) => char === undefined || /[\s\-_/.,:;()]/.test(char);

function letterBonus(label: string, lower: string, at: number): number {
  let bonus = 0;
  if (at === 0) bonus += FIRST_LETTER;
  if (isSeparator(lower[at - 1])) bonus += WORD_START;
  // camelCase and digits after letters start words too.
  else if (label[at] !== lower[at] && label[at - 1] === lower[at - 1]) bonus += WORD_START;
  return bonus;
}

/** The best way `query` matches `label`, or null when its letters are not all there in order. */
export function fuzzyMatch(query: string, label: string): FuzzyMatch | null {
  const q = query.trim().toLowerCase().replace(/\s+/g, ' ');
  if (q === '') return { score: 0, positions: [] };
  const lower = label.toLowerCase();
  const n = q.length;
  const m = lower.length;
  if (n > m) return null;
  // best[i][j]: best score with q[0..i] matched and q[i] at label position j; -Infinity when impossible.
  const best: Float64Array[] = [];
  const from: Int32Array[] = [];
  for (let i = 0; i < n; i++) {
    const row = new Float64Array(m).fill(Number.NEGATIVE_INFINITY);
    const back = new Int32Array(m).fill(-1);
    const char = q[i]!;
    for (let j = i; j < m; j++) {
      if (lower[j] !== char) continue;
      const own = letterBonus(label, lower, j);
      if (i === 0) {
        // Letters skipped before the first match cost a little, so earlier matches win ties.
        row[j] = own - Math.min(j * 0.5, MAX_GAP_PENALTY);
        continue;
      }
      const previous = best[i - 1]!;
      let top = Number.NEGATIVE_INFINITY;
      let topAt = -1;
      for (let k = i - 1; k < j; k++) {
        const base = previous[k]!;
        if (base === Number.NEGATIVE_INFINITY) continue;
        const gap = j - k - 1;
        const value = base + (gap === 0 ? RUN : -Math.min(gap * GAP, MAX_GAP_PENALTY));
        if (value > top) {
          top = value;
          topAt = k;
        }
      }
      if (topAt === -1) continue;
      row[j] = top + own;
      back[j] = topAt;
    }
    best.push(row);
    from.push(back);
  }
  const last = best[n - 1]!;
  let end = -1;
  for (let j = 0; j < m; j++) if (last[j]! > (end === -1 ? Number.NEGATIVE_INFINITY : last[end]!)) end = j;
  if (end === -1 || last[end] === Number.NEGATIVE_INFINITY) return null;
  const positions = new Array<number>(n);
  for (let i = n - 1, j = end; i >= 0; i--) {
    positions[i] = j;
    j = from[i]![j]!;
  }
  let score = last[end]!;
  // A label that is exactly the query, or starts with it, beats any scattered match.
  if (lower === q) score += 100;
  else if (lower.startsWith(q)) score += 50;
  return { score, positions };
}

export interface RankedLabel {
  label: string;
  match: FuzzyMatch;
}

/** Labels matching `query`, best first (then shorter, then alphabetical); all of them, sorted, for an empty query. */
export function rankLabels(query: string, labels: readonly string[], limit = 50): RankedLabel[] {
  const ranked: RankedLabel[] = [];
  for (const label of labels) {
    const match = fuzzyMatch(query, label);
    if (match) ranked.push({ label, match });
  }
  ranked.sort(
    (a, b) => b.match.score - a.match.score || a.label.length - b.label.length || a.label.localeCompare(b.label),
  );
  return ranked.slice(0, limit);
}
