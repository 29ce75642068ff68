import { TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { countOf, formatTime } from '@/lib/format';
import type { EventFigures, IntervalFigures } from '../api';
import { FIGURE_MEANINGS } from '../definitions';

/** A figure for reading: up to `digits` decimals, '—' when there is none. */
export const figure = (value: number | null | undefined, digits = 3) =>
  value == null || !Number.isFinite(value) ? '—' : String(Number(value.toFixed(digits)));
const percent = (value: number | null | undefined, digits = 1) => (value == null ? '—' : `${figure(value, digits)}%`);
const share = (value: number | null | undefined) => (value == null ? '—' : `${figure(value * 100, 1)}%`);
const seconds = (value: number | null | undefined) => (value == null ? '—' : `${figure(value, 3)} s`);

/** One figure with its one-line meaning. */
function Figure({
  name,
  value,
  meaning,
  testId,
  caveat = null,
}: {
  name: string;
  value: ReactNode;
  meaning: string;
  testId: string;
  /** Why the figure means little: it is greyed and the reason is its title. */
  caveat?: string | null;
}) {
  return (
    <div
      className={`grid grid-cols-1 content-start gap-0.5 rounded-lg border px-3 py-2 ${caveat ? 'border-dashed opacity-50' : ''}`}
      data-testid={testId}
      data-caveat={caveat ? 'true' : undefined}
      title={caveat ?? undefined}
    >
      <dt className="text-muted-foreground text-xs">{name}</dt>
      <dd className="font-semibold text-lg tabular-nums">{value}</dd>
      <dd className="text-muted-foreground text-xs">{meaning}</dd>
    </div>
  );
}

export function EventFiguresView({ events, toleranceS }: { events: EventFigures; toleranceS: number }) {
  const onset = events.onset_error;
  return (
    <section aria-labelledby="event-figures" className="grid grid-cols-1 gap-3">
      <h3 id="event-figures" className="font-medium text-sm">
        Event agreement <span className="font-normal text-muted-foreground">(τ = {figure(toleranceS)} s)</span>
      </h3>
      <dl className="grid grid-cols-2 gap-2 sm:grid-cols-3 xl:grid-cols-6">
        <Figure name="TP" value={events.tp} meaning={FIGURE_MEANINGS.tp} testId="figure-tp" />
        <Figure name="FN" value={events.fn} meaning={FIGURE_MEANINGS.fn} testId="figure-fn" />
        <Figure name="FP" value={events.fp} meaning={FIGURE_MEANINGS.fp} testId="figure-fp" />
        <Figure
          name="Precision"
          value={figure(events.precision)}
          meaning={FIGURE_MEANINGS.precision}
          testId="figure-precision"
        />
        <Figure name="Recall" value={figure(events.recall)} meaning={FIGURE_MEANINGS.recall} testId="figure-recall" />
        <Figure name="F1" value={figure(events.f1)} meaning={FIGURE_MEANINGS.f1} testId="figure-f1" />
      </dl>
      <p className="text-sm" data-testid="figure-onset">
        <span className="text-muted-foreground">Onset error (C − R): </span>
        mean {seconds(onset.mean_s)} · median {seconds(onset.median_s)} · SD {seconds(onset.sd_s)}
        <span className="block text-muted-foreground text-xs">{FIGURE_MEANINGS.onset}</span>
      </p>
    </section>
  );
}

export function IntervalFiguresView({ intervals }: { intervals: IntervalFigures }) {
  const { table } = intervals;
  const total = intervals.slices;
  const cell = (count: number) => (
    <>
      {count.toLocaleString('en-US')}
      <span className="block text-muted-foreground text-xs">{total > 0 ? percent((count / total) * 100) : '—'}</span>
    </>
  );
  return (
    <section aria-labelledby="interval-figures" className="grid grid-cols-1 gap-3">
      <h3 id="interval-figures" className="font-medium text-sm">
        Interval agreement{' '}
        <span className="font-normal text-muted-foreground">
          ({total.toLocaleString('en-US')} slices of {figure(intervals.slice_s, 4)} s)
        </span>
      </h3>
      <div className="grid grid-cols-1 items-start gap-4 lg:grid-cols-[auto_minmax(0,1fr)]">
        <table
          className="text-center text-sm tabular-nums"
          aria-label="2×2 table of slices"
          data-testid="agreement-table"
        >
          <thead>
            <tr>
              <th />
              <th scope="col" className="px-3 pb-1 font-medium text-muted-foreground text-xs">
                C in
              </th>
              <th scope="col" className="px-3 pb-1 font-medium text-muted-foreground text-xs">
                C out
              </th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <th scope="row" className="pr-2 text-right font-medium text-muted-foreground text-xs">
                R in
              </th>
              <td className="rounded-tl-md border px-4 py-2" data-testid="cell-both">
                {cell(table.both)}
              </td>
              <td className="rounded-tr-md border px-4 py-2" data-testid="cell-reference-only">
                {cell(table.reference_only)}
              </td>
            </tr>
            <tr>
              <th scope="row" className="pr-2 text-right font-medium text-muted-foreground text-xs">
                R out
              </th>
              <td className="rounded-bl-md border px-4 py-2" data-testid="cell-candidate-only">
                {cell(table.candidate_only)}
              </td>
              <td className="rounded-br-md border px-4 py-2" data-testid="cell-neither">
                {cell(table.neither)}
              </td>
            </tr>
          </tbody>
        </table>
        <dl className="grid grid-cols-2 gap-2 sm:grid-cols-3">
          <Figure
            name="Agreement"
            value={percent(intervals.percent_agreement)}
            meaning={FIGURE_MEANINGS.percent}
            testId="figure-agreement"
          />
          <Figure
            name="Cohen's κ"
            value={figure(intervals.kappa)}
            meaning={FIGURE_MEANINGS.kappa}
            testId="figure-kappa"
          />
          <Figure
            name="Prevalence R / C"
            value={`${share(intervals.reference_prevalence)} / ${share(intervals.candidate_prevalence)}`}
            meaning={FIGURE_MEANINGS.prevalence}
            testId="figure-prevalence"
          />
          <Figure
            name={`r (bins of ${figure(intervals.bin_s)} s)`}
            value={figure(intervals.pearson_r)}
            meaning={FIGURE_MEANINGS.r}
            testId="figure-r"
            caveat={intervals.fit_caveat}
          />
          <Figure
            name="Slope"
            value={figure(intervals.slope)}
            meaning={FIGURE_MEANINGS.slope}
            testId="figure-slope"
            caveat={intervals.fit_caveat}
          />
        </dl>
      </div>
      {intervals.fit_caveat ? (
        <p className="flex items-start gap-2 text-sm" role="note" data-testid="fit-caveat">
          <TriangleAlert className="mt-0.5 size-4 shrink-0 text-warning" aria-hidden="true" />
          <span>{intervals.fit_caveat}</span>
        </p>
      ) : null}
      <BinsTable bins={intervals.bins} />
    </section>
  );
}

export function BinsTable({
  bins,
  candidateLabel = 'C',
}: {
  bins: { start_s: number; end_s: number; reference_percent: number | null; candidate_percent: number | null }[];
  candidateLabel?: string;
}) {
  return (
    <details className="text-sm">
      <summary className="cursor-pointer text-muted-foreground text-xs">
        % of time per bin ({countOf(bins.length, 'bin')})
      </summary>
      <div className="mt-2 max-h-64 overflow-y-auto rounded-md border">
        <table className="w-full text-sm tabular-nums" aria-label="Percent of time per bin">
          <thead className="sticky top-0 bg-card">
            <tr className="text-left text-muted-foreground text-xs">
              <th className="px-3 py-1 font-medium">Bin</th>
              <th className="px-3 py-1 text-right font-medium">R</th>
              <th className="px-3 py-1 text-right font-medium">{candidateLabel}</th>
            </tr>
          </thead>
          <tbody>
            {bins.map((bin) => (
              <tr key={bin.start_s} className="border-t">
                <td className="px-3 py-1">
                  {formatTime(bin.start_s)}–{formatTime(bin.end_s)}
                </td>
                <td className="px-3 py-1 text-right">{percent(bin.reference_percent)}</td>
                <td className="px-3 py-1 text-right">{percent(bin.candidate_percent)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
