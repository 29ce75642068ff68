import { clipTimeRanges, type TimeRange } from '@app/time-ranges';
import { FileSpreadsheet, X } from 'lucide-react';
import { type ChangeEvent, useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { readTimeRangeCsv } from '@/features/analysis/time-range-csv';
import { countOf } from '@/lib/format';

/**
 * Bypass ranges from a CSV of [start, end] seconds (`,` or `;` with decimal commas), checked in the browser
 * (spec §5). The message of a broken file shows under the control; a good one shows its count and bypassed time
 * (the ranges are shaded on the timeline), its ranges cut at the video's end, and says which rows were cut.
 */
export function BypassUpload({
  ranges,
  onChange,
  serverErrors,
  durationS,
}: {
  ranges: readonly TimeRange[];
  onChange: (ranges: TimeRange[]) => void;
  /** `parameters.bypass_ranges` messages of a failed preview or run. */
  serverErrors?: string[] | undefined;
  /** The video's length: ranges past it are cut there (time that does not exist is never bypassed). */
  durationS?: number | null | undefined;
}) {
  const id = useId();
  const [error, setError] = useState<string | null>(null);
  const [fileName, setFileName] = useState<string | null>(null);
  const [notices, setNotices] = useState<string[]>([]);
  const [reading, setReading] = useState(false);

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const file = input.files?.[0] ?? null;
    setReading(true);
    const result = await readTimeRangeCsv(file);
    setReading(false);
    // Let the same file be chosen again after it is fixed.
    input.value = '';
    if (result.ok) {
      const clipped = clipTimeRanges(result.ranges, durationS);
      setError(null);
      setFileName(file?.name ?? null);
      setNotices(clipped.notices);
      onChange(clipped.ranges);
    } else {
      setNotices([]);
      // The shown state is always that of the last file chosen: a broken file replaces the previous ranges.
      setError(result.error);
      setFileName(null);
      onChange([]);
    }
  };

  const clear = () => {
    setError(null);
    setNotices([]);
    setFileName(null);
    onChange([]);
  };

  const messages = [...(error ? [error] : []), ...(serverErrors ?? [])];
  const total = ranges.reduce((sum, [start, end]) => sum + (end - start), 0);

  return (
    <div className="grid grid-cols-1 gap-2">
      <Label htmlFor={id}>Bypass ranges (CSV)</Label>
      <div className="flex flex-wrap items-center gap-2">
        <Input
          id={id}
          type="file"
          accept=".csv,text/csv"
          onChange={onFile}
          disabled={reading}
          aria-invalid={messages.length ? true : undefined}
          aria-describedby={`${id}-help`}
          className="max-w-80"
        />
        {ranges.length > 0 ? (
          <Button variant="ghost" size="sm" onClick={clear}>
            <X aria-hidden="true" />
            Clear ranges
          </Button>
        ) : null}
      </div>
      {messages.length ? (
        <p className="text-destructive text-sm" role="alert" data-testid="bypass-error">
          {messages.join(' ')}
        </p>
      ) : null}
      {ranges.length > 0 ? (
        <p className="flex items-center gap-1.5 text-sm" data-testid="bypass-summary">
          <FileSpreadsheet className="size-4 text-muted-foreground" aria-hidden="true" />
          {countOf(ranges.length, 'range')} bypassed ({Number(total.toFixed(3))} s)
          {fileName ? <span className="text-muted-foreground"> from {fileName}</span> : null}
        </p>
      ) : null}
      {notices.length > 0 ? (
        <ul className="text-amber-700 text-sm dark:text-amber-400" role="status" data-testid="bypass-notices">
          {notices.map((notice) => (
            <li key={notice}>{notice}</li>
          ))}
        </ul>
      ) : null}
      <p id={`${id}-help`} className="text-muted-foreground text-xs">
        Two columns, start and end in seconds, one range per row (an optional header row is skipped), separated by
        commas — or by semicolons, with decimal commas, as European spreadsheets save them. Frames in these ranges get
        no value and no events; ranges past the end of the video are cut there.
      </p>
    </div>
  );
}
