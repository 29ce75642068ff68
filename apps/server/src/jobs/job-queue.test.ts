import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { jobDefinitions } from './job-registry.js';

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
      expect((await t.ctx.jobs.queuePolicy(name))?.heartbeatSeconds).toBe(30);
    }
  });
});
