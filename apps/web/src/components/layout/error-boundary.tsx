import { AlertCircle } from 'lucide-react';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';

/** A crashed section: the alert 'Error' / 'Something went wrong.' (spec §2), the shell stays usable. */
export function SectionError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundContent />;
  return (
    <div className="mx-auto max-w-xl py-10">
      <Alert variant="destructive">
        <AlertCircle aria-hidden="true" />
        <AlertTitle>Error</AlertTitle>
        <AlertDescription>
          <p>Something went wrong.</p>
          <Button variant="outline" size="sm" className="mt-2" onClick={() => window.location.reload()}>
            Reload the page
          </Button>
        </AlertDescription>
      </Alert>
    </div>
  );
}

const ROUTE_ERROR_TEXT: Record<number, string> = {
  400: 'Bad Request',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
};

/** The app-wide fallback: routing errors by status, else 'Unexpected Application Error!'. */
export function RootError() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : null;
  if (status === 404) return <NotFoundPage />;
  const title = status
    ? `${status} ${ROUTE_ERROR_TEXT[status] ?? (isRouteErrorResponse(error) ? error.statusText : '')}`
    : 'Unexpected Application Error!';
  return (
    <main className="flex min-h-svh flex-col items-center justify-center gap-4 p-6 text-center">
      <h1 className="font-semibold text-2xl tracking-tight">{title}</h1>
      <p className="max-w-md text-muted-foreground text-sm">
        {error instanceof Error ? error.message : 'Please reload the page or go back home.'}
      </p>
      <Button asChild>
        <a href="/">Go home</a>
      </Button>
    </main>
  );
}

function NotFoundContent() {
  return (
    <div className="flex flex-col items-center justify-center gap-3 py-16 text-center">
      <p className="font-semibold text-5xl text-primary tracking-tight">404</p>
      <h1 className="font-semibold text-2xl tracking-tight">Page not found</h1>
      <p className="max-w-sm text-muted-foreground text-sm">
        The page you are looking for does not exist or you do not have access to it.
      </p>
      <Button asChild className="mt-2">
        <Link to="/">Back to the dashboard</Link>
      </Button>
    </div>
  );
}

export function NotFoundPage() {
  return (
    <main className="flex min-h-svh items-center justify-center p-6">
      <NotFoundContent />
    </main>
  );
}

export { NotFoundContent };
