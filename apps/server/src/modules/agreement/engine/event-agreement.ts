/**
 * Event agreement (ADR 010): reference R against candidate C within a tolerance τ. TP = matched pairs, FN = unmatched
 * R, FP = unmatched C; precision = TP / (TP + FP), recall = TP / (TP + FN), F1 = 2TP / (2TP + FP + FN); the onset
 * error of a pair is C − R, summarised by mean, median and sample SD over the pairs.
 */
import { matchEvents } from './matching.js';
import { mean, median, sampleSd } from './statistics.js';

export interface EventAgreement {
  tp: number;
  fp: number;
  fn: number;
  /** Null when C has no events. */
  precision: number | null;
  /** Null when R has no events. */
  recall: number | null;
  /** Null when neither side has an event. */
  f1: number | null;
  onset_error: { mean_s: number | null; median_s: number | null; sd_s: number | null };
  /** Matched pairs in time order; delta_s = candidate − reference. */
  pairs: { reference_s: number; candidate_s: number; delta_s: number }[];
  /** Reference events left unmatched (false negatives), in time order. */
  missed: number[];
  /** Candidate events left unmatched (false positives), in time order. */
  extra: number[];
}

/** Counts and the three ratios, for the calibration curve (which needs no lists). */
export function eventScores(tp: number, referenceCount: number, candidateCount: number) {
  return {
    tp,
    fp: candidateCount - tp,
    fn: referenceCount - tp,
    precision: candidateCount > 0 ? tp / candidateCount : null,
    recall: referenceCount > 0 ? tp / referenceCount : null,
    f1: referenceCount + candidateCount > 0 ? (2 * tp) / (referenceCount + candidateCount) : null,
  };
}

export function eventAgreement(
  reference: ArrayLike<number>,
  candidate: ArrayLike<number>,
  toleranceS: number,
): EventAgreement {
  const matching = matchEvents(reference, candidate, toleranceS);
  const r = matching.reference;
  const c = matching.candidate;
  const matchedR = new Uint8Array(r.length);
  const matchedC = new Uint8Array(c.length);
  const deltas = new Float64Array(matching.pairs.length);
  const pairs = matching.pairs.map(([i, j], k) => {
    matchedR[i] = 1;
    matchedC[j] = 1;
    deltas[k] = c[j]! - r[i]!;
    return { reference_s: r[i]!, candidate_s: c[j]!, delta_s: deltas[k]! };
  });
  const missed: number[] = [];
  const extra: number[] = [];
  for (let i = 0; i < r.length; i++) if (!matchedR[i]) missed.push(r[i]!);
  for (let j = 0; j < c.length; j++) if (!matchedC[j]) extra.push(c[j]!);
  return {
    ...eventScores(pairs.length, r.length, c.length),
    onset_error: { mean_s: mean(deltas), median_s: median(deltas), sd_s: sampleSd(deltas) },
    pairs,
    missed,
    extra,
  };
}
