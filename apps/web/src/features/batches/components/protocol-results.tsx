import { useQuery } from '@tanstack/react-query';
import { Layers } from 'lucide-react';
import { Link } from 'react-router';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { formatDate } from '@/lib/format';
import { batchPath, batchQueries } from '../api';
import { batchPercent, countsLine } from '../progress';
import { ResultsSection } from './results-section';

/** A protocol's batches (newest first) and its results across all of them, as one table. */
export function ProtocolResults({ projectUuid, protocolUuid }: { projectUuid: string; protocolUuid: string }) {
  const batches = useQuery(batchQueries.list(projectUuid, { protocol_uuid: protocolUuid, page_size: 100 }));
  const list = batches.data?.results ?? [];
  if (!batches.isSuccess || list.length === 0) return null;
  // Read the table again when any batch's counts move.
  const version = JSON.stringify(list.map((batch) => [batch.batch_uuid, batch.counts]));
  return (
    <>
      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <Layers className="size-4" aria-hidden="true" />
            Batches
          </CardTitle>
          <CardDescription>This protocol run on many videos.</CardDescription>
        </CardHeader>
        <CardContent>
          <ul className="grid gap-2 text-sm" data-testid="protocol-batches">
            {list.map((batch) => (
              <li key={batch.batch_uuid} className="flex flex-wrap items-baseline gap-x-3">
                <Link to={batchPath(projectUuid, batch.batch_uuid)} className="font-medium hover:underline">
                  v{batch.protocol_version} · {formatDate(batch.created_at)}
                </Link>
                <span className="text-muted-foreground">
                  {batchPercent(batch)}% · {countsLine(batch.counts)}
                </span>
              </li>
            ))}
          </ul>
        </CardContent>
      </Card>
      <ResultsSection
        projectUuid={projectUuid}
        source={{ protocolUuid }}
        version={version}
        title="Results across its batches"
      />
    </>
  );
}
