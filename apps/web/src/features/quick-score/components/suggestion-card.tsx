import { Check, Sparkles } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Kbd } from '@/components/ui/kbd';
import type { ReviewEvent } from '../review-events';
import { suggestionText } from '../suggestion-actions';

const percent = (share: number) => `${Math.round(share * 100)} %`;

/**
 * The current event's suggestion (keep or discard, the label, its confidence and model version) with its key, or the
 * suggestion accepted for it and how (ADR 038).
 */
export function SuggestionCard({
  event,
  canEdit,
  onAccept,
}: {
  event: ReviewEvent | undefined;
  canEdit: boolean;
  onAccept: () => void;
}) {
  if (!event) return null;
  const accepted = event.accepted_suggestion;
  if (accepted) {
    return (
      <p className="rounded-lg border px-3 py-2 text-muted-foreground text-sm" data-testid="accepted-suggestion">
        <Check className="mr-1 inline size-4 text-foreground" aria-hidden="true" />
        Suggestion “{suggestionText(accepted)}” ({percent(accepted.confidence)}, model v{accepted.model_version})
        accepted {accepted.in_bulk ? 'in bulk' : ''} by {accepted.accepted_by?.display_name ?? 'someone'}
        {accepted.in_bulk && !event.reviewed_at ? ': nobody has looked at it yet.' : '.'}
      </p>
    );
  }
  const suggestion = event.suggestion;
  if (!suggestion) return null;
  return (
    <section
      aria-label="Suggestion"
      className="grid gap-2 rounded-lg border border-primary/40 bg-primary/5 px-3 py-2"
      data-testid="suggestion"
    >
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <Sparkles className="size-4 text-primary" aria-hidden="true" />
        <span className="font-medium" data-testid="suggestion-text">
          {suggestionText(suggestion)}
        </span>
        <Badge variant="secondary" className="tabular-nums" data-testid="suggestion-confidence">
          {percent(suggestion.confidence)}
        </Badge>
        <span className="text-muted-foreground text-xs">model v{suggestion.model_version}</span>
      </div>
      {canEdit ? (
        <Button size="sm" onClick={onAccept} className="justify-between" data-testid="accept-suggestion">
          <span>Accept the suggestion</span>
          <Kbd className="bg-primary-foreground/20 text-primary-foreground">A</Kbd>
        </Button>
      ) : null}
    </section>
  );
}
