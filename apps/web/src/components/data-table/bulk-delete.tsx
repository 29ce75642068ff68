import { Trash2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { cn } from '@/lib/utils';
import type { DataTableState } from './use-data-table';

/**
 * "N selected" and "Delete selected", shown while rows are selected and the user may delete several at once.
 * `inline` sits in a toolbar (the subjects list); `banner` is a strip of its own above the table (a subject's videos).
 */
export function BulkDeleteBar({
  table,
  enabled,
  variant,
}: {
  table: DataTableState;
  enabled: boolean;
  variant: 'inline' | 'banner';
}) {
  if (!enabled || table.selected.size === 0) return null;
  return (
    <div
      className={cn(
        'flex items-center gap-2',
        variant === 'inline' ? 'sm:ml-auto' : 'justify-between rounded-lg bg-muted/50 px-3 py-2 text-sm',
      )}
    >
      <span className={variant === 'inline' ? 'text-muted-foreground text-sm' : undefined} aria-live="polite">
        {table.selected.size} selected
      </span>
      <Button variant="destructive" size="sm" onClick={table.askDeleteSelected}>
        <Trash2 aria-hidden="true" />
        Delete selected
      </Button>
    </div>
  );
}

/**
 * The confirmation of a delete from the row menu or the bulk bar: "Delete this subject?" or "Delete 3 subjects?",
 * with what goes along (`consequence`, told the number of rows). It stays open while the delete runs.
 */
export function DeleteRowsDialog({
  table,
  noun,
  consequence,
  pending,
  onConfirm,
}: {
  table: DataTableState;
  noun: { one: string; many: string };
  consequence: (count: number) => string;
  pending: boolean;
  onConfirm: (keys: readonly string[]) => void;
}) {
  const keys = table.toDelete;
  const count = keys?.length ?? 1;
  return (
    <ConfirmDialog
      open={keys !== null}
      onOpenChange={(open) => !open && table.cancelDelete()}
      title={count > 1 ? `Delete ${count} ${noun.many}?` : `Delete this ${noun.one}?`}
      description={consequence(count)}
      confirmLabel="Delete"
      pending={pending}
      onConfirm={() => keys && onConfirm(keys)}
    />
  );
}
