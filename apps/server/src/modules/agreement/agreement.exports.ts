/**
 * The agreement report and the calibration curve as tables (ADR 010). CSV holds one table: the report as one long
 * table whose `section` column says what each row is (figure, matched, missed, extra, bin, disagreement), the curve
 * one row per setting. XLSX holds the same content with a sheet per part.
 */
import { exportSeconds as sec } from '../../lib/export-numbers.js';
import type { Cell, Table } from '../../lib/table-export.js';
import type { AgreementResponse, CalibrationResponse } from './agreement.schemas.js';

type Figure = [name: string, value: Cell, meaning: string];

function agreementFigures(report: AgreementResponse): Figure[] {
  const { events, intervals } = report;
  const figures: Figure[] = [
    ['reference', report.reference.description, 'Reference scoring R'],
    ['candidate', report.candidate.description, 'Candidate scoring C'],
    ['tolerance_s', report.tolerance_s, 'Largest |C − R| of a matched pair, in seconds'],
    ['reference_events', report.reference.events, 'Events of R'],
    ['candidate_events', report.candidate.events, 'Events of C'],
    ['tp', events.tp, 'Matched pairs (optimal one-to-one matching within the tolerance)'],
    ['fn', events.fn, 'Unmatched events of R (missed)'],
    ['fp', events.fp, 'Unmatched events of C (extra)'],
    ['precision', events.precision, 'TP / (TP + FP)'],
    ['recall', events.recall, 'TP / (TP + FN)'],
    ['f1', events.f1, '2TP / (2TP + FP + FN)'],
    ['onset_error_mean_s', events.onset_error.mean_s, 'Mean of C − R over the pairs'],
    ['onset_error_median_s', events.onset_error.median_s, 'Median of C − R over the pairs'],
    ['onset_error_sd_s', events.onset_error.sd_s, 'Sample SD of C − R over the pairs'],
  ];
  if (intervals) {
    figures.push(
      ['slice_s', intervals.slice_s, 'Slice length: a slice counts as in a scoring when its midpoint lies in a range'],
      ['slices', intervals.slices, 'Slices from 0 to the end of the video'],
      ['both', intervals.table.both, 'Slices in both'],
      ['reference_only', intervals.table.reference_only, 'Slices in R only'],
      ['candidate_only', intervals.table.candidate_only, 'Slices in C only'],
      ['neither', intervals.table.neither, 'Slices in neither'],
      ['percent_agreement', intervals.percent_agreement, '% of slices where R and C agree'],
      ['kappa', intervals.kappa, "Cohen's kappa: (p_o − p_e) / (1 − p_e)"],
      ['reference_prevalence', intervals.reference_prevalence, 'Share of slices in R (0–1)'],
      ['candidate_prevalence', intervals.candidate_prevalence, 'Share of slices in C (0–1)'],
      ['bin_s', intervals.bin_s, 'Bin length for the % of time'],
      ['pearson_r', intervals.pearson_r, "Pearson's r of the binned % of C on R"],
      ['slope', intervals.slope, 'Least-squares slope of the binned % of C on R'],
      ['bins_used', intervals.bins_used, `Bins with data on both sides (r and the slope need ${intervals.min_bins})`],
    );
    if (intervals.fit_caveat) figures.push(['fit_caveat', intervals.fit_caveat, 'Why r and the slope mean little']);
  }
  // Seconds to the microsecond: a mean of equal times is 0, not the -1.8e-15 left by the arithmetic.
  return figures.map(([name, value, meaning]) => [
    name,
    typeof value === 'number' && name.endsWith('_s') ? sec(value) : value,
    meaning,
  ]);
}

const REPORT_COLUMNS = [
  'section',
  'item',
  'value',
  'reference_s',
  'candidate_s',
  'delta_s',
  'start_s',
  'end_s',
  'reference_percent',
  'candidate_percent',
];

/** The report as one CSV table. */
export function agreementReportTable(report: AgreementResponse): Table {
  function* rows(): Generator<Cell[]> {
    for (const [name, value] of agreementFigures(report))
      yield ['figure', name, value, null, null, null, null, null, null, null];
    for (const pair of report.events.pairs) {
      yield [
        'matched',
        null,
        null,
        sec(pair.reference_s),
        sec(pair.candidate_s),
        sec(pair.delta_s),
        null,
        null,
        null,
        null,
      ];
    }
    for (const time of report.events.missed)
      yield ['missed', null, null, sec(time), null, null, null, null, null, null];
    for (const time of report.events.extra) yield ['extra', null, null, null, sec(time), null, null, null, null, null];
    for (const bin of report.intervals?.bins ?? []) {
      yield [
        'bin',
        null,
        null,
        null,
        null,
        null,
        sec(bin.start_s),
        sec(bin.end_s),
        bin.reference_percent,
        bin.candidate_percent,
      ];
    }
    for (const stretch of report.intervals?.disagreements ?? []) {
      yield [
        'disagreement',
        stretch.side,
        null,
        null,
        null,
        null,
        sec(stretch.start_s),
        sec(stretch.end_s),
        null,
        null,
      ];
    }
  }
  return { name: 'agreement', columns: REPORT_COLUMNS, rows: rows() };
}

