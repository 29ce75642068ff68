import { createHmac } from 'node:crypto';
import { inArray, lte, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { rateLimits } from '../db/schema.js';
import { tooManyRequests } from './errors.js';

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
    if (checks.length === 0) return;
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
    if (retryAfter > 0) throw tooManyRequests(retryAfter);
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
