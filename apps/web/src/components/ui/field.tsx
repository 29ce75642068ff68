import type * as React from 'react';
import { Label } from '@/components/ui/label';
import { cn } from '@/lib/utils';

/** A labelled form field with its description and error messages, linked by ids for screen readers. */
export function Field({
  id,
  label,
  description,
  errors,
  className,
  children,
}: {
  id: string;
  label: React.ReactNode;
  description?: React.ReactNode;
  errors?: string[] | undefined;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <div className={cn('grid grid-cols-1 content-start gap-2', className)}>
      <Label htmlFor={id}>{label}</Label>
      {children}
      {description && !errors?.length ? (
        <p id={`${id}-description`} className="text-muted-foreground text-xs">
          {description}
        </p>
      ) : null}
      {errors?.length ? (
        <p id={`${id}-error`} className="text-destructive text-xs" role="alert">
          {errors.join(' ')}
        </p>
      ) : null}
    </div>
  );
}

/** aria props for an input inside a Field. */
export function fieldAria(id: string, errors?: string[]) {
  return {
    id,
    'aria-invalid': errors?.length ? true : undefined,
    'aria-describedby': errors?.length ? `${id}-error` : undefined,
  } as const;
}
