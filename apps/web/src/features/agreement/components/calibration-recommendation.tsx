import { Ban, Check, Loader2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import type { CalibrationResult } from '../api';
import { bestSummary } from '../calibration-view';

type BestParameters = NonNullable<CalibrationResult['best']>['parameters'];

/**
 * The calibration's verdict: the best setting with Apply, or — when no setting finds anything — the server's reason
 * and no Apply, so a setting that detects nothing is never offered as a calibration.
 */
export function CalibrationRecommendation({
  result,
  readOnly,
  applying,
  onApply,
  children,
}: {
  result: CalibrationResult;
  readOnly: boolean;
  applying: boolean;
  onApply: (parameters: BestParameters) => void;
  /** Further actions (the downloads). */
  children?: ReactNode;
}) {
  const best = result.best;
  return (
    <div className="grid grid-cols-1 gap-2 rounded-lg border p-3">
      {best ? (
        <p className="text-sm" data-testid="calibration-best">
          <span className="font-medium">Best: </span>
          {bestSummary(result)}
        </p>
      ) : (
        <p className="flex items-start gap-2 text-sm" data-testid="calibration-no-recommendation">
          <Ban className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden="true" />
          <span>
            <span className="font-medium">No recommendation. </span>
            {result.no_recommendation}
          </span>
        </p>
      )}
      <p className="text-muted-foreground text-xs">
        Against {result.reference.description}.{' '}
        {result.target === 'events'
          ? 'Best: the highest F1; ties go to the smaller mean |Δt|, then to the earlier setting.'
          : 'Best: the smallest mean difference of the binned %; ties go to the higher r, then to the earlier setting.'}
      </p>
      <div className="flex flex-wrap gap-2">
        {!best ? null : readOnly ? (
          <span className="text-muted-foreground text-xs">Viewers can calibrate but not apply.</span>
        ) : (
          <Button size="sm" onClick={() => onApply(best.parameters)} disabled={applying}>
            {applying ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Check aria-hidden="true" />}
            Apply
          </Button>
        )}
        {children}
      </div>
    </div>
  );
}
