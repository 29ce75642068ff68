/**
 * The definitions of issue 13, word for word as ADR 010 states them (a test compares the two), and the one-line
 * meaning the Agreement view and the Calibrate panel give each figure.
 */

export const DEFINITIONS = {
  scoring:
    "A scoring of a video is one of: a run's events as detected (original times, all events); a run's events as reviewed (current times, discarded ones left out, optionally one label only); an annotation track (its ranges; as events, their starts); a CSV of event times or of ranges uploaded for the comparison.",
  events:
    'Event agreement (reference R vs candidate C, tolerance τ seconds, default 0.2): the maximum one-to-one matching of R and C events with |Δt| ≤ τ (optimal, not greedy; ties → smaller |Δt|). TP = matched pairs, FN = unmatched R, FP = unmatched C; precision, recall, F1; onset error (C − R) mean, median, SD over the pairs. Example (BORIS #228): R = 155.105, 169.855, 264.855 and C = 156.405, 170.852, 264.606 give F1 = 1.0 at τ = 2 s and TP 1, FP 2, FN 2, F1 = 0.333 at τ = 0.5 s.',
  intervals:
    "Interval agreement (two sets of ranges): every frame of the video from 0 to its end (or a slice length s, default one frame) is in or out of each; the 2×2 table, percent agreement, Cohen's kappa, each side's prevalence; per 60-s bin (or chosen bin) the two % of time, with their Pearson r and regression slope.",
  calibration:
    'Calibration: for a run\'s stored series and a reference scoring, sweep the event-detection parameters (k from 1 to 10 in steps of 0.1, or absolute thresholds; refractory period) — or, for freezing, the freeze threshold × minimum duration against a reference track — scoring each setting by F1 (events) or by r, slope and mean absolute difference of the binned % (freezing). The best setting, the whole curve, and warnings when the reference is too thin to trust (fewer than 10 events, or less than 10 s or more than 90% of time in the behaviour). "Apply" creates an event-detection run (or a movement run\'s freezing summary) with those parameters. No video is decoded again.',
} as const;

/** How the definitions' open points are settled (ADR 010), in one line each. */
export const RULES = {
  microseconds: 'Times are compared to the microsecond; exact ties left go to the earlier events.',
  slices:
    'A slice is in a scoring when its midpoint lies in one of its ranges [start, end). The slice length is a sampling step, not a tolerance.',
  bins: 'A slice belongs to the bin of its start; r and the slope are of the candidate’s % on the reference’s.',
} as const;

export const FIGURE_MEANINGS = {
  tp: 'Matched pairs: R and C events paired one to one within τ.',
  fn: 'Missed: events of R left without a partner in C.',
  fp: 'Extra: events of C left without a partner in R.',
  precision: 'TP / (TP + FP): the share of C’s events that R confirms.',
  recall: 'TP / (TP + FN): the share of R’s events that C found.',
  f1: '2TP / (2TP + FP + FN): precision and recall in one number.',
  onset: 'C − R over the pairs: mean, median and sample SD. Positive means C marks later.',
  percent: 'The share of slices where R and C agree (both in, or both out).',
  kappa: "Cohen's κ = (p_o − p_e) / (1 − p_e): agreement beyond what the two prevalences give by chance.",
  prevalence: 'The share of slices each side has in the behaviour.',
  r: "Pearson's r of the two sides' % of time per bin.",
  slope: 'Least-squares slope of C’s % on R’s % per bin: 1 means C moves one for one with R.',
  meanAbsDiff: 'Mean over the bins of |detected % − reference %|.',
} as const;
