import { ArrowDown, ArrowUp, ArrowUpDown, Trash2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { DropdownMenuItem, DropdownMenuSeparator } from '@/components/ui/dropdown-menu';
import { RowActionsMenu } from '@/components/ui/row-actions-menu';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { TablePagination } from '@/components/ui/table-pagination';
import { cn } from '@/lib/utils';
import type { DataTableState } from './use-data-table';

export type SortDirection = 'ascending' | 'descending' | 'none';

export interface DataTableColumn<Row> {
  id: string;
  header: ReactNode;
  /** Widths, alignment, and when the column shows (e.g. `hidden md:table-cell`, or `@3xl:table-cell` in a container). */
  className?: string;
  /** Classes of this column's cells only (after `className`). */
  cellClassName?: string;
  cellTestId?: string;
  cell: (row: Row) => ReactNode;
  /** A sortable column: its header is a button that says the order (aria-sort). */
  sort?: { direction: SortDirection; onSort: () => void };
}

type Pagination = Parameters<typeof TablePagination>[0];

/**
 * A list's table (the subjects, a subject's videos): a checkbox a row and a select-all box for bulk delete, the
 * columns, and a row menu whose last item is Delete. The state (selection, the rows to delete) is `useDataTable`'s;
 * the caller places `BulkDeleteBar` and `DeleteRowsDialog`. Checkboxes and menus are Radix's, so Tab, Space, Enter,
 * the arrows and Escape work as everywhere in the app. Without bulk delete the checkboxes keep their place, hidden,
 * so the columns do not shift with the user's role.
 */
export function DataTable<Row>({
  label,
  rows,
  rowKey,
  rowName,
  columns,
  table,
  selectable,
  selectAllLabel,
  rowMenu,
  onDelete,
  rowActions,
  isRowCurrent,
  rowTestId,
  actionsTestId,
  inset,
  headerClassName,
  busy,
  status,
  pagination,
}: {
  /** The table's accessible name. */
  label: string;
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  /** How a row is named in "Select …" and "Actions for …". */
  rowName: (row: Row) => string;
  columns: readonly DataTableColumn<Row>[];
  table: DataTableState;
  /** Whether the user may select rows (bulk delete). */
  selectable: boolean;
  selectAllLabel: string;
  /** The row menu's items; Delete follows them when `onDelete` is given. */
  rowMenu: (row: Row) => ReactNode;
  /** Offers Delete in each row's menu (confirmed through the table's state). */
  onDelete?: boolean;
  /** Buttons before the row menu. */
  rowActions?: (row: Row) => ReactNode;
  /** A row shown as selected without being checked (the open video). */
  isRowCurrent?: (row: Row) => boolean;
  rowTestId?: string;
  actionsTestId?: string;
  /** The padding at the table's edges, to line up with the card around it. */
  inset: 'card' | 'card-content';
  headerClassName?: string;
  busy?: boolean;
  /** Loading, failure and empty states, shown inside the table; without it the caller shows them. */
  status?: { loading: boolean; error: string | null; empty: ReactNode };
  pagination?: Pagination;
}) {
  const edge = inset === 'card' ? { start: 'pl-4', end: 'pr-4' } : { start: 'pl-6', end: 'pr-6' };
  const span = columns.length + 2;

  const body = (() => {
    if (status?.loading) {
      return Array.from({ length: 4 }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholder rows.
        <TableRow key={i}>
          <TableCell colSpan={span} className="px-4">
            <Skeleton className="h-6" />
          </TableCell>
        </TableRow>
      ));
    }
    if (status?.error) {
      return (
        <TableRow>
          <TableCell colSpan={span} className="py-10 text-center text-muted-foreground">
            {status.error}
          </TableCell>
        </TableRow>
      );
    }
    if (status && rows.length === 0) {
      return (
        <TableRow className="hover:bg-transparent">
          <TableCell colSpan={span} className="py-12">
            {status.empty}
          </TableCell>
        </TableRow>
      );
    }
    return rows.map((row) => {
      const key = rowKey(row);
      const name = rowName(row);
      const checked = table.selected.has(key);
      const menu = (
        <RowActionsMenu name={name}>
          {rowMenu(row)}
          {onDelete ? (
            <>
              <DropdownMenuSeparator />
              <DropdownMenuItem variant="destructive" onSelect={() => table.askDelete([key])}>
                <Trash2 aria-hidden="true" />
                Delete
              </DropdownMenuItem>
            </>
          ) : null}
        </RowActionsMenu>
      );
      return (
        <TableRow
          key={key}
          data-state={checked || isRowCurrent?.(row) ? 'selected' : undefined}
          data-testid={rowTestId}
        >
          <TableCell className={edge.start}>
            <Checkbox
              aria-label={`Select ${name}`}
              disabled={!selectable}
              className={selectable ? undefined : 'invisible'}
              checked={checked}
              onCheckedChange={(value) => table.toggle(key, value === true)}
            />
          </TableCell>
          {columns.map((column) => (
            <TableCell
              key={column.id}
              className={cn(column.className, column.cellClassName)}
              data-testid={column.cellTestId}
            >
              {column.cell(row)}
            </TableCell>
          ))}
          <TableCell className={edge.end} data-testid={actionsTestId}>
            {rowActions ? (
              <div className="flex items-center justify-end gap-0.5">
                {rowActions(row)}
                {menu}
              </div>
            ) : (
              menu
            )}
          </TableCell>
        </TableRow>
      );
    });
  })();

  return (
    <>
      <Table aria-busy={busy} aria-label={label}>
        <TableHeader className={headerClassName}>
          <TableRow className="hover:bg-transparent">
            <TableHead className={cn('w-10', edge.start)}>
              <Checkbox
                aria-label={selectAllLabel}
                className={selectable ? undefined : 'invisible'}
                checked={table.allSelected ? true : table.someSelected ? 'indeterminate' : false}
                onCheckedChange={(value) => table.toggleAll(value === true)}
                disabled={rows.length === 0 || !selectable}
              />
            </TableHead>
            {columns.map((column) =>
              column.sort ? (
                <TableHead key={column.id} className={column.className} aria-sort={column.sort.direction}>
                  <SortButton label={column.header} {...column.sort} />
                </TableHead>
              ) : (
                <TableHead key={column.id} className={column.className}>
                  {column.header}
                </TableHead>
              ),
            )}
            <TableHead className={cn('w-12', edge.end)} data-testid={actionsTestId && `${actionsTestId}-head`}>
              <span className="sr-only">Actions</span>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>{body}</TableBody>
      </Table>
      {pagination ? <TablePagination {...pagination} /> : null}
    </>
  );
}

function SortButton({ label, direction, onSort }: { label: ReactNode; direction: SortDirection; onSort: () => void }) {
  const Icon = direction === 'ascending' ? ArrowUp : direction === 'descending' ? ArrowDown : ArrowUpDown;
  return (
    <Button
      variant="ghost"
      size="sm"
      className="-ml-3 h-8 data-[active=true]:text-foreground"
      data-active={direction !== 'none'}
      onClick={onSort}
    >
      {label}
      <Icon className="size-3.5" aria-hidden="true" />
    </Button>
  );
}
