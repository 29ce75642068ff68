import type { FastifyBaseLogger } from 'fastify';
import { fromPglite, type Job, PgBoss } from 'pg-boss';
import type { z } from 'zod';
import type { DatabaseHandle } from '../db/client.js';

/**
 * One kind of background job: its queue name, payload schema, retry policy and handler.
 * Every job the app sends is declared in `modules/job-registry.ts`; start-up fails when one lacks a handler.
 */
export interface JobDefinition<Payload, Context> {
  name: string;
  payload: z.ZodType<Payload>;
  /** Attempts after the first failure; waits grow exponentially from `retryDelaySeconds`. */
  retryLimit: number;
  retryDelaySeconds: number;
  /** A job still active after this long is considered crashed and retried. */
  expireInSeconds: number;
  /**
   * A running job's worker reports every half of this; a job whose worker went silent (a crashed or killed
   * machine) is retried after it instead of waiting for `expireInSeconds`.
   */
  heartbeatSeconds?: number;
  /** How often an idle worker looks for jobs sent by other processes (default 1 s). */
  pollingIntervalSeconds?: number;
  /** Jobs of this queue one process runs at once (default 1). */
  concurrency?(context: Context): number;
  /**
   * Called when this process stops taking jobs, before it waits for running ones: a handler that can run for
   * minutes aborts here, so its job fails now and is retried (elsewhere, or after the restart).
   */
  onStop?(): void;
  /** Runs the job; `isFinalAttempt` lets a handler record a permanent failure on its subject. */
  handle(context: Context, payload: Payload, job: { id: string; isFinalAttempt: boolean }): Promise<void>;
}

// biome-ignore lint/suspicious/noExplicitAny: a registry holds definitions of many payload types
export type AnyJobDefinition<Context> = JobDefinition<any, Context>;

export interface JobState {
  id: string;
  name: string;
  state: string;
  retryCount: number;
  createdOn: Date;
  startedOn: Date | null;
  completedOn: Date | null;
}

/** pg-boss on the app's own database (PGlite or PostgreSQL): SKIP LOCKED queues, retries with backoff. */
export class JobQueue<Context> {
  private readonly definitions = new Map<string, AnyJobDefinition<Context>>();
  private started = false;

  constructor(
    private readonly boss: PgBoss,
    definitions: AnyJobDefinition<Context>[],
    private readonly logger: FastifyBaseLogger,
  ) {
    for (const definition of definitions) {
      if (typeof definition.handle !== 'function') throw new Error(`Job "${definition.name}" has no handler`);
      this.definitions.set(definition.name, definition);
    }
    boss.on('error', (error) => logger.error({ err: error }, 'job queue error'));
  }

  static open<Context>(
    database: DatabaseHandle,
    definitions: AnyJobDefinition<Context>[],
    logger: FastifyBaseLogger,
  ): JobQueue<Context> {
    const boss = database.pglite
      ? new PgBoss({ db: fromPglite(database.pglite), backend: 'pglite' })
      : new PgBoss({ connectionString: database.connectionString, max: 4 });
    return new JobQueue(boss, definitions, logger);
  }

  /** Creates the queues; with `context`, also starts a worker per queue in this process. */
  async start(context?: Context): Promise<void> {
    await this.boss.start();
    this.started = true;
    for (const definition of this.definitions.values()) {
      const policy = {
        retryLimit: definition.retryLimit,
        retryDelay: definition.retryDelaySeconds,
        retryBackoff: true,
        expireInSeconds: definition.expireInSeconds,
        ...(definition.heartbeatSeconds ? { heartbeatSeconds: definition.heartbeatSeconds } : {}),
      };
      await this.boss.createQueue(definition.name, policy);
      // An existing queue (an older DATA_DIR or database) takes the current policy too.
      await this.boss.updateQueue(definition.name, policy);
      if (context) await this.work(definition, context);
    }
  }

  private async work(definition: AnyJobDefinition<Context>, context: Context) {
    await this.boss.work(
      definition.name,
      {
        pollingIntervalSeconds: definition.pollingIntervalSeconds ?? 1,
        includeMetadata: true,
        localConcurrency: Math.max(1, definition.concurrency?.(context) ?? 1),
      },
      async (jobs: Job<unknown>[]) => {
        for (const job of jobs) {
          const meta = job as Job<unknown> & { retryCount?: number; retryLimit?: number };
          const isFinalAttempt = (meta.retryCount ?? 0) >= (meta.retryLimit ?? definition.retryLimit);
          const log = this.logger.child({ job: definition.name, jobId: job.id, attempt: (meta.retryCount ?? 0) + 1 });
          const started = Date.now();
          log.info('job started');
          try {
            const payload = definition.payload.parse(job.data);
            await definition.handle(context, payload, { id: job.id, isFinalAttempt });
            log.info({ ms: Date.now() - started }, 'job completed');
          } catch (error) {
            log.error({ err: error, ms: Date.now() - started, isFinalAttempt }, 'job failed');
            throw error;
          }
        }
      },
    );
  }

  /** Queues a job; with `singletonKey` a second job for the same key is not queued while one waits. */
  async send<Payload>(
    definition: JobDefinition<Payload, Context>,
    payload: Payload,
    options: { singletonKey?: string } = {},
  ): Promise<string | null> {
    if (!this.definitions.has(definition.name)) throw new Error(`Job "${definition.name}" is not registered`);
    const data = definition.payload.parse(payload);
    const id = await this.boss.send(
      definition.name,
      data as object,
      options.singletonKey ? { singletonKey: options.singletonKey } : {},
    );
    this.wakeLocalWorkers(definition.name);
    return id;
  }

  /**
   * Workers poll every second; this process's own workers of the queue fetch at once instead, so a job sent
   * here starts without that wait (every worker, as each takes one job). Other machines' workers still poll.
   */
  private wakeLocalWorkers(name: string): void {
    for (const worker of this.boss.getWipData()) {
      if (worker.name === name) this.boss.notifyWorker(worker.id);
    }
  }

  /** Cancels queued (or retrying) jobs so they never start; a running job is stopped by its own handler. */
  async cancel(name: string, ids: string[]): Promise<void> {
    if (ids.length > 0) await this.boss.cancel(name, ids);
  }

  /** A queue's stored policy (retries, expiry, heartbeat), as pg-boss applies it. */
  async queuePolicy(name: string) {
    const queue = await this.boss.getQueue(name);
    return queue
      ? {
          retryLimit: queue.retryLimit,
          expireInSeconds: queue.expireInSeconds,
          heartbeatSeconds: queue.heartbeatSeconds,
        }
      : null;
  }

  async getJob(name: string, id: string): Promise<JobState | null> {
    const job = await this.boss.getJobById(name, id);
    if (!job) return null;
    return {
      id: job.id,
      name: job.name,
      state: job.state,
      retryCount: job.retryCount,
      createdOn: job.createdOn,
      startedOn: job.startedOn ?? null,
      completedOn: job.completedOn ?? null,
    };
  }

  /** Stops taking jobs and waits (up to `timeoutMs`) for running ones to finish. */
  async stop(timeoutMs = 30_000): Promise<void> {
    if (!this.started) return;
    this.started = false;
    for (const definition of this.definitions.values()) definition.onStop?.();
    await this.boss.stop({ graceful: true, timeout: timeoutMs, close: true });
  }
}
