import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { TooltipProvider } from '@/components/ui/tooltip';
import type { User } from '@/features/auth/api';
import { ActiveProjectProvider } from '@/features/projects/hooks/active-project-context';
import { ThemeProvider } from '@/features/theme/theme-provider';
import { queryClient } from '@/lib/query-client';
import { routes } from '@/routes/router';

export function Providers({ children }: { children: ReactNode }) {
  return (
    <ThemeProvider>
      <QueryClientProvider client={queryClient}>
        <ActiveProjectProvider>
          <TooltipProvider>{children}</TooltipProvider>
        </ActiveProjectProvider>
      </QueryClientProvider>
    </ThemeProvider>
  );
}

/** Renders the real route tree at `path` in memory. */
export function renderApp(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(
    <Providers>
      <RouterProvider router={router} />
    </Providers>,
  );
  return { router, ...view };
}

export const project = (uuid: string, name: string) => ({
  project_uuid: uuid,
  name,
  metadata: { description: '' },
  logo_url: null,
  status: 'active' as const,
  role: 'owner' as const,
  counts: { subjects: 0, videos: 0, analyses: 0 },
  storage_bytes: 0,
  created_at: '2026-01-01T00:00:00Z',
});

export const page = <T,>(results: T[]) => ({ count: results.length, next: null, previous: null, results });

export const testUser: User = {
  id: 1,
  email: 'ada@lab.org',
  first_name: 'Ada',
  last_name: 'L',
  display_name: 'Ada L',
  get_display_name: 'Ada L',
  avatar_url: null,
  email_verified: true,
  date_joined: '2026-01-01T00:00:00Z',
};
