// `npm run gen:api`: writes packages/api/openapi.json from the routes, then the TypeScript types from it.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildOpenApiDocument, formatOpenApiDocument } from '../openapi-document.js';

const apiPackage = path.resolve(import.meta.dirname, '../../../../packages/api');
writeFileSync(path.join(apiPackage, 'openapi.json'), formatOpenApiDocument(await buildOpenApiDocument()));
execFileSync('npm', ['run', 'gen:types'], { cwd: apiPackage, stdio: 'inherit' });
console.log('packages/api/openapi.json and src/schema.d.ts written');
