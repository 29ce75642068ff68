import type { EventCounts } from '../api';
import { EVENT_COUNTS_MEANING, eventCountLines, eventCountsShort } from '../event-counts';

/** "104 detected · 103 kept", with what each means on hover: lists (dashboard, Analysis Logs). */
export function EventCountsInline({ counts }: { counts: EventCounts }) {
  return (
    <span title={EVENT_COUNTS_MEANING} data-testid="event-counts">
      {eventCountsShort(counts)}
    </span>
  );
}

/** The counts as label/value rows of a `<dl>` (result panel, run details): detected beside after review. */
export function EventCountsFacts({ counts, valueClassName }: { counts: EventCounts; valueClassName?: string }) {
  return (
    <>
      {eventCountLines(counts).map((line) => (
        <div key={line.key} className="contents" data-testid={`event-counts-${line.key}`}>
          <dt className="text-muted-foreground">{line.label}</dt>
          <dd className={valueClassName ?? 'tabular-nums'}>{line.value}</dd>
        </div>
      ))}
    </>
  );
}
