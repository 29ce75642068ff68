import { Fragment } from 'react';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Kbd } from '@/components/ui/kbd';

interface KeyRow {
  keys: string[][];
  what: string;
  /** Changes the run: not for viewers. */
  edits?: boolean;
}

/** Every key of Quick Score (`?` opens this). Alternatives are separate groups; a group's keys are pressed together. */
export const KEY_MAP: KeyRow[] = [
  { keys: [['→'], ['←']], what: 'Next / previous event' },
  { keys: [['Space']], what: 'Replay the clip from its start' },
  { keys: [[','], ['.'], ['/']], what: 'Speed 1× / 0.5× / 0.25×' },
  { keys: [['U']], what: 'Next event not reviewed yet' },
  { keys: [['D']], what: 'Discard / restore the event', edits: true },
  { keys: [['F']], what: 'Flag / unflag the event', edits: true },
  { keys: [['Shift']], what: 'Label menu (tap Shift)', edits: true },
  {
    keys: [
      ['Alt', '←'],
      ['Alt', '→'],
    ],
    what: 'Move the event one frame earlier / later',
    edits: true,
  },
  { keys: [['A']], what: 'Accept the event’s suggestion and move on', edits: true },
  { keys: [['Shift', 'A']], what: 'Accept all suggestions ≥ p… (asks first)', edits: true },
  { keys: [['O']], what: 'Order: in time / uncertain first' },
  { keys: [['Ctrl', 'Z']], what: 'Undo (⌘Z on a Mac)', edits: true },
  { keys: [['Shift', 'Ctrl', 'Z']], what: 'Redo (⇧⌘Z on a Mac)', edits: true },
  { keys: [['?']], what: 'This list of keys' },
];

export function KeyMapDialog({ open, canEdit, onClose }: { open: boolean; canEdit: boolean; onClose: () => void }) {
  const rows = KEY_MAP.filter((row) => canEdit || !row.edits);
  return (
    <Dialog open={open} onOpenChange={(next) => !next && onClose()}>
      <DialogContent className="sm:max-w-md" data-testid="key-map">
        <DialogHeader>
          <DialogTitle>Keys</DialogTitle>
          <DialogDescription>
            {canEdit
              ? 'Every action is saved at once. On the trace: drag the red line to move the event, Alt+drag to add one.'
              : 'You can watch and step through the events; changes need a member of the project.'}
          </DialogDescription>
        </DialogHeader>
        <dl className="grid grid-cols-[auto_1fr] items-center gap-x-4 gap-y-2 text-sm">
          {rows.map((row) => (
            <Fragment key={row.what}>
              <dt className="flex flex-wrap items-center gap-1">
                {row.keys.map((group, g) => (
                  <span key={group.join('+')} className="flex items-center gap-0.5">
                    {g > 0 ? <span className="px-0.5 text-muted-foreground">/</span> : null}
                    {group.map((key, k) => (
                      <Fragment key={key}>
                        {k > 0 ? <span className="text-muted-foreground">+</span> : null}
                        <Kbd>{key}</Kbd>
                      </Fragment>
                    ))}
                  </span>
                ))}
              </dt>
              <dd>{row.what}</dd>
            </Fragment>
          ))}
        </dl>
      </DialogContent>
    </Dialog>
  );
}
