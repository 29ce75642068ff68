import { NativeSelect } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import type { AnalysisRun } from '@/features/analysis/api';
import { EventCountsInline } from '@/features/analysis/components/event-counts';
import { type RunColumn, RunsTable } from '@/features/analysis/components/runs-table';
import { runCountsLabel } from '@/features/analysis/event-counts';
import { KIND_LABELS } from '@/features/analysis/labels';
import { formatDate } from '@/lib/format';

const COLUMNS: RunColumn[] = [
  { header: 'Kind', beforeStatus: true, cell: (run) => KIND_LABELS[run.kind] },
  {
    header: 'Events',
    numeric: true,
    cell: (run) => (run.event_counts ? <EventCountsInline counts={run.event_counts} /> : (run.event_count ?? '—')),
  },
];

/** The video's runs: open one, reuse its settings, or overlay its series on the open run's chart. */
export function EarlierRuns({
  runs,
  loading,
  openUuid,
  compareUuid,
  onOpen,
  onEdit,
  onCompare,
}: {
  runs: readonly AnalysisRun[];
  loading: boolean;
  openUuid: string | null;
  compareUuid: string | null;
  onOpen: (uuid: string) => void;
  onEdit: (uuid: string) => void;
  onCompare: (uuid: string | null) => void;
}) {
  if (loading) return <Skeleton className="h-24" />;
  if (runs.length === 0) {
    return <p className="text-muted-foreground text-sm">No runs on this video yet: preview, then run.</p>;
  }
  const comparable = runs.filter((run) => run.status === 'succeeded' && run.analysis_uuid !== openUuid);

  return (
    <div className="grid grid-cols-1 gap-3">
      {openUuid ? (
        <div className="flex flex-wrap items-center gap-2">
          <label htmlFor="md-compare" className="text-sm">
            Compare with
          </label>
          <NativeSelect
            id="md-compare"
            value={compareUuid ?? ''}
            onChange={(event) => onCompare(event.target.value || null)}
            disabled={comparable.length === 0}
            className="min-w-60"
          >
            <option value="">{comparable.length === 0 ? 'No other finished run' : 'No comparison'}</option>
            {comparable.map((run) => (
              <option key={run.analysis_uuid} value={run.analysis_uuid}>
                {formatDate(run.created_at)} · {KIND_LABELS[run.kind]} · {runCountsLabel(run)}
              </option>
            ))}
          </NativeSelect>
        </div>
      ) : null}
      <RunsTable
        label="Runs of this video"
        runs={runs}
        openUuid={openUuid}
        columns={COLUMNS}
        canReuse={(run) => run.kind === 'movement_detection'}
        onOpen={onOpen}
        onEdit={onEdit}
      />
    </div>
  );
}
