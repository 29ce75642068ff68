import type { Database } from '../../db/client.js';
import { RateLimiter } from '../../lib/rate-limit.js';

export interface AuthLimitOptions {
  /** Attempts per e-mail address (the account) per window. */
  perAccount: number;
  /**
   * Attempts per client address per window. Higher than per account: a whole lab may sit behind one
   * address, while guessing many accounts' passwords from one address is still capped.
   */
  perAddress: number;
  windowMs: number;
}

export const defaultAuthLimits: AuthLimitOptions = { perAccount: 10, perAddress: 100, windowMs: 15 * 60 * 1000 };

/** One pair of counters for a guarded action (log-in, sending a reset or verification e-mail). */
class ActionLimit {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly name: 'login' | 'mail',
    private readonly options: AuthLimitOptions,
  ) {}

  /** Counts one attempt; throws 429 when the account or the address is over its limit. */
  async hit(email: string, address: string): Promise<void> {
    await this.limiter.hit(
      { limit: `${this.name}:account`, key: normalise(email), max: this.options.perAccount },
      { limit: `${this.name}:address`, key: address, max: this.options.perAddress },
    );
  }

  /** A successful log-in clears the account's count (not the address's). */
  async resetAccount(email: string): Promise<void> {
    await this.limiter.reset(`${this.name}:account`, normalise(email));
  }
}

const normalise = (email: string) => email.trim().toLowerCase();

/**
 * The auth plugin's limiters. Their counters live in the database (`rate_limits`), so every server process on the
 * same database shares them; the options are per instance (tests give small ones).
 */
export class AuthLimits {
  readonly login: ActionLimit;
  readonly mail: ActionLimit;
  readonly limiter: RateLimiter;

  constructor(db: Database, secret: string, options: Partial<AuthLimitOptions> = {}) {
    const resolved = { ...defaultAuthLimits, ...options };
    this.limiter = new RateLimiter(db, secret, resolved.windowMs);
    this.login = new ActionLimit(this.limiter, 'login', resolved);
    this.mail = new ActionLimit(this.limiter, 'mail', resolved);
  }
}
