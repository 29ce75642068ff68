import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { PlayerController } from '@/components/player/player-controller';
import { NativeSelect } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { TablePagination } from '@/components/ui/table-pagination';
import type { VideoRef } from '@/features/analysis/api';
import { errorMessage } from '@/lib/errors';
import { formatTime } from '@/lib/format';
import { type JumpOrdering, jumpsQuery } from '../jumps';

const BASIS: Record<string, string> = {
  parameter: 'the jump distance set for this run',
  tracker: 'the animal’s body length as the tracker measured it',
  frame: 'a fifth of the picture’s smaller side',
};

/**
 * The run's jumps — frames where the position moved more than a body length since the previous tracked frame,
 * where the tracking is most likely wrong — each a click away in the player.
 */
export function JumpList({
  videoRef,
  analysisUuid,
  threshold,
  player,
}: {
  videoRef: VideoRef;
  analysisUuid: string;
  threshold: { threshold_px: number; basis: string } | undefined;
  player: PlayerController;
}) {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(10);
  const [ordering, setOrdering] = useState<JumpOrdering>('frame');
  const jumps = useQuery(jumpsQuery(videoRef, analysisUuid, { page, pageSize, ordering }));
  const [shown, setShown] = useState<number | null>(null);

  return (
    <section aria-labelledby="lt-jumps" className="grid grid-cols-1 gap-2" data-testid="jump-list">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id="lt-jumps" className="font-medium text-sm">
          Jumps
        </h3>
        <div className="flex items-center gap-2 text-sm">
          <label htmlFor={`lt-jumps-order-${analysisUuid}`} className="text-muted-foreground">
            Order
          </label>
          <NativeSelect
            id={`lt-jumps-order-${analysisUuid}`}
            value={ordering}
            onChange={(event) => {
              setOrdering(event.target.value as JumpOrdering);
              setPage(1);
            }}
          >
            <option value="frame">By frame</option>
            <option value="-distance_px">Longest first</option>
          </NativeSelect>
        </div>
      </div>
      <p className="text-muted-foreground text-xs">
        Frames where the point moved more than
        {threshold
          ? ` ${Math.round(threshold.threshold_px)} px (${BASIS[threshold.basis] ?? threshold.basis})`
          : ' a body length'}{' '}
        since the previous tracked frame: where the tracking is most likely wrong. Click one to see it.
      </p>
      {jumps.isError ? (
        <p className="text-destructive text-sm">The jumps could not be loaded: {errorMessage(jumps.error)}</p>
      ) : !jumps.data ? (
        <Skeleton className="h-24" />
      ) : (
        <div className="overflow-x-auto rounded-md border">
          {jumps.data.count === 0 ? (
            <p className="px-4 py-3 text-muted-foreground text-sm">No jumps: the point never moved that far.</p>
          ) : (
            <Table aria-label="Jumps">
              <TableHeader>
                <TableRow className="hover:bg-transparent">
                  <TableHead>Frame</TableHead>
                  <TableHead>Time</TableHead>
                  <TableHead className="text-right">Distance (px)</TableHead>
                  <TableHead>From frame</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody className="tabular-nums">
                {jumps.data.results.map((jump) => (
                  <TableRow
                    key={jump.frame}
                    data-testid="jump-row"
                    data-frame={jump.frame}
                    data-state={shown === jump.frame ? 'selected' : undefined}
                  >
                    <TableCell>
                      <button
                        type="button"
                        className="font-medium underline-offset-2 hover:underline"
                        aria-label={`Show frame ${jump.frame}`}
                        onClick={() => {
                          setShown(jump.frame);
                          player.pause();
                          void player.seekFrame(jump.frame);
                        }}
                      >
                        {jump.frame}
                      </button>
                    </TableCell>
                    <TableCell>{formatTime(jump.time_s)}</TableCell>
                    <TableCell className="text-right">{jump.distance_px.toFixed(1)}</TableCell>
                    <TableCell>{jump.from_frame}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
          {jumps.data.count > 0 ? (
            <TablePagination
              id={`lt-jumps-${analysisUuid}`}
              page={page}
              pageSize={pageSize}
              total={jumps.data.count}
              emptyLabel="No jumps"
              onPageChange={setPage}
              onPageSizeChange={(size) => {
                setPageSize(size);
                setPage(1);
              }}
            />
          ) : null}
        </div>
      )}
    </section>
  );
}
