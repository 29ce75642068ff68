import { CheckCheck } from 'lucide-react';
import { useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { NativeSelect } from '@/components/ui/select';
import { countOf } from '@/lib/format';
import { CONFIDENCE_CHOICES } from '../hooks/use-suggestions';
import type { ReviewEvent } from '../review-events';

const percent = (share: number) => `${Math.round(share * 100)} %`;

/**
 * "Accept all ≥ p" (ADR 038): says how many suggestions the chosen confidence takes — how many discards and keeps —
 * before anything is accepted. Enter confirms (the button has the focus), Escape cancels.
 */
export function AcceptAllDialog({
  open,
  onClose,
  acceptable,
  onConfirm,
}: {
  open: boolean;
  onClose: () => void;
  acceptable: (minConfidence: number) => ReviewEvent[];
  onConfirm: (minConfidence: number, events: ReviewEvent[]) => void;
}) {
  const [minConfidence, setMinConfidence] = useState(0.9);
  const confirm = useRef<HTMLButtonElement>(null);
  const taken = open ? acceptable(minConfidence) : [];
  const discards = taken.filter((event) => event.suggestion?.discard).length;
  return (
    <Dialog open={open} onOpenChange={(next) => !next && onClose()}>
      <DialogContent
        className="sm:max-w-md"
        data-testid="accept-all-dialog"
        onOpenAutoFocus={(event) => {
          // Enter confirms: the focus starts on the button that says how many.
          event.preventDefault();
          confirm.current?.focus();
        }}
      >
        <DialogHeader>
          <DialogTitle>Accept all suggestions ≥ {percent(minConfidence)}?</DialogTitle>
          <DialogDescription data-testid="accept-all-count">
            {taken.length === 0
              ? 'No event nobody decided on has a suggestion this confident.'
              : `This accepts ${countOf(taken.length, 'suggestion')} (${countOf(discards, 'discard')}, ${countOf(taken.length - discards, 'keep')}) on events nobody has looked at. They are recorded as accepted in bulk, not as reviewed; each can still be changed.`}
          </DialogDescription>
        </DialogHeader>
        <div className="grid gap-1.5 text-sm">
          <label htmlFor="accept-all-confidence" className="font-medium">
            Confidence at least
          </label>
          <NativeSelect
            id="accept-all-confidence"
            value={String(minConfidence)}
            onChange={(event) => setMinConfidence(Number(event.target.value))}
            data-testid="accept-all-confidence"
          >
            {CONFIDENCE_CHOICES.map((choice) => (
              <option key={choice} value={choice}>
                {percent(choice)}
              </option>
            ))}
          </NativeSelect>
        </div>
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button
            ref={confirm}
            disabled={taken.length === 0}
            onClick={() => onConfirm(minConfidence, taken)}
            data-testid="accept-all-confirm"
          >
            <CheckCheck aria-hidden="true" />
            Accept {countOf(taken.length, 'suggestion')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
