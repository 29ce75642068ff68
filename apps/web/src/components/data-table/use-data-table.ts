import { useCallback, useEffect, useState } from 'react';

/**
 * The state of a list's table (subjects, videos): which rows are selected, by key, and which rows wait for the
 * delete confirmation. Selections of rows that left the list (deleted, another page shown) are forgotten, so a bulk
 * delete never reaches a row the user cannot see. `rowKey` should be stable (a module-level function).
 */
export function useDataTable<Row>(rows: readonly Row[], rowKey: (row: Row) => string) {
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const [toDelete, setToDelete] = useState<readonly string[] | null>(null);

  useEffect(() => {
    const visible = new Set(rows.map(rowKey));
    setSelected((prev) => {
      const next = new Set([...prev].filter((key) => visible.has(key)));
      return next.size === prev.size ? prev : next;
    });
  }, [rows, rowKey]);

  const allSelected = rows.length > 0 && rows.every((row) => selected.has(rowKey(row)));

  const toggle = useCallback((key: string, on: boolean) => {
    setSelected((prev) => {
      const next = new Set(prev);
      if (on) next.add(key);
      else next.delete(key);
      return next;
    });
  }, []);

  return {
    selected,
    allSelected,
    /** Some rows but not all: the select-all box shows a dash. */
    someSelected: selected.size > 0 && !allSelected,
    toggle,
    toggleAll: (on: boolean) => setSelected(on ? new Set(rows.map(rowKey)) : new Set()),
    /** The rows the open confirmation would delete; null when it is closed. */
    toDelete,
    askDelete: (keys: readonly string[]) => setToDelete([...keys]),
    askDeleteSelected: () => setToDelete([...selected]),
    cancelDelete: () => setToDelete(null),
    /** After a delete went through: the confirmation closes and nothing stays selected. */
    deleted: () => {
      setToDelete(null);
      setSelected(new Set());
    },
  };
}

export type DataTableState = ReturnType<typeof useDataTable>;
