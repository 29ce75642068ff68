import fastifyHelmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';

type Directives = Record<string, string[]>;

/**
 * The Content-Security-Policy of the app (SPA, API, files, streams, exports). Scripts only from the app's own files
 * (the theme script is `/theme-init.js`, never inline). Styles allow `'unsafe-inline'` because Radix's scroll lock
 * (react-remove-scroll) and sonner's toaster insert `<style>` elements at run time; nothing else is inline.
 * Images may be `blob:` (logo and avatar previews before upload) and `data:` (the Movement Detector's preview frame,
 * which the preview call answers as a `data:image/png` URL). Files, streams and downloads always come from the app
 * itself (on S3 too: the app reads the bucket after its checks and never hands out a bucket URL), so no other origin.
 */
export function appDirectives(): Directives {
  return {
    'default-src': ["'self'"],
    'base-uri': ["'self'"],
    'script-src': ["'self'"],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'blob:', 'data:'],
    'media-src': ["'self'"],
    'connect-src': ["'self'"],
    'font-src': ["'self'"],
    'object-src': ["'none'"],
    'worker-src': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
}

/** The API docs (Swagger UI at /api/docs/): its own scripts and styles, its `data:` icons and logo, never framed. */
export function docsDirectives(): Directives {
  return {
    ...appDirectives(),
    'img-src': ["'self'", 'data:'],
    'media-src': ["'none'"],
  };
}

export function cspHeader(directives: Directives): string {
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ');
}

/**
 * Security headers on every response (helmet, in `onRequest`, so replies that take over the socket — tus — and
 * error and not-found answers carry them too): the CSP above, `X-Content-Type-Options: nosniff`,
 * `Referrer-Policy: no-referrer` (stream and file URLs carry tokens), `X-Frame-Options: DENY`. HSTS only when
 * `PUBLIC_URL` is https (a lab's plain-http server must stay reachable), and no `upgrade-insecure-requests` for the
 * same reason.
 */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  context: Pick<AppContext, 'config'>,
): Promise<void> {
  const httpsOnly = context.config.publicUrl.startsWith('https:');
  const options: FastifyHelmetOptions = {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: appDirectives(),
    },
    referrerPolicy: { policy: 'no-referrer' },
    xFrameOptions: { action: 'deny' },
    strictTransportSecurity: httpsOnly ? { maxAge: 15_552_000, includeSubDomains: false } : false,
    crossOriginResourcePolicy: { policy: 'same-origin' },
  };
  await app.register(fastifyHelmet, options);
}
