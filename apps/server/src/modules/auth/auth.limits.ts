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
  private readonly byAccount: RateLimiter;
  private readonly byAddress: RateLimiter;

  constructor(options: AuthLimitOptions) {
    this.byAccount = new RateLimiter(options.perAccount, options.windowMs);
    this.byAddress = new RateLimiter(options.perAddress, options.windowMs);
  }

  /** Counts one attempt; throws 429 when the account or the address is over its limit. */
  hit(email: string, address: string): void {
    this.byAccount.hit(email.trim().toLowerCase());
    this.byAddress.hit(address);
  }

  /** A successful log-in clears the account's count (not the address's). */
  resetAccount(email: string): void {
    this.byAccount.reset(email.trim().toLowerCase());
  }
}

/** The auth plugin's limiters: created per app instance, so each test app (and each server) counts on its own. */
export class AuthLimits {
  readonly login: ActionLimit;
  readonly mail: ActionLimit;

  constructor(options: Partial<AuthLimitOptions> = {}) {
    const resolved = { ...defaultAuthLimits, ...options };
    this.login = new ActionLimit(resolved);
    this.mail = new ActionLimit(resolved);
  }
}
