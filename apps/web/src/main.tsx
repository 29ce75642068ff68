import './index.css';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { Toaster } from '@/components/ui/sonner';
import { TooltipProvider } from '@/components/ui/tooltip';
import { initSession } from '@/features/auth/session';
import { ActiveProjectProvider } from '@/features/projects/hooks/active-project-context';
import { ThemeProvider } from '@/features/theme/theme-provider';
import { queryClient } from '@/lib/query-client';
import { createRouter } from '@/routes/router';

const router = createRouter();
void initSession();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ThemeProvider>
      <QueryClientProvider client={queryClient}>
        <ActiveProjectProvider>
          <TooltipProvider>
            <RouterProvider router={router} />
            <Toaster />
          </TooltipProvider>
        </ActiveProjectProvider>
      </QueryClientProvider>
    </ThemeProvider>
  </StrictMode>,
);
