import { Suspense } from 'react';
import { Outlet, useNavigation } from 'react-router';
import { Separator } from '@/components/ui/separator';
import { SidebarInset, SidebarProvider, SidebarTrigger } from '@/components/ui/sidebar';
import { Spinner } from '@/components/ui/spinner';
import { ModeToggle } from '@/features/theme/mode-toggle';
import { AppSidebar } from './app-sidebar';
import { HeaderTitle } from './header-title';

/** The signed-in shell: sidebar, a slim header, and the page. */
export function AppLayout() {
  const navigation = useNavigation();
  const loading = navigation.state === 'loading';
  return (
    <SidebarProvider>
      <a
        href="#main-content"
        className="sr-only z-50 rounded-md bg-background px-3 py-2 focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <AppSidebar />
      <SidebarInset>
        <header className="sticky top-0 z-10 flex h-14 shrink-0 items-center gap-2 border-b bg-background/85 px-4 backdrop-blur supports-[backdrop-filter]:bg-background/70">
          <SidebarTrigger className="-ml-1" />
          <Separator orientation="vertical" className="mr-1 data-[orientation=vertical]:h-4" />
          <HeaderTitle />
          <ModeToggle />
        </header>
        <div id="main-content" className="flex-1 px-4 py-6 md:px-8" tabIndex={-1}>
          {loading ? (
            <Spinner />
          ) : (
            <Suspense fallback={<Spinner />}>
              <Outlet />
            </Suspense>
          )}
        </div>
      </SidebarInset>
    </SidebarProvider>
  );
}
