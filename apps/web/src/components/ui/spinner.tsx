import { Loader2 } from 'lucide-react';
import { cn } from '@/lib/utils';

/** The page-level loading indicator: a spinner with the text 'Loading...'. */
export function Spinner({ className, fullScreen = false }: { className?: string; fullScreen?: boolean }) {
  return (
    <div
      role="status"
      aria-live="polite"
      className={cn(
        'flex items-center justify-center gap-2 text-muted-foreground text-sm',
        fullScreen ? 'min-h-svh' : 'min-h-[40vh]',
        className,
      )}
    >
      <Loader2 className="size-5 animate-spin" aria-hidden="true" />
      <span>Loading...</span>
    </div>
  );
}
