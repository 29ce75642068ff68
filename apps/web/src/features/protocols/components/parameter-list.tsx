import { parameterRows } from '@/features/analysis-logs/run-display';
import type { ProtocolKind } from '../api';

/** A protocol version's parameters in words, as Analysis Logs shows a run's. */
export function ParameterList({ kind, parameters }: { kind: ProtocolKind; parameters: Record<string, unknown> }) {
  const rows = parameterRows(parameters, kind);
  if (rows.length === 0) return <p className="text-muted-foreground text-sm">No parameters.</p>;
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm" data-testid="protocol-parameters">
      {rows.map((row) => (
        <div key={row.key} className="contents">
          <dt className="text-muted-foreground">{row.label}</dt>
          <dd className="min-w-0 whitespace-pre-line break-words" data-key={row.key}>
            {row.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
