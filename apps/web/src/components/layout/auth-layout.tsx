import { ScanEye } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ModeToggle } from '@/features/theme/mode-toggle';

/** The frame of the public auth screens: brand, a centred card, the theme switch. */
export function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <div className="relative flex min-h-svh flex-col bg-muted/40">
      <header className="flex items-center justify-between p-4 md:px-8">
        <Link to="/" className="flex items-center gap-2 font-semibold text-sm tracking-tight">
          <span className="flex size-7 items-center justify-center rounded-md bg-primary text-primary-foreground">
            <ScanEye className="size-4" aria-hidden="true" />
          </span>
          Subject Video Analysis
        </Link>
        <ModeToggle />
      </header>
      <main className="flex flex-1 items-start justify-center px-4 pt-6 pb-16 sm:items-center sm:pt-0">
        <div className="w-full max-w-sm">{children}</div>
      </main>
    </div>
  );
}
