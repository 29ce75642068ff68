import { createBrowserRouter, type RouteObject } from 'react-router';
import { AppLayout } from '@/components/layout/app-layout';
import { NotFoundPage, RootError, SectionError } from '@/components/layout/error-boundary';
import { Spinner } from '@/components/ui/spinner';
import { ProjectScope, PublicOnly, RequireAuth } from './guards';

/** The sections of a project, reachable short (/subjects) and long (/projects/{uuid}/subjects). */
export const projectSections: RouteObject[] = [
  { path: 'subjects', lazy: () => import('./subjects') },
  { path: 'subjects/:subjectUuid', lazy: () => import('./subject') },
  { path: 'analysis-logs', lazy: () => import('./analysis-logs') },
  { path: 'movement-detector', lazy: () => import('./movement-detector') },
  { path: 'location-tracker', lazy: () => import('./location-tracker') },
  // Not in the spec's route list: pose analyses of issue 24 (ADR 037).
  { path: 'pose', lazy: () => import('./pose') },
  { path: 'quick-score', lazy: () => import('./quick-score') },
  { path: 'annotator', lazy: () => import('./annotator') },
  // Not in the spec's route list: the Agreement view of issue 13 (ADR 010), reached from the tools by link.
  { path: 'agreement', lazy: () => import('./agreement') },
  // Not in the spec's route list: whole experiments of issue 23 (ADR 036) — protocols, and batches run from them.
  { path: 'protocols', lazy: () => import('./protocols') },
  { path: 'protocols/new', lazy: () => import('./new-protocol') },
  { path: 'protocols/:protocolUuid', lazy: () => import('./protocol') },
  { path: 'batches', lazy: () => import('./batches') },
  { path: 'batches/new', lazy: () => import('./new-batch') },
  { path: 'batches/:batchUuid', lazy: () => import('./batch') },
  // Not in the spec's route list: the project's trash of issue 19 (deleted objects kept TRASH_DAYS, restorable).
  { path: 'trash', lazy: () => import('./trash') },
];

function RewritePending() {
  return <Spinner />;
}

export const routes: RouteObject[] = [
  {
    path: '/',
    errorElement: <RootError />,
    hydrateFallbackElement: <Spinner fullScreen />,
    children: [
      {
        path: 'auth',
        children: [
          {
            element: <PublicOnly />,
            children: [
              { path: 'login', lazy: () => import('./auth/login') },
              { path: 'register', lazy: () => import('./auth/register') },
              { path: 'reset-password', lazy: () => import('./auth/reset-password') },
              { path: 'confirm-password-reset/:uidb64/:token', lazy: () => import('./auth/confirm-password-reset') },
            ],
          },
          { path: 'logout', lazy: () => import('./auth/logout') },
          { path: 'verification-sent', lazy: () => import('./auth/verification-sent') },
          { path: 'confirm-verification/:key', lazy: () => import('./auth/confirm-verification') },
          {
            path: 'accept-invite/:projectUuid/:invitationUuid',
            element: <RequireAuth />,
            children: [{ index: true, lazy: () => import('./auth/accept-invite') }],
          },
        ],
      },
      {
        element: <RequireAuth />,
        children: [
          {
            element: <AppLayout />,
            children: [
              {
                errorElement: <SectionError />,
                children: [
                  { index: true, lazy: () => import('./dashboard') },
                  { path: 'profile', lazy: () => import('./profile') },
                  { path: 'new-project', lazy: () => import('./new-project') },
                  {
                    element: <ProjectScope />,
                    // Short forms: ProjectScope rewrites them before these render.
                    children: [{ path: 'projects' }, ...projectSections].map(({ path }) => ({
                      path,
                      Component: RewritePending,
                    })),
                  },
                  {
                    path: 'projects/:projectUuid',
                    element: <ProjectScope />,
                    children: [{ index: true, lazy: () => import('./project') }, ...projectSections],
                  },
                ],
              },
            ],
          },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}
