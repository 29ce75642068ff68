import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { NativeSelect } from '@/components/ui/select';

/** Rows per page a list offers. */
export const PAGE_SIZES = [10, 25, 50, 100] as const;

/**
 * The footer of a paginated table: "11–20 of 73", rows per page, previous/next. Pages count from 1; the
 * caller keeps page and page size (usually in the URL) and hears every change.
 */
export function TablePagination({
  id,
  page,
  pageSize,
  total,
  emptyLabel,
  onPageChange,
  onPageSizeChange,
}: {
  /** Prefix for the rows-per-page select's id. */
  id: string;
  page: number;
  pageSize: number;
  total: number;
  /** Shown instead of the range when there is nothing, e.g. "No subjects". */
  emptyLabel: string;
  onPageChange: (page: number) => void;
  onPageSizeChange: (pageSize: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <div className="flex flex-col gap-3 border-t px-4 py-3 text-sm sm:flex-row sm:items-center sm:justify-between">
      <p className="text-muted-foreground" aria-live="polite">
        {total === 0 ? emptyLabel : `${(page - 1) * pageSize + 1}–${Math.min(page * pageSize, total)} of ${total}`}
      </p>
      <div className="flex items-center gap-2">
        <label htmlFor={`${id}-page-size`} className="text-muted-foreground">
          Rows
        </label>
        <NativeSelect
          id={`${id}-page-size`}
          value={String(pageSize)}
          onChange={(e) => onPageSizeChange(Number(e.target.value))}
        >
          {PAGE_SIZES.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </NativeSelect>
        <Button
          variant="outline"
          size="icon-sm"
          aria-label="Previous page"
          disabled={page <= 1}
          onClick={() => onPageChange(page - 1)}
        >
          <ChevronLeft aria-hidden="true" />
        </Button>
        <span className="min-w-16 text-center tabular-nums">
          {page} / {pages}
        </span>
        <Button
          variant="outline"
          size="icon-sm"
          aria-label="Next page"
          disabled={page >= pages}
          onClick={() => onPageChange(page + 1)}
        >
          <ChevronRight aria-hidden="true" />
        </Button>
      </div>
    </div>
  );
}
