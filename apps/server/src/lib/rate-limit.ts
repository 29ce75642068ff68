import { tooManyRequests } from './errors.js';

/**
 * Fixed-window attempt counter kept in memory, per key (an account's e-mail, a client address).
 * Each server process counts on its own: in the scaled shape the effective limit is per instance.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Counts one attempt for every key; throws 429 when any of them is over the limit. */
  hit(...keys: string[]): void {
    const now = Date.now();
    if (this.windows.size > 10_000) this.sweep(now);
    for (const key of keys) {
      const window = this.windows.get(key);
      if (!window || window.resetAt <= now) {
        this.windows.set(key, { count: 1, resetAt: now + this.windowMs });
      } else if (++window.count > this.limit) {
        throw tooManyRequests(Math.ceil((window.resetAt - now) / 1000));
      }
    }
  }

  /** Forgets the keys (e.g. after a successful login). */
  reset(...keys: string[]): void {
    for (const key of keys) this.windows.delete(key);
  }

  private sweep(now: number) {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}
