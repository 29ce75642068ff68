import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { closeContext, createContext } from './context.js';
import { openDatabase } from './db/client.js';
import { createLogger } from './logger.js';
import { jobDefinitions } from './modules/job-registry.js';

/** The OpenAPI document as the routes declare it, built on a throwaway in-memory app. */
export async function buildOpenApiDocument(): Promise<unknown> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'openapi-'));
  const config = loadConfig({ JWT_SECRET: 'openapi-generation-only' }, { dataDir });
  const context = await createContext(config, createLogger('silent'), {
    database: await openDatabase({}),
    jobDefinitions,
  });
  try {
    const app = await buildApp(context);
    await app.ready();
    const document = app.swagger();
    await app.close();
    return document;
  } finally {
    await closeContext(context);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The committed file's exact text, so a diff shows what changed in the API. */
export function formatOpenApiDocument(document: unknown): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
