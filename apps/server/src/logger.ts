import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';

/**
 * Hides secrets that travel in URLs from request logs: signed `token=` query values (stream URLs), file tokens in
 * `/api/files/{token}`, and the keys of e-mailed links when their SPA routes are requested.
 */
export function redactUrl(url: string): string {
  return url
    .replace(/([?&](?:token|key|signature|X-Amz-Signature)=)[^&]*/gi, '$1[redacted]')
    .replace(/^(\/api\/files\/)[^/?]+/, '$1[redacted]')
    .replace(/^(\/auth\/confirm-verification\/)[^/?]+/, '$1[redacted]')
    .replace(/^(\/auth\/confirm-password-reset\/)[^?]+/, '$1[redacted]');
}

/** One JSON line per request and per job event; never a token, password or secret. */
export function createLogger(level: string): FastifyBaseLogger {
  return pino({
    level,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.password1', '*.password2', '*.token'],
      censor: '[redacted]',
    },
    serializers: {
      req(request: { method: string; url: string; ip?: string; id?: string }) {
        return { method: request.method, url: redactUrl(request.url), remoteAddress: request.ip, id: request.id };
      },
    },
  }) as FastifyBaseLogger;
}
