import type * as React from 'react';
import { cn } from '@/lib/utils';

/** A key of the keyboard, as shown in hints and key maps. */
export function Kbd({ className, ...props }: React.ComponentProps<'kbd'>) {
  return (
    <kbd
      className={cn(
        'inline-flex h-5 min-w-5 items-center justify-center rounded border bg-muted px-1 font-medium font-sans text-[0.7rem] text-muted-foreground leading-none',
        className,
      )}
      {...props}
    />
  );
}