/** The report as XLSX sheets: summary (with each figure's meaning), events, and for intervals bins and disagreements. */
export function agreementReportSheets(report: AgreementResponse): Table[] {
  const events: Cell[][] = [
    ...report.events.pairs.map((p): Cell[] => ['matched', sec(p.reference_s), sec(p.candidate_s), sec(p.delta_s)]),
    ...report.events.missed.map((t): Cell[] => ['missed', sec(t), null, null]),
    ...report.events.extra.map((t): Cell[] => ['extra', null, sec(t), null]),
  ].sort((a, b) => firstTime(a) - firstTime(b));
  const sheets: Table[] = [
    { name: 'summary', columns: ['item', 'value', 'meaning'], rows: agreementFigures(report) },
    { name: 'events', columns: ['outcome', 'reference_s', 'candidate_s', 'delta_s'], rows: events },
  ];
  if (report.intervals) {
    sheets.push(
      {
        name: 'bins',
        columns: ['start_s', 'end_s', 'reference_percent', 'candidate_percent'],
        rows: report.intervals.bins.map((b) => [
          sec(b.start_s),
          sec(b.end_s),
          b.reference_percent,
          b.candidate_percent,
        ]),
      },
      {
        name: 'disagreements',
        columns: ['start_s', 'end_s', 'side'],
        rows: report.intervals.disagreements.map((d) => [sec(d.start_s), sec(d.end_s), d.side]),
      },
    );
  }
  return sheets;
}

const firstTime = (row: Cell[]) => Math.min(...[row[1], row[2]].filter((v): v is number => typeof v === 'number'));

const EVENT_CURVE_COLUMNS = [
  'event_threshold_k',
  'threshold',
  'refractory_s',
  'events',
  'tp',
  'fp',
  'fn',
  'precision',
  'recall',
  'f1',
  'onset_error_mean_s',
  'mean_abs_error_s',
  'best',
];
const FREEZING_CURVE_COLUMNS = [
  'freeze_threshold',
  'min_freeze_s',
  'percent',
  'pearson_r',
  'slope',
  'mean_abs_diff',
  'best',
];

/** One row per setting of the sweep, the best one marked. */
export function calibrationCurveTable(result: CalibrationResponse): Table {
  if (result.target === 'events') {
    return {
      name: 'curve',
      columns: EVENT_CURVE_COLUMNS,
      rows: result.points.map((p, i) => [
        p.event_threshold_k,
        p.threshold,
        sec(p.refractory_s),
        p.events,
        p.tp,
        p.fp,
        p.fn,
        p.precision,
        p.recall,
        p.f1,
        sec(p.onset_error_mean_s),
        sec(p.mean_abs_error_s),
        i === result.best?.index,
      ]),
    };
  }
  return {
    name: 'curve',
    columns: FREEZING_CURVE_COLUMNS,
    rows: result.points.map((p, i) => [
      p.freeze_threshold,
      sec(p.min_freeze_s),
      p.percent,
      p.pearson_r,
      p.slope,
      p.mean_abs_diff,
      i === result.best?.index,
    ]),
  };
}

/** XLSX: the curve, a summary (what was calibrated against what, the best setting, the warnings), and for freezing the bins. */
export function calibrationSheets(result: CalibrationResponse): Table[] {
  const summary: Cell[][] = [
    ['analysis_uuid', result.analysis_uuid],
    ['target', result.target],
    ['reference', result.reference.description],
    ['reference_events', result.reference.events],
  ];
  if (result.target === 'events') {
    summary.push(['tolerance_s', sec(result.tolerance_s)], ['sweep', result.sweep], ['noise_top', result.noise_top]);
  } else {
    summary.push(['bin_s', sec(result.bin_s)], ['reference_percent', result.reference_percent]);
  }
  if (result.best) {
    for (const [name, value] of Object.entries(result.best.parameters)) summary.push([`best_${name}`, value]);
  } else summary.push(['no_recommendation', result.no_recommendation]);
  for (const warning of result.warnings) summary.push(['warning', warning]);
  const sheets: Table[] = [
    calibrationCurveTable(result),
    { name: 'summary', columns: ['item', 'value'], rows: summary },
  ];
  if (result.target === 'freezing') {
    sheets.push({
      name: 'bins',
      columns: ['start_s', 'end_s', 'reference_percent', 'best_percent'],
      rows: result.bins.map((b) => [sec(b.start_s), sec(b.end_s), b.reference_percent, b.candidate_percent]),
    });
  }
  return sheets;
}
