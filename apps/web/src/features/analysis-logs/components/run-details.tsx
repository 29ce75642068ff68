import { CircleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { AnalysisRun, EventCounts } from '@/features/analysis/api';
import { EventCountsFacts } from '@/features/analysis/components/event-counts';
import { seriesLabel } from '@/features/analysis/series-names';
import { formatDate } from '@/lib/format';
import { resultUrl } from '../run-actions';
import { type DisplayRow, parameterRows, shortId, summaryRows } from '../run-display';

/** The expanded part of a log row: every parameter, the run's facts and its summary figures. */
export function RunDetails({ run }: { run: AnalysisRun }) {
  const parameters = parameterRows(run.parameters, run.kind);
  return (
    <div className="grid grid-cols-1 gap-6 py-2 lg:grid-cols-3" data-testid="run-details">
      {run.status === 'failed' ? (
        <div
          role="alert"
          className="flex gap-2 rounded-md border border-destructive/30 bg-destructive/5 p-3 text-destructive text-sm lg:col-span-3"
        >
          <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <div>
            <p className="font-medium">Why it failed</p>
            <p className="whitespace-pre-line">{run.error ?? 'No reason was recorded.'}</p>
          </div>
        </div>
      ) : null}
      <Section title="Parameters">
        {parameters.length === 0 ? (
          <p className="text-muted-foreground text-sm">No parameters.</p>
        ) : (
          <Rows rows={parameters} />
        )}
      </Section>
      <Section title="Run">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
          <Item label="Run id">
            <span className="break-all font-mono text-xs">{run.analysis_uuid}</span>
          </Item>
          <Item label="Software version">
            <span className="break-all font-mono text-xs" data-testid="software-version">
              {run.software_version || '—'}
            </span>
          </Item>
          {run.kind !== 'location_tracking' ? (
            <Item label="Series">
              <span data-testid="run-series">{seriesLabel(run)}</span>
            </Item>
          ) : null}
          <Item label="Source run">
            {run.source_analysis_uuid ? (
              <Link
                // The source reads the same series, so it opens where this run does.
                to={resultUrl(run, { analysisUuid: run.source_analysis_uuid })}
                className="font-mono text-xs hover:underline"
                title={run.source_analysis_uuid}
              >
                {shortId(run.source_analysis_uuid)}
              </Link>
            ) : (
              <span className="text-muted-foreground">None</span>
            )}
          </Item>
          <Item label="Started">{formatDate(run.started_at)}</Item>
          <Item label="Finished">{formatDate(run.finished_at)}</Item>
        </dl>
      </Section>
      <Section title="Summary">
        {run.summary ? (
          <Rows
            rows={summaryRows(run.summary).filter(
              // The counts, detected and after review, are said once, by the shared component below.
              (row) => !run.event_counts || (row.key !== 'events' && row.key !== 'event_rate_per_min'),
            )}
            counts={run.event_counts}
          />
        ) : (
          <p className="text-muted-foreground text-sm">
            {run.status === 'queued' || run.status === 'running'
              ? 'The figures appear when the run has finished.'
              : 'This run has no results.'}
          </p>
        )}
      </Section>
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="min-w-0 space-y-2">
      <h3 className="font-medium text-muted-foreground text-xs uppercase tracking-wide">{title}</h3>
      {children}
    </section>
  );
}

function Rows({ rows, counts }: { rows: DisplayRow[]; counts?: EventCounts | null }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
      {counts ? <EventCountsFacts counts={counts} valueClassName="min-w-0 tabular-nums" /> : null}
      {rows.map((row) => (
        <Item key={row.key} label={row.label}>
          <span className="whitespace-pre-line" data-key={row.key}>
            {row.value}
          </span>
        </Item>
      ))}
    </dl>
  );
}

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="min-w-0">{children}</dd>
    </>
  );
}
