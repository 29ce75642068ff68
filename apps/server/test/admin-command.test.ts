import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { type AppContext, closeContext, createContext } from '../src/context.js';
import { projects } from '../src/db/schema.js';
import { createLogger } from '../src/logger.js';
import { jobDefinitions } from '../src/modules/job-registry.js';
import { createProject } from '../src/modules/projects/project.service.js';
import { createUser } from './factories.js';
import { createPostgresDatabase } from './test-app.js';

const root = path.resolve(import.meta.dirname, '../../..');

/**
 * `npm run admin -- …` as an operator runs it: the real command from the repository root (built like `npm start`
 * builds the server), against the same database as the app — PostgreSQL while the app runs when TEST_DATABASE_URL is
 * set, else the embedded database in DATA_DIR, which the command refuses to open while a server has it.
 */
describe('the operator command (npm run admin)', () => {
  const postgres = process.env.TEST_DATABASE_URL;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vat-admin-'));
  let env: NodeJS.ProcessEnv;
  let dropDatabase = async () => {};
  let ctx: AppContext | undefined;
  let projectUuid: string;

  const open = async () => createContext(loadConfig(env), createLogger('silent'), { jobDefinitions });
  const admin = (...args: string[]) => {
    const result = spawnSync('npm', ['run', '--silent', 'admin', '--', ...args], {
      cwd: root,
      env: { ...process.env, ...env },
      encoding: 'utf8',
      timeout: 180_000,
    });
    return { code: result.status, out: result.stdout, err: result.stderr };
  };
  const statusOf = async (context: AppContext) =>
    (await context.db.select().from(projects).where(eq(projects.projectUuid, projectUuid)))[0]?.status;

  beforeAll(async () => {
    let databaseUrl = '';
    if (postgres) {
      const database = await createPostgresDatabase(postgres);
      databaseUrl = database.url;
      dropDatabase = database.drop;
    }
    env = {
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      JWT_SECRET: 'admin-command-test-secret',
      LOG_LEVEL: 'silent',
    };
    ctx = await open();
    const owner = await createUser(ctx, { email: 'pi@lab.test' });
    const project = await createProject(
      ctx,
      { id: owner.id, passwordChangedAt: null },
      {
        name: 'Institutional study',
        plan: 'institutional',
        metadata: { description: '', institution: 'Uni', principal_investigator: 'PI' },
      },
    );
    projectUuid = project.project_uuid;
    // As a new project is with billing on: a draft until an operator activates it.
    await ctx.db.update(projects).set({ status: 'draft' }).where(eq(projects.projectUuid, projectUuid));
  });
  afterAll(async () => {
    if (ctx) await closeContext(ctx);
    await dropDatabase();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('while the app has the database open: PostgreSQL is shared, the embedded database is refused', () => {
    const listed = admin('list-projects');
    if (postgres) {
      expect(listed.code).toBe(0);
      expect(listed.out).toContain(projectUuid);
    } else {
      expect(listed.code).toBe(1);
      expect(listed.err).toContain(`is in use by process ${process.pid}`);
    }
  });

  it('lists projects, activates and locks one, and says what went wrong otherwise', async () => {
    // The embedded database is one process's: the app closes it first. PostgreSQL is shared with the running app.
    if (!postgres) {
      await closeContext(ctx!);
      ctx = undefined;
    }
    const listed = admin('list-projects');
    expect(listed.err).toBe('');
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(
      new RegExp(`^${projectUuid}  draft   institutional  pi@lab\\.test  no subscription  Institutional study$`, 'm'),
    );

    const activated = admin('activate-project', projectUuid);
    expect(activated.code).toBe(0);
    expect(activated.out.trim()).toBe(`${projectUuid} "Institutional study" (institutional) is now active.`);
    if (ctx) expect(await statusOf(ctx)).toBe('active');

    const locked = admin('lock-project', projectUuid);
    expect(locked.code).toBe(0);
    expect(locked.out.trim()).toBe(`${projectUuid} "Institutional study" (institutional) is now locked.`);

    const unknown = admin('activate-project', '00000000-0000-4000-8000-000000000000');
    expect(unknown.code).toBe(1);
    expect(unknown.err.trim()).toBe('No project 00000000-0000-4000-8000-000000000000.');
    const usage = admin('activate-project');
    expect(usage.code).toBe(2);
    expect(usage.err).toContain('Usage: npm run admin -- <command>');

    ctx ??= await open();
    expect(await statusOf(ctx)).toBe('locked');
  });

  it('marks a project in the trash, with the day it goes for good', async () => {
    ctx ??= await open();
    await ctx.db
      .update(projects)
      .set({ deletedAt: new Date('2026-11-02T10:00:00Z'), purgeAt: new Date('2026-12-02T10:00:00Z') })
      .where(eq(projects.projectUuid, projectUuid));
    if (!postgres) {
      await closeContext(ctx);
      ctx = undefined;
    }
    const listed = admin('list-projects');
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(
      new RegExp(`^${projectUuid}  .*  Institutional study  in trash since 2026-11-02, purged 2026-12-02$`, 'm'),
    );
  });
});
