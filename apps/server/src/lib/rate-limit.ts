import { createHmac } from 'node:crypto';
import { eq, inArray, lte, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { rateLimits } from '../db/schema.js';
import { HttpError, tooManyRequests } from './errors.js';

/** How often one process deletes expired counters (a cheap indexed delete). */
const SWEEP_EVERY_MS = 60_000;

export interface RateLimitCheck {
  /** Names the limit (e.g. `login:account`); the same key under two limits counts twice. */
  limit: string;
  /** What is counted: an e-mail address, a client address. Never stored in clear. */
  key: string;
  /** Attempts allowed per window. */
  max: number;
}

/**
 * Fixed-window attempt counters kept in the database (`rate_limits`), so every server process sharing the database
 * shares the counts. Each key's window starts with its first attempt and lasts `windowMs`; the database's clock decides,
 * so processes with drifting clocks still agree.
 */
export class RateLimiter {
  private lastSweep = 0;

  constructor(
    private readonly db: Database,
    /** Keys the HMAC of the stored keys, so the table holds no e-mail address an attacker could read back. */
    private readonly secret: string,
    private readonly windowMs: number,
  ) {}

  /** The stored form of a key: HMAC-SHA-256 of the limit's name and the key. */
  storedKey(limit: string, key: string): string {
    return createHmac('sha256', this.secret).update(`rate-limit\0${limit}\0${key}`).digest('base64url');
  }

  /**
   * Counts one attempt for each check in one atomic statement; throws 429 (with the seconds until the window ends) when
   * any of them is now over its limit. Attempts past the limit still count, so hammering does not end the wait early.
   */
  async hit(...checks: RateLimitCheck[]): Promise<void> {
    const retryAfter = await this.count(...checks);
    if (retryAfter > 0) throw tooManyRequests(retryAfter);
  }

  /** Counts one attempt for each check, as `hit` does; answers the seconds to wait (0 when every check is within). */
  async count(...checks: RateLimitCheck[]): Promise<number> {
    if (checks.length === 0) return 0;
    await this.maybeSweep();
    const window = `${Math.max(1, Math.round(this.windowMs))} milliseconds`;
    const expired = sql`${rateLimits.expiresAt} <= now()`;
    // One row per key: a new key starts a window; an expired window starts again at 1; otherwise the count goes up.
    // In the SET, the table's columns are the stored row's. ON CONFLICT … DO UPDATE locks the row, so concurrent
    // attempts from several processes all count.
    const rows = await this.db
      .insert(rateLimits)
      .values(
        checks.map((check) => ({
          key: this.storedKey(check.limit, check.key),
          windowStart: sql`now()`,
          expiresAt: sql`now() + ${window}::interval`,
          count: 1,
        })),
      )
      .onConflictDoUpdate({
        target: rateLimits.key,
        set: {
          windowStart: sql`CASE WHEN ${expired} THEN now() ELSE ${rateLimits.windowStart} END`,
          expiresAt: sql`CASE WHEN ${expired} THEN excluded.expires_at ELSE ${rateLimits.expiresAt} END`,
          count: sql`CASE WHEN ${expired} THEN 1 ELSE ${rateLimits.count} + 1 END`,
        },
      })
      .returning({
        key: rateLimits.key,
        count: rateLimits.count,
        retryAfter: sql<number>`ceil(extract(epoch FROM (${rateLimits.expiresAt} - now())))::int`,
      });
    const byKey = new Map(rows.map((row) => [row.key, row]));
    let retryAfter = 0;
    for (const check of checks) {
      const row = byKey.get(this.storedKey(check.limit, check.key));
      if (row && Number(row.count) > check.max) retryAfter = Math.max(retryAfter, Number(row.retryAfter), 1);
    }
    return retryAfter;
  }

  /** Forgets the keys' counts (e.g. an account's after a successful log-in). */
  async reset(limit: string, ...keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    const stored = keys.map((key) => this.storedKey(limit, key));
    await this.db.delete(rateLimits).where(inArray(rateLimits.key, stored));
  }

  /** Deletes every expired counter (of any limit). Runs at most once a minute per process from `hit`. */
  async sweep(): Promise<number> {
    this.lastSweep = Date.now();
    const deleted = await this.db
      .delete(rateLimits)
      .where(lte(rateLimits.expiresAt, sql`now()`))
      .returning({ key: rateLimits.key });
    return deleted.length;
  }

  private async maybeSweep() {
    if (Date.now() - this.lastSweep >= SWEEP_EVERY_MS) await this.sweep();
  }
}

export interface SlowDownOptions {
  /** Failures allowed without any wait. */
  freeFailures: number;
  /** The wait after the first failure past the free ones; each further failure doubles it. */
  firstDelayMs: number;
  /** The longest wait. */
  maxDelayMs: number;
  /** A key's failures are forgotten this long after its last attempt. */
  forgetMs: number;
}

/**
 * A progressive slow-down kept in the same table (and under the same HMAC keys) as the fixed windows: a row counts a
 * key's consecutive failures (`count`) and when the last attempt started (`window_start`); past `freeFailures`, the next
 * attempt must wait `firstDelayMs · 2^(count − freeFailures)`, at most `maxDelayMs`. Never a hard block: whoever waits
 * gets a try. The row expires (and the count starts again) `forgetMs` after the last attempt.
 */
export class SlowDown {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly db: Database,
    private readonly options: SlowDownOptions,
  ) {}

  /** The wait a row's count calls for, as an SQL interval. */
  private delay(count: SQL | typeof rateLimits.count) {
    const { freeFailures, firstDelayMs, maxDelayMs } = this.options;
    return sql`(CASE WHEN ${count} < ${freeFailures} THEN 0 ELSE least(${maxDelayMs}::float8, ${firstDelayMs}::float8 * power(2::float8, least(${count} - ${freeFailures}, 40)::float8)) END) * interval '1 millisecond'`;
  }

  /**
   * Starts an attempt: counts it as a failure up front (a success calls `reset`), in one atomic statement so that
   * concurrent attempts cannot share one turn. Throws 429 with `Retry-After` (and `message(seconds)`) while the key
   * must still wait; a refused attempt changes nothing.
   */
  async claim(limit: string, key: string, message: (seconds: number) => string): Promise<void> {
    const stored = this.limiter.storedKey(limit, key);
    const forget = `${Math.max(1, Math.round(this.options.forgetMs))} milliseconds`;
    const expired = sql`${rateLimits.expiresAt} <= now()`;
    const claimed = await this.db
      .insert(rateLimits)
      .values({ key: stored, windowStart: sql`now()`, expiresAt: sql`now() + ${forget}::interval`, count: 1 })
      .onConflictDoUpdate({
        target: rateLimits.key,
        set: {
          windowStart: sql`now()`,
          expiresAt: sql`excluded.expires_at`,
          count: sql`CASE WHEN ${expired} THEN 1 ELSE ${rateLimits.count} + 1 END`,
        },
        setWhere: sql`${expired} OR ${rateLimits.windowStart} + ${this.delay(rateLimits.count)} <= now()`,
      })
      .returning({ key: rateLimits.key });
    if (claimed.length > 0) return;
    const [row] = await this.db
      .select({
        wait: sql<number>`ceil(extract(epoch FROM (${rateLimits.windowStart} + ${this.delay(rateLimits.count)} - now())))::int`,
      })
      .from(rateLimits)
      .where(eq(rateLimits.key, stored));
    const seconds = Math.max(1, Number(row?.wait ?? 1));
    throw new HttpError(429, message(seconds), { 'retry-after': String(seconds) });
  }

  /** Forgets the key's failures (after a successful attempt). */
  async reset(limit: string, key: string): Promise<void> {
    await this.limiter.reset(limit, key);
  }
}
