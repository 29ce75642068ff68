import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { DropdownMenuItem } from '@/components/ui/dropdown-menu';
import { BulkDeleteBar, DeleteRowsDialog } from './bulk-delete';
import { DataTable, type DataTableColumn } from './data-table';
import { useDataTable } from './use-data-table';

interface Animal {
  id: string;
  name: string;
  group: string;
}

const ANIMALS: Animal[] = [
  { id: 'a', name: 'M12', group: 'control' },
  { id: 'b', name: 'M13', group: 'control' },
  { id: 'c', name: 'F07', group: 'knockout' },
];
const animalKey = (animal: Animal) => animal.id;
const columns: DataTableColumn<Animal>[] = [
  { id: 'name', header: 'Name', cell: (animal) => animal.name },
  { id: 'group', header: 'Group', className: 'hidden md:table-cell', cell: (animal) => animal.group },
];

/** A list as the subjects and videos pages build one: the table, the bulk bar and the confirmation. */
function Harness({
  rows = ANIMALS,
  selectable = true,
  canDelete = true,
  onConfirm = () => {},
  onOpen = () => {},
  status,
  onPageChange,
}: {
  rows?: Animal[];
  selectable?: boolean;
  canDelete?: boolean;
  onConfirm?: (keys: readonly string[]) => void;
  onOpen?: (animal: Animal) => void;
  status?: { loading: boolean; error: string | null; empty: string };
  onPageChange?: (page: number) => void;
}) {
  const table = useDataTable(rows, animalKey);
  return (
    <>
      <BulkDeleteBar table={table} enabled={selectable} variant="inline" />
      <DataTable
        label="Animals"
        rows={rows}
        rowKey={animalKey}
        rowName={(animal) => animal.name}
        columns={columns}
        table={table}
        selectable={selectable}
        selectAllLabel="Select all animals"
        rowMenu={(animal) => <DropdownMenuItem onSelect={() => onOpen(animal)}>Open</DropdownMenuItem>}
        onDelete={canDelete}
        inset="card"
        status={status}
        pagination={
          onPageChange
            ? {
                id: 'animals',
                page: 1,
                pageSize: 10,
                total: 23,
                emptyLabel: 'No animals',
                onPageChange,
                onPageSizeChange: () => {},
              }
            : undefined
        }
      />
      <DeleteRowsDialog
        table={table}
        noun={{ one: 'animal', many: 'animals' }}
        consequence={(count) => `${count > 1 ? 'Their' : 'Its'} videos go too.`}
        pending={false}
        onConfirm={(keys) => {
          onConfirm(keys);
          table.deleted();
        }}
      />
    </>
  );
}

const checkbox = (name: string) => screen.getByRole('checkbox', { name });
const isChecked = (name: string) => checkbox(name).getAttribute('aria-checked');

describe('DataTable: selection', () => {
  it('selects rows one by one, shows how many, and marks the select-all box as mixed', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    expect(screen.queryByText(/selected/)).toBeNull();
    await user.click(checkbox('Select M12'));
    await user.click(checkbox('Select F07'));
    expect(screen.getByText('2 selected')).toBeTruthy();
    expect(isChecked('Select all animals')).toBe('mixed');
    expect(screen.getByText('M12').closest('tr')?.dataset.state).toBe('selected');
    expect(screen.getByText('M13').closest('tr')?.dataset.state).toBeUndefined();
  });

  it('selects and clears every row with the select-all box', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(checkbox('Select all animals'));
    expect(screen.getByText('3 selected')).toBeTruthy();
    expect(isChecked('Select all animals')).toBe('true');
    await user.click(checkbox('Select all animals'));
    expect(screen.queryByText(/selected/)).toBeNull();
    expect(isChecked('Select M13')).toBe('false');
  });

  it('toggles a row from the keyboard: Tab to its box, Space', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.tab(); // the select-all box
    await user.tab(); // M12's box
    expect(document.activeElement).toBe(checkbox('Select M12'));
    await user.keyboard(' ');
    expect(isChecked('Select M12')).toBe('true');
    expect(screen.getByText('1 selected')).toBeTruthy();
  });

  it('forgets selected rows that left the list', async () => {
    const user = userEvent.setup();
    const { rerender } = render(<Harness />);
    await user.click(checkbox('Select M12'));
    await user.click(checkbox('Select M13'));
    rerender(<Harness rows={ANIMALS.slice(1)} />);
    await waitFor(() => expect(screen.getByText('1 selected')).toBeTruthy());
  });

  it('keeps the boxes in place but unusable without bulk delete', () => {
    render(<Harness selectable={false} />);
    expect((checkbox('Select M12') as HTMLButtonElement).disabled).toBe(true);
    expect((checkbox('Select all animals') as HTMLButtonElement).disabled).toBe(true);
    expect(checkbox('Select M12').className).toContain('invisible');
  });
});

