import type { Database } from '../../db/client.js';
import { HttpError } from '../../lib/errors.js';
import { RateLimiter, SlowDown, type SlowDownOptions } from '../../lib/rate-limit.js';

export interface AuthLimitOptions {
  /** E-mails anyone can trigger (reset, resend, sign-up) per e-mail address per window. */
  perAccount: number;
  /**
   * Attempts per client address per window (log-ins; e-mails). Higher than per account: a whole lab may sit behind
   * one address, while guessing many accounts' passwords from one address is still capped.
   */
  perAddress: number;
  /** Sign-ups per client address per window (a class signing up together fits). */
  registrationsPerAddress: number;
  /** Log-in attempts of one account from one known client per window before that client counts as unknown. */
  perKnownClient: number;
  windowMs: number;
  /** The per-account slow-down of log-ins from clients the account has not signed in from. */
  slowDown: SlowDownOptions;
}

export const defaultAuthLimits: AuthLimitOptions = {
  perAccount: 10,
  perAddress: 100,
  registrationsPerAddress: 30,
  perKnownClient: 10,
  windowMs: 15 * 60 * 1000,
  slowDown: { freeFailures: 5, firstDelayMs: 1000, maxDelayMs: 60_000, forgetMs: 15 * 60 * 1000 },
};

const normalise = (email: string) => email.trim().toLowerCase();

const accountWait = (seconds: number) =>
  `Too many failed log-ins for this account. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`;
const signUpWait = (seconds: number) => {
  const minutes = Math.ceil(seconds / 60);
  return `Too many sign-ups from your network. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
};

/**
 * The auth module's limits. Their counters live in the database (`rate_limits`), so every server process on the same
 * database shares them; the options are per instance (tests give small ones).
 */
export class AuthLimits {
  readonly limiter: RateLimiter;
  readonly options: AuthLimitOptions;
  private readonly slowDown: SlowDown;

  constructor(db: Database, secret: string, options: Partial<AuthLimitOptions> = {}) {
    this.options = { ...defaultAuthLimits, ...options };
    this.limiter = new RateLimiter(db, secret, this.options.windowMs);
    this.slowDown = new SlowDown(this.limiter, db, this.options.slowDown);
  }

  /** Counts a log-in attempt from a client address; 429 past `perAddress` (one address spraying many accounts). */
  async loginFromAddress(address: string): Promise<void> {
    await this.limiter.hit({ limit: 'login:address', key: address, max: this.options.perAddress });
  }

  /**
   * Counts a log-in attempt of `email` from a known client; false once that client has used up its attempts for the
   * window (it is then treated like any other client), so a stolen known-client cookie is worth little.
   */
  async knownClientAttempt(clientId: string, email: string): Promise<boolean> {
    const key = `${clientId}\0${normalise(email)}`;
    return (await this.limiter.count({ limit: 'login:client', key, max: this.options.perKnownClient })) === 0;
  }

  /** Starts a log-in attempt of `email` from an unknown client: 429 with Retry-After while the account must wait. */
  async claimAccountAttempt(email: string): Promise<void> {
    await this.slowDown.claim('login:slow', normalise(email), accountWait);
  }

  /**
   * A successful log-in from an unknown client forgets the account's failures (it was the holder, or the password is
   * out anyway); one from a known client forgets that client's count only, so a stranger's failures keep their wait.
   */
  async loginSucceeded(email: string, knownClientId: string | undefined): Promise<void> {
    if (knownClientId) await this.limiter.reset('login:client', `${knownClientId}\0${normalise(email)}`);
    else await this.slowDown.reset('login:slow', normalise(email));
  }

  /** Counts an e-mail anyone can trigger (password reset, resend verification) per address and per client. */
  async mail(email: string, address: string): Promise<void> {
    await this.limiter.hit(
      { limit: 'mail:account', key: normalise(email), max: this.options.perAccount },
      { limit: 'mail:address', key: address, max: this.options.perAddress },
    );
  }

  /**
   * Counts a sign-up per client address (its own limit and message) and as an e-mail to the address (so nobody can
   * flood one holder with "someone tried to sign up" e-mails).
   */
  async registration(email: string, address: string): Promise<void> {
    const wait = await this.limiter.count({
      limit: 'register:address',
      key: address,
      max: this.options.registrationsPerAddress,
    });
    if (wait > 0) throw new HttpError(429, signUpWait(wait), { 'retry-after': String(wait) });
    await this.limiter.hit({ limit: 'mail:account', key: normalise(email), max: this.options.perAccount });
  }
}
