import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
  jsonSchemaTransform,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import findMyWay from 'find-my-way';
import type { AppContext } from './context.js';
import { registerAuthentication } from './lib/authenticate.js';
import { DISK_FULL_MESSAGE, HttpError, isDiskFull } from './lib/errors.js';
import { registerNullCharacterGuard } from './lib/null-characters.js';
import { registerProjectScope } from './lib/project-scope.js';
import { responseSerializerCompiler } from './lib/response-serializer.js';
import { cspHeader, docsDirectives, registerSecurityHeaders } from './lib/security-headers.js';
import { recordProjectExports } from './modules/checklist/checklist.service.js';
import { apiModules } from './modules/index.js';
import { APP_VERSION } from './version.js';

const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** One log line per request, written when it completes (method, url without tokens, status, time). */
class OneLinePerRequest extends LogController {
  override incomingRequest() {}
  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    const line = { req: request, res: reply, responseTime: Math.round(reply.elapsedTime * 10) / 10 };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request');
  }
}

/** Turns zod issue paths into the spec's `{ field: [messages] }`. */
function validationErrors(
  issues: { instancePath: string; message?: string; params?: { issue?: { path?: PropertyKey[] } } }[],
  context: string,
): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) {
    const pathParts = issue.params?.issue?.path?.map(String) ?? issue.instancePath.split('/').filter(Boolean);
    const field = pathParts.length > 0 ? pathParts.join('.') : context === 'body' ? 'non_field_errors' : context;
    errors[field] ??= [];
    errors[field].push(issue.message ?? 'Invalid value.');
  }
  return errors;
}

/** Builds the HTTP app over a ready context. Tests call this with their own context; `main.ts` with the real one. */
export async function buildApp(context: AppContext): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: context.logger,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 2000 },
    // Fastify accepts a hop count at run time; its types leave numbers out.
    trustProxy: context.config.trustProxy as boolean | string,
    logController: new OneLinePerRequest(),
    bodyLimit: 1024 * 1024,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler);
  app.decorate('ctx', context);
  // The API speaks JSON and multipart; a text/plain body is an unsupported media type, not a malformed field.
  app.removeContentTypeParser('text/plain');

  // While shutting down, answers to requests still in flight close their connection, so that keep-alive
  // sockets do not hold the drain open until they time out.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });

  // Every path pattern with the methods it answers, to tell 405 (known path, other method) from 404.
  const knownPaths = findMyWay<findMyWay.HTTPVersion.V1>({ ignoreTrailingSlash: true, maxParamLength: 2000 });
  const methodsByPattern = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api')) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    let set = methodsByPattern.get(route.url);
    if (!set) {
      set = new Set();
      methodsByPattern.set(route.url, set);
      const pattern = route.url;
      knownPaths.on('GET', pattern, () => {}, { pattern });
    }
    for (const method of methods) set.add(method);
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    // Refused before its body was read (too large, disk full, broken multipart): close the connection, so the client
    // stops sending the rest instead of streaming it into a socket nobody reads.
    if (!request.raw.complete) reply.header('connection', 'close');
    if (error instanceof HttpError) {
      return reply
        .status(error.status)
        .headers(error.headers)
        .send({ ...error.extra, errors: error.errors });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply.status(400).send({ errors: validationErrors(error.validation, error.validationContext ?? 'body') });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response did not match its schema');
      return reply.status(500).send({ errors: 'Internal server error.' });
    }
    if (isDiskFull(error)) {
      request.log.error({ err: error }, 'disk full');
      return reply.status(507).send({ errors: DISK_FULL_MESSAGE });
    }
    const status = error.statusCode ?? 500;
    if (status === 413 || error.code === 'FST_REQ_FILE_TOO_LARGE' || error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.status(413).send({ errors: 'The request body is too large.' });
    }
    if (status === 415 || error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.status(415).send({ errors: `Unsupported media type "${request.headers['content-type'] ?? ''}".` });
    }
    if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      return reply.status(400).send({ errors: 'The request body is not valid JSON.' });
    }
    if (error.code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') {
      return reply.status(415).send({ errors: 'This call expects multipart/form-data.' });
    }
    // busboy reports a broken multipart body with plain errors.
    if (!error.statusCode && /multipart|malformed part header|boundary/i.test(error.message)) {
      return reply.status(400).send({ errors: 'The multipart body could not be read.' });
    }
    if (status >= 400 && status < 500) {
      return reply.status(status).send({ errors: error.message });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ errors: 'Internal server error.' });
  });

  await registerSecurityHeaders(app, context);
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Video Analysis API',
        version: APP_VERSION,
        description:
          'Projects, subjects, videos, analyses. Authenticate with `Authorization: Bearer {access}` from `POST /api/auth/login/`. ' +
          'Errors are `{"errors": "message"}` or `{"errors": {"field": ["message"]}}`.',
      },
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
      security: [{ bearerAuth: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', staticCSP: cspHeader(docsDirectives()) });
  await app.register(fastifyMultipart, {
    limits: { fileSize: context.config.maxUploadBytes, files: 1, fields: 20, fieldSize: 64 * 1024 },
    throwFileSizeLimit: true,
  });
  registerAuthentication(app);
  registerProjectScope(app);
  recordProjectExports(app);
  registerNullCharacterGuard(app);

  await app.register(
    async (api) => {
      for (const module of apiModules) await api.register(module);
      api.get('/schema/', { schema: { hide: true } }, async () => api.swagger());
    },
    { prefix: '/api' },
  );

  const webDist = context.config.webDistDir;
  if (webDist && existsSync(path.join(webDist, 'index.html'))) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      cacheControl: false,
      // Vite's hashed bundles never change under their name; everything else (index.html, favicon, the theme script)
      // must be revalidated so a new release reaches every browser.
      setHeaders: (res, filePath) => {
        const hashed = filePath.startsWith(path.join(webDist, 'assets') + path.sep);
        res.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    if (pathname === '/api' || pathname.startsWith('/api/')) {
      const match = knownPaths.find('GET', pathname);
      const pattern = (match?.store as { pattern?: string } | undefined)?.pattern;
      const allowed = pattern ? methodsByPattern.get(pattern) : undefined;
      if (allowed && !allowed.has(request.method)) {
        const allow = HTTP_METHODS.filter((m) => allowed.has(m)).join(', ');
        return reply
          .status(405)
          .header('allow', allow)
          .send({ errors: `Method "${request.method}" not allowed.` });
      }
      return reply.status(404).send({ errors: 'Not found.' });
    }
    // Any other GET is a client-side route of the SPA. A missing file (a path with an extension) stays a 404, so a
    // stale script reference fails loudly instead of receiving HTML.
    const looksLikeFile = /\.[a-z0-9]+$/i.test(pathname);
    if (
      webDist &&
      !looksLikeFile &&
      (request.method === 'GET' || request.method === 'HEAD') &&
      existsSync(path.join(webDist, 'index.html'))
    ) {
      return reply.sendFile('index.html', webDist);
    }
    return reply.status(404).send({ errors: 'Not found.' });
  });

  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}
