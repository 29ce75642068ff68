import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import { fromPglite, type Job, PgBoss } from 'pg-boss';
import type { z } from 'zod';
import type { DatabaseHandle } from '../db/client.js';
import { JobLiveness, PGBOSS_SCHEMA } from './job-liveness.js';

/**
 * pg-boss's supervisor pass (expiry and heartbeat timeouts) runs this often, instead of once a minute: a job
 * whose worker stopped heartbeating is retried at most `heartbeatSeconds` + this after its last heartbeat.
 */
const SUPERVISE_SECONDS = 10;

/** Job states in which a job may still run (waiting, waiting to retry, running). */
const LIVE_STATES = ['created', 'retry', 'active'];

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
   * pg-boss's queue policy, set when the queue is made. `stately`: per `singletonKey`, at most one job waits and one
   * runs, across every worker (two trainings of one scope never run at once). Default `standard`.
   */
  policy?: 'standard' | 'stately';
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
  private liveness: JobLiveness | undefined;
  /** This process, as job and segment records name it: `host:pid`. */
  readonly workerId = `${os.hostname()}:${process.pid}`;

  constructor(
    private readonly boss: PgBoss,
    definitions: AnyJobDefinition<Context>[],
    private readonly logger: FastifyBaseLogger,
    /** How workers are watched: PostgreSQL (the database to hold liveness locks on) or the one-process PGlite. */
    private readonly shape: { kind: 'postgres'; connectionString: string } | { kind: 'pglite' } = { kind: 'pglite' },
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
    const supervision = { superviseIntervalSeconds: SUPERVISE_SECONDS, monitorIntervalSeconds: SUPERVISE_SECONDS };
    if (database.pglite) {
      const boss = new PgBoss({ db: fromPglite(database.pglite), backend: 'pglite', ...supervision });
      return new JobQueue(boss, definitions, logger, { kind: 'pglite' });
    }
    const connectionString = database.connectionString!;
    const boss = new PgBoss({ connectionString, max: 4, ...supervision });
    return new JobQueue(boss, definitions, logger, { kind: 'postgres', connectionString });
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
      await this.boss.createQueue(definition.name, { ...policy, policy: definition.policy ?? 'standard' });
      // An existing queue (an older DATA_DIR or database) takes the current policy too.
      await this.boss.updateQueue(definition.name, policy);
    }
    if (!context) return;
    if (this.shape.kind === 'postgres') {
      this.liveness = new JobLiveness(
        this.shape.connectionString,
        [...this.definitions.keys()],
        (name, id) => this.handBack(name, id),
        this.logger,
      );
      await this.liveness.start();
    } else {
      await this.handBackOrphansOfEmbeddedDatabase();
    }
    for (const definition of this.definitions.values()) await this.work(definition, context);
  }

  /**
   * PGlite serves one process: a job still active when it opens was running in a process that died (killed, or
   * the machine stopped). It is handed back now rather than after its heartbeat timeout.
   */
  private async handBackOrphansOfEmbeddedDatabase(): Promise<void> {
    const { rows } = await this.boss
      .getDb()
      .executeSql(`select id::text as id, name from ${PGBOSS_SCHEMA}.job where state = 'active'`);
    for (const row of rows as { id: string; name: string }[]) {
      if (!this.definitions.has(row.name)) continue;
      this.logger.warn({ job: row.name, jobId: row.id }, 'job left running by a stopped process: handing it back');
      await this.handBack(row.name, row.id);
    }
  }

  /**
   * Gives a job whose worker is gone to the next worker at once: the attempt fails (counting as one) and, when
   * attempts remain, the retry is due now instead of after the retry delay.
   */
  private async handBack(name: string, id: string): Promise<void> {
    await this.boss.fail(name, id, { message: 'The worker running this job stopped.' });
    await this.boss.update(name, undefined, { id, startAfter: 0 });
    this.wakeLocalWorkers(name);
  }

  /**
   * The values of `field` in the payloads of jobs that may still run (waiting, retrying or running), e.g. the
   * `analysisUuid`s that still have work queued — what the watchdog compares its runs and videos against.
   */
  async liveJobKeys(field: string): Promise<Set<string>> {
    const { rows } = await this.boss
      .getDb()
      .executeSql(
        `select distinct data->>$1 as key from ${PGBOSS_SCHEMA}.job where state::text = any($2::text[]) and data->>$1 is not null`,
        [field, LIVE_STATES],
      );
    return new Set((rows as { key: string }[]).map((row) => row.key));
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
          log.info({ worker: this.workerId }, 'job started');
          await this.liveness?.claim(job.id);
          try {
            const payload = definition.payload.parse(job.data);
            await definition.handle(context, payload, { id: job.id, isFinalAttempt });
            log.info({ ms: Date.now() - started }, 'job completed');
          } catch (error) {
            log.error({ err: error, ms: Date.now() - started, isFinalAttempt }, 'job failed');
            throw error;
          } finally {
            await this.liveness?.release(job.id);
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
   * Queues many jobs of one kind in one statement (a batch's runs), each with its own singleton key; answers each
   * job's id, or null where a job for the same key was already waiting.
   */
  async sendMany<Payload>(
    definition: JobDefinition<Payload, Context>,
    items: { payload: Payload; singletonKey?: string }[],
  ): Promise<(string | null)[]> {
    if (!this.definitions.has(definition.name)) throw new Error(`Job "${definition.name}" is not registered`);
    if (items.length === 0) return [];
    const jobs = items.map((item) => ({
      id: randomUUID(),
      data: definition.payload.parse(item.payload) as object,
      ...(item.singletonKey ? { singletonKey: item.singletonKey } : {}),
    }));
    const inserted = new Set((await this.boss.insert(definition.name, jobs, { returnId: true })) ?? []);
    this.wakeLocalWorkers(definition.name);
    return jobs.map((job) => (inserted.has(job.id) ? job.id : null));
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
    await this.liveness?.stop();
  }
}
