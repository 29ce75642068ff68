import { MoreHorizontal } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { DropdownMenu, DropdownMenuContent, DropdownMenuTrigger } from '@/components/ui/dropdown-menu';

/**
 * The "…" menu at the end of a row (subjects, videos, runs, members, tracks): one trigger labelled
 * "Actions for <name>", which tests and screen readers find the row's actions by.
 */
export function RowActionsMenu({
  name,
  children,
  size = 'icon-sm',
  contentClassName,
}: {
  name: string;
  children: ReactNode;
  size?: 'icon' | 'icon-sm';
  contentClassName?: string;
}) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size={size} aria-label={`Actions for ${name}`}>
          <MoreHorizontal aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className={contentClassName}>
        {children}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
