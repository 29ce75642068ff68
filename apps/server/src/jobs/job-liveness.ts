import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';

/** pg-boss's tables live in this schema (its default). */
export const PGBOSS_SCHEMA = 'pgboss';

/** First key of every job lock (the second is the job id's hash), so they never meet another advisory lock. */
const LOCK_NAMESPACE = 140_014;

/** How often a process looks for jobs whose worker died, and how old an active job must be to be looked at. */
export const LIVENESS_SWEEP_MS = 1_000;
const GRACE_SECONDS = 1;

/**
 * Finds the jobs of a dead worker process on PostgreSQL within seconds, instead of pg-boss's heartbeat timeout.
 *
 * While a handler runs, its process holds a session advisory lock keyed by the job id on a connection of its own.
 * PostgreSQL drops a session's locks the moment its process dies (the socket closes: a SIGKILL, an OOM kill, a
 * crash). Every worker process sweeps each second: an active job whose lock it can take has lost its worker; seen so
 * on two sweeps in a row (so a job that just finished, and whose completion is being written, is left alone) it is
 * handed back — failed, and made due at once — and the next idle worker takes it.
 *
 * A worker cut off from the database without its socket closing (a network partition) keeps its session until
 * PostgreSQL's TCP keepalive gives up; pg-boss's heartbeat timeout covers that case (see JobQueue).
 */
export class JobLiveness {
  private client: pg.Client | undefined;
  private connecting: Promise<pg.Client> | undefined;
  private readonly held = new Set<string>();
  /** Jobs whose lock was free on the last sweep, with the start time they had then. */
  private suspects = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;
  private sweeping = false;

  constructor(
    private readonly connectionString: string,
    private readonly queues: string[],
    private readonly handBack: (name: string, id: string) => Promise<void>,
    private readonly logger: FastifyBaseLogger,
  ) {}

  async start(): Promise<void> {
    await this.connection();
    this.timer = setInterval(() => void this.sweep(), LIVENESS_SWEEP_MS);
    this.timer.unref();
  }

  /** The process's lock connection; after a dropped connection, a new one that takes the held locks again. */
  private connection(): Promise<pg.Client> {
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= (async () => {
      const client = new pg.Client({ connectionString: this.connectionString, keepAlive: true });
      client.on('error', (error) => {
        this.logger.warn({ err: error }, 'job liveness connection lost');
        if (this.client === client) this.client = undefined;
      });
      await client.connect();
      for (const id of this.held) {
        await client.query('select pg_try_advisory_lock($1, hashtext($2))', [LOCK_NAMESPACE, id]);
      }
      this.client = client;
      return client;
    })().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  /**
   * Marks a job as running in this live process (until `release`). Never waits: should another job's id hash to
   * the same key (about one chance in 2^32 per pair of running jobs), this one runs unmarked, watched by its
   * heartbeat only.
   */
  async claim(id: string): Promise<void> {
    try {
      const client = await this.connection();
      const { rows } = await client.query<{ locked: boolean }>(
        'select pg_try_advisory_lock($1, hashtext($2)) as locked',
        [LOCK_NAMESPACE, id],
      );
      if (rows[0]?.locked) this.held.add(id);
      else this.logger.warn({ jobId: id }, 'job liveness key in use: this job is watched by its heartbeat only');
    } catch (error) {
      // The job still runs; only a crash of this process would now be noticed by the heartbeat timeout instead.
      this.logger.warn({ err: error, jobId: id }, 'job liveness lock failed');
    }
  }

  async release(id: string): Promise<void> {
    if (!this.held.delete(id)) return;
    try {
      await this.client?.query('select pg_advisory_unlock($1, hashtext($2))', [LOCK_NAMESPACE, id]);
    } catch (error) {
      this.logger.warn({ err: error, jobId: id }, 'job liveness unlock failed');
    }
  }

  /** One look for active jobs whose worker is gone; hands back those seen so twice in a row. */
  async sweep(): Promise<void> {
    if (this.sweeping) return;
    this.sweeping = true;
    try {
      const client = await this.connection();
      const { rows: active } = await client.query<{ id: string; name: string; started: string }>(
        `select id::text as id, name, started_on::text as started from ${PGBOSS_SCHEMA}.job
         where state = 'active' and name = any($1::text[]) and started_on < now() - make_interval(secs => $2)`,
        [this.queues, GRACE_SECONDS],
      );
      const candidates = active.filter((job) => !this.held.has(job.id));
      let free = new Set<string>();
      if (candidates.length > 0) {
        const ids = candidates.map((job) => job.id);
        // Only the listed ids are tried, and every lock taken is let go at once.
        const { rows } = await client.query<{ id: string }>(
          'select id from unnest($2::text[]) as id where pg_try_advisory_lock($1, hashtext(id))',
          [LOCK_NAMESPACE, ids],
        );
        free = new Set(rows.map((row) => row.id));
        if (free.size > 0) {
          await client.query('select pg_advisory_unlock($1, hashtext(id)) from unnest($2::text[]) as id', [
            LOCK_NAMESPACE,
            [...free],
          ]);
        }
      }
      const next = new Map<string, string>();
      for (const job of candidates) {
        if (!free.has(job.id)) continue;
        if (this.suspects.get(job.id) === job.started) {
          this.logger.warn({ job: job.name, jobId: job.id }, 'worker of a running job is gone: handing the job back');
          await this.handBack(job.name, job.id);
        } else next.set(job.id, job.started);
      }
      this.suspects = next;
    } catch (error) {
      this.logger.warn({ err: error }, 'job liveness sweep failed');
    } finally {
      this.sweeping = false;
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    const client = this.client ?? (await this.connecting?.catch(() => undefined));
    this.client = undefined;
    await client?.end().catch(() => {});
  }
}
