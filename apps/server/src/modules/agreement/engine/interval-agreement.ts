/**
 * Interval agreement (ADR 010): every slice of the video (default one frame) is in or out of each scoring's ranges
 * (slices.ts says exactly when). From the 2×2 table of slices: percent agreement, Cohen's kappa and each side's
 * prevalence; per time bin, each side's % of slices in the behaviour, with Pearson's r and the least-squares slope
 * of the candidate's % on the reference's; and the stretches where the two disagree.
 */
import { type Bins, coverage, type SliceGrid, sliceStart, timeBins } from './slices.js';
import { correlation } from './statistics.js';

export interface AgreementTable {
  /** Slices in both. */
  both: number;
  reference_only: number;
  candidate_only: number;
  neither: number;
}

/**
 * Cohen's kappa of a 2×2 table: κ = (p_o − p_e) / (1 − p_e), with p_o the share of slices where the two agree and
 * p_e = p_R·p_C + (1 − p_R)(1 − p_C) the share expected by chance from the two prevalences. Null when p_e = 1 (both
 * sides all in, or all out: nothing left to agree on beyond chance) or the table is empty.
 */
export function cohensKappa(table: AgreementTable): number | null {
  const total = table.both + table.reference_only + table.candidate_only + table.neither;
  if (total === 0) return null;
  const observed = (table.both + table.neither) / total;
  const pR = (table.both + table.reference_only) / total;
  const pC = (table.both + table.candidate_only) / total;
  const expected = pR * pC + (1 - pR) * (1 - pC);
  if (expected >= 1) return null;
  return (observed - expected) / (1 - expected);
}

export interface BinnedPercent {
  start_s: number;
  end_s: number;
  /** % of the bin's slices in the behaviour; null for a bin without slices. */
  reference_percent: number | null;
  candidate_percent: number | null;
}

export interface Disagreement {
  start_s: number;
  end_s: number;
  /** Which side alone has the behaviour there. */
  side: 'reference_only' | 'candidate_only';
}

export interface IntervalAgreement {
  slice_s: number;
  slices: number;
  duration_s: number;
  table: AgreementTable;
  percent_agreement: number | null;
  kappa: number | null;
  reference_prevalence: number | null;
  candidate_prevalence: number | null;
  bin_s: number;
  bins: BinnedPercent[];
  pearson_r: number | null;
  slope: number | null;
  /** Bins where both sides are known: the points r and the slope are computed from. */
  bins_used: number;
  min_bins: number;
  /** Why r and the slope deserve no trust (too few bins), else null. */
  fit_caveat: string | null;
  disagreements: Disagreement[];
}

/**
 * The fewest bins r and a slope are shown as figures for (ADR 016). Two points always lie on a line (r = ±1), and
 * with three or four one odd bin decides r; below this the answer still carries them, with `fit_caveat` saying why
 * they mean little, and the page greys them.
 */
export const MIN_FIT_BINS = 5;

/** Why a fit over `binsUsed` bins deserves no trust, or null when there are enough. */
export function fitCaveat(binsUsed: number): string | null {
  if (binsUsed >= MIN_FIT_BINS) return null;
  return `Only ${binsUsed} bin${binsUsed === 1 ? '' : 's'} of data: r and the slope need at least ${MIN_FIT_BINS} to mean anything (two points always make r = ±1). Choose a shorter bin.`;
}

/** Pearson's r and slope of the candidate's binned % on the reference's, over the bins where both are known. */
export function binnedFit(bins: readonly { reference_percent: number | null; candidate_percent: number | null }[]) {
  const x: number[] = [];
  const y: number[] = [];
  let absolute = 0;
  for (const bin of bins) {
    if (bin.reference_percent === null || bin.candidate_percent === null) continue;
    x.push(bin.reference_percent);
    y.push(bin.candidate_percent);
    absolute += Math.abs(bin.candidate_percent - bin.reference_percent);
  }
  const { r, slope } = correlation(x, y);
  return { r, slope, meanAbsDiff: x.length > 0 ? absolute / x.length : null, binsUsed: x.length };
}

export function intervalAgreement(
  grid: SliceGrid,
  reference: ArrayLike<readonly [number, number]>,
  candidate: ArrayLike<readonly [number, number]>,
  binS: number,
): IntervalAgreement {
  const inR = coverage(grid, reference);
  const inC = coverage(grid, candidate);
  const bins: Bins = timeBins(grid, binS);
  const perBin = {
    total: new Float64Array(bins.count),
    r: new Float64Array(bins.count),
    c: new Float64Array(bins.count),
  };
  const table: AgreementTable = { both: 0, reference_only: 0, candidate_only: 0, neither: 0 };
  const disagreements: Disagreement[] = [];
  let open: { start: number; side: Disagreement['side'] } | null = null;
  const close = (end: number) => {
    if (!open) return;
    disagreements.push({ start_s: sliceStart(grid, open.start), end_s: sliceStart(grid, end), side: open.side });
    open = null;
  };

  for (let i = 0; i < grid.count; i++) {
    const r = inR[i]!;
    const c = inC[i]!;
    const bin = bins.of[i]!;
    perBin.total[bin]! += 1;
    perBin.r[bin]! += r;
    perBin.c[bin]! += c;
    let side: Disagreement['side'] | null = null;
    if (r && c) table.both++;
    else if (r) {
      table.reference_only++;
      side = 'reference_only';
    } else if (c) {
      table.candidate_only++;
      side = 'candidate_only';
    } else table.neither++;
    if (open && open.side !== side) close(i);
    if (side && !open) open = { start: i, side };
  }
  close(grid.count);

  const binned: BinnedPercent[] = bins.edges.map(([start_s, end_s], k) => {
    const total = perBin.total[k]!;
    return {
      start_s,
      end_s,
      reference_percent: total > 0 ? (perBin.r[k]! / total) * 100 : null,
      candidate_percent: total > 0 ? (perBin.c[k]! / total) * 100 : null,
    };
  });
  const fit = binnedFit(binned);
  const n = grid.count;
  return {
    slice_s: grid.sliceS,
    slices: n,
    duration_s: sliceStart(grid, n),
    table,
    percent_agreement: n > 0 ? ((table.both + table.neither) / n) * 100 : null,
    kappa: cohensKappa(table),
    reference_prevalence: n > 0 ? (table.both + table.reference_only) / n : null,
    candidate_prevalence: n > 0 ? (table.both + table.candidate_only) / n : null,
    bin_s: binS,
    bins: binned,
    pearson_r: fit.r,
    slope: fit.slope,
    bins_used: fit.binsUsed,
    min_bins: MIN_FIT_BINS,
    fit_caveat: fitCaveat(fit.binsUsed),
    disagreements,
  };
}
