import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument, formatOpenApiDocument } from './openapi-document.js';

describe('packages/api/openapi.json', () => {
  it('matches the routes (run `npm run gen:api` after changing an endpoint)', async () => {
    const committed = readFileSync(path.resolve(import.meta.dirname, '../../../packages/api/openapi.json'), 'utf8');
    expect(formatOpenApiDocument(await buildOpenApiDocument())).toBe(committed);
  });
});