describe('DataTable: bulk delete', () => {
  it('asks "Delete N animals?" for the selected rows, deletes them, then clears the selection', async () => {
    const user = userEvent.setup();
    const onConfirm = vi.fn();
    render(<Harness onConfirm={onConfirm} />);
    await user.click(checkbox('Select M12'));
    await user.click(checkbox('Select M13'));
    await user.click(screen.getByRole('button', { name: 'Delete selected' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete 2 animals?' });
    expect(within(dialog).getByText('Their videos go too.')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(onConfirm).toHaveBeenCalledWith(['a', 'b']);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(screen.queryByText(/selected/)).toBeNull();
  });

  it('cancelling deletes nothing and keeps the selection', async () => {
    const user = userEvent.setup();
    const onConfirm = vi.fn();
    render(<Harness onConfirm={onConfirm} />);
    await user.click(checkbox('Select F07'));
    await user.click(screen.getByRole('button', { name: 'Delete selected' }));
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(onConfirm).not.toHaveBeenCalled();
    expect(screen.getByText('1 selected')).toBeTruthy();
  });
});

describe('DataTable: row menu', () => {
  it('opens from the keyboard, runs the caller’s items, and ends with Delete for that row', async () => {
    const user = userEvent.setup();
    const onOpen = vi.fn();
    const onConfirm = vi.fn();
    render(<Harness onOpen={onOpen} onConfirm={onConfirm} />);
    screen.getByRole('button', { name: 'Actions for M13' }).focus();
    await user.keyboard('{Enter}');
    const menu = await screen.findByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Open', 'Delete']);
    await user.click(within(menu).getByRole('menuitem', { name: 'Open' }));
    expect(onOpen).toHaveBeenCalledWith(ANIMALS[1]);

    await user.click(screen.getByRole('button', { name: 'Actions for M13' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete this animal?' });
    expect(within(dialog).getByText('Its videos go too.')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(onConfirm).toHaveBeenCalledWith(['b']);
  });

  it('offers no Delete to those who may not delete', async () => {
    const user = userEvent.setup();
    render(<Harness canDelete={false} />);
    await user.click(screen.getByRole('button', { name: 'Actions for M12' }));
    const menu = await screen.findByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Open']);
  });
});

describe('DataTable: states and pagination', () => {
  it('shows loading, failure and empty states across the whole table', () => {
    const { rerender } = render(<Harness rows={[]} status={{ loading: false, error: 'Could not load.', empty: '' }} />);
    expect(screen.getByText('Could not load.').closest('td')?.colSpan).toBe(columns.length + 2);
    rerender(<Harness rows={[]} status={{ loading: false, error: null, empty: 'No animals yet' }} />);
    expect(screen.getByText('No animals yet')).toBeTruthy();
    expect((checkbox('Select all animals') as HTMLButtonElement).disabled).toBe(true);
  });

  it('pages through the list', async () => {
    const user = userEvent.setup();
    const onPageChange = vi.fn();
    render(<Harness onPageChange={onPageChange} />);
    expect(screen.getByText('1–10 of 23')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(onPageChange).toHaveBeenCalledWith(2);
  });
});

/** The select-all box follows rows that arrive later (a list that loads). */
function Loading() {
  const [rows, setRows] = useState<Animal[]>([]);
  const table = useDataTable(rows, animalKey);
  return (
    <>
      <button type="button" onClick={() => setRows(ANIMALS)}>
        load
      </button>
      <DataTable
        label="Animals"
        rows={rows}
        rowKey={animalKey}
        rowName={(animal) => animal.name}
        columns={columns}
        table={table}
        selectable
        selectAllLabel="Select all animals"
        rowMenu={() => null}
        inset="card-content"
      />
    </>
  );
}

it('enables select-all once rows arrive, and selects exactly those', async () => {
  const user = userEvent.setup();
  render(<Loading />);
  expect((checkbox('Select all animals') as HTMLButtonElement).disabled).toBe(true);
  await user.click(screen.getByRole('button', { name: 'load' }));
  await user.click(checkbox('Select all animals'));
  expect(ANIMALS.map((animal) => isChecked(`Select ${animal.name}`))).toEqual(['true', 'true', 'true']);
});
