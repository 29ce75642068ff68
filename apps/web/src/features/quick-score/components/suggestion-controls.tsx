import { CheckCheck, ListOrdered } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Kbd } from '@/components/ui/kbd';
import { ModelPanel } from '@/features/suggestions/components/model-panel';
import { BAR_CHOICES, type useSuggestions } from '../hooks/use-suggestions';

/**
 * The side panel's suggestions (ADR 038): the model's figures beside every suggestion set, the reader's bar, the
 * review order and "accept all ≥ p".
 */
export function SuggestionControls({
  suggestions,
  bar,
  onBar,
  canEdit,
  currentId,
  onOrder,
}: {
  suggestions: ReturnType<typeof useSuggestions>;
  bar: number;
  onBar: (bar: number) => void;
  canEdit: boolean;
  currentId: number | undefined;
  /** The O key's command: switch the order (and go to the first event of it). */
  onOrder: () => void;
}) {
  const at = suggestions.orderPosition(currentId);
  return (
    <div className="grid gap-3">
      <ModelPanel
        scope={suggestions.scope}
        model={suggestions.model.data}
        loading={suggestions.model.isLoading}
        bar={bar}
        barChoices={BAR_CHOICES}
        onBar={onBar}
        canEdit={canEdit}
      />
      <Button
        variant={suggestions.uncertainFirst ? 'secondary' : 'outline'}
        size="sm"
        aria-pressed={suggestions.uncertainFirst}
        onClick={onOrder}
        className="justify-between"
        data-testid="uncertain-first"
      >
        <span className="flex items-center gap-2">
          <ListOrdered aria-hidden="true" />
          {suggestions.uncertainFirst
            ? `Uncertain first${at >= 0 ? `: ${at + 1} of ${suggestions.orderLength}` : ''}`
            : 'Order: uncertain first'}
        </span>
        <Kbd>O</Kbd>
      </Button>
      {canEdit ? (
        <Button
          variant="outline"
          size="sm"
          onClick={() => suggestions.setAcceptAllOpen(true)}
          className="justify-between"
          data-testid="accept-all"
        >
          <span className="flex items-center gap-2">
            <CheckCheck aria-hidden="true" />
            Accept all ≥ p…
          </span>
          <span className="flex gap-0.5">
            <Kbd>Shift</Kbd>
            <Kbd>A</Kbd>
          </span>
        </Button>
      ) : null}
    </div>
  );
}
