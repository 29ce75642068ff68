import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { jobDefinitions } from '../modules/job-registry.js';
import { type JobDefinition, JobQueue } from './job-queue.js';

describe('job queues', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('store every job’s retry, expiry and heartbeat policy, so a silent worker’s job is retried', async () => {
    for (const definition of jobDefinitions) {
      const policy = await t.ctx.jobs.queuePolicy(definition.name);
      expect(policy, definition.name).toMatchObject({
        retryLimit: definition.retryLimit,
        expireInSeconds: definition.expireInSeconds,
      });
      expect(policy?.heartbeatSeconds ?? null).toBe(definition.heartbeatSeconds ?? null);
    }
    // Long media jobs must not wait hours for an expiry when a machine dies.
    for (const name of ['videos.process', 'analyses.segment', 'analyses.detect']) {
      expect((await t.ctx.jobs.queuePolicy(name))?.heartbeatSeconds).toBe(10);
    }
  });

  it('hand a job left running by a process that is gone to a worker at once, not after the retry delay', async () => {
    const started: number[] = [];
    const orphaned: JobDefinition<{ n: number }, object> = {
      name: 'test.orphaned',
      payload: z.object({ n: z.number() }),
      retryLimit: 2,
      retryDelaySeconds: 300,
      expireInSeconds: 3600,
      heartbeatSeconds: 600,
      async handle() {
        started.push(Date.now());
      },
    };
    // The job is marked running with no process behind it, as a SIGKILLed worker leaves it.
    const sender = JobQueue.open<object>(t.ctx.database, [orphaned], t.app.log);
    await sender.start();
    const id = await sender.send(orphaned, { n: 1 });
    await t.ctx.db.execute(
      sql`update pgboss.job set state = 'active', started_on = now() - interval '10 seconds' where id = ${id}`,
    );
    await sender.stop();
    const queue = JobQueue.open<object>(t.ctx.database, [orphaned], t.app.log);
    const before = Date.now();
    await queue.start({});
    try {
      const deadline = Date.now() + 15_000;
      while (started.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      // PGlite (one process): handed back at start; PostgreSQL: by the liveness sweep (two looks, a second apart).
      expect(started).toHaveLength(1);
      expect(started[0]! - before).toBeLessThan(5000);
      expect((await queue.getJob(orphaned.name, id!))?.retryCount).toBe(1);
    } finally {
      await queue.stop();
    }
  });

  it('wake this process’s idle workers when a job is sent here, instead of waiting for their next poll', async () => {
    const started: number[] = [];
    // Two workers that would otherwise look for jobs only every 30 s.
    const slowPolling: JobDefinition<{ n: number }, object> = {
      name: 'test.wake',
      payload: z.object({ n: z.number() }),
      retryLimit: 0,
      retryDelaySeconds: 1,
      expireInSeconds: 60,
      pollingIntervalSeconds: 30,
      concurrency: () => 2,
      async handle() {
        started.push(Date.now());
      },
    };
    const queue = JobQueue.open<object>(t.ctx.database, [slowPolling], t.app.log);
    await queue.start({});
    try {
      // Let both workers finish their first (empty) fetch and settle into the 30 s wait.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const sentAt = Date.now();
      await queue.send(slowPolling, { n: 1 });
      await queue.send(slowPolling, { n: 2 });
      const deadline = Date.now() + 10_000;
      while (started.length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(started).toHaveLength(2);
      expect(Math.max(...started) - sentAt).toBeLessThan(3000);
    } finally {
      await queue.stop();
    }
  });
});
