import type { paths } from './schema.js';

export type { paths } from './schema.js';

type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';

/** The JSON body a call answers with on success (200 or 201). */
export type ApiResponse<P extends keyof paths, M extends Method> = paths[P][M] extends {
  responses: infer R;
}
  ? R extends { 200: { content: { 'application/json': infer B } } }
    ? B
    : R extends { 201: { content: { 'application/json': infer B } } }
      ? B
      : never
  : never;

/** The JSON body a call takes. */
export type ApiRequestBody<P extends keyof paths, M extends Method> = paths[P][M] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;
