import { Skeleton } from '@/components/ui/skeleton';
import type { AnalysisRun } from '@/features/analysis/api';
import { type RunColumn, RunsTable } from '@/features/analysis/components/runs-table';

const COLUMNS: RunColumn[] = [
  {
    header: 'Zones',
    numeric: true,
    cell: (run) => (Array.isArray(run.parameters.zones) ? run.parameters.zones.length : 0),
  },
];

/** The video's location runs, newest first: open one's result, or start from its settings. */
export function LocationRuns({
  runs,
  loading,
  openUuid,
  onOpen,
  onEdit,
}: {
  runs: readonly AnalysisRun[];
  loading: boolean;
  openUuid: string | null;
  onOpen: (uuid: string) => void;
  onEdit: (uuid: string) => void;
}) {
  if (loading) return <Skeleton className="h-24" />;
  if (runs.length === 0) return <p className="text-muted-foreground text-sm">No location runs on this video yet.</p>;
  return (
    <RunsTable
      label="Location runs of this video"
      runs={runs}
      openUuid={openUuid}
      columns={COLUMNS}
      onOpen={onOpen}
      onEdit={onEdit}
    />
  );
}
