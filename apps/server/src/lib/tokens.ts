import { randomUUID } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';

export const ACCESS_TOKEN_SECONDS = 5 * 60;
export const REFRESH_TOKEN_SECONDS = 7 * 24 * 60 * 60;
/** A `<video>` element re-requests ranges while it plays; one hour covers a long viewing session. */
export const STREAM_TOKEN_SECONDS = 60 * 60;

type TokenType = 'access' | 'refresh' | 'stream' | 'file';

export interface TokenClaims {
  sub: string;
  typ: TokenType;
  jti?: string;
  /** What a stream/file token grants: a video uuid or a storage key. */
  res?: string;
  iat: number;
  /** The issue time in milliseconds (every token signed since this claim exists; older ones have only `iat`). */
  iat_ms?: number;
  exp: number;
}

/** How long a verified token's claims are reused without checking its signature again (never past its expiry). */
export const VERIFIED_TOKEN_CACHE_MS = 60_000;
const VERIFIED_TOKEN_CACHE_SIZE = 10_000;

/**
 * Signs and verifies every token the server hands out (HS256 with JWT_SECRET). Verified tokens are remembered for up
 * to a minute (and never past their expiry): a token's claims cannot change, and checking an HMAC signature through
 * WebCrypto was the largest single cost of an authenticated request under load. Whether the token's user still
 * exists and changed no password since is checked on every request, against the database.
 */
export class TokenService {
  private readonly key: Uint8Array;
  private readonly verified = new Map<string, { claims: TokenClaims; until: number }>();

  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
  }

  /**
   * Every token carries `iat_ms`, its issue time in milliseconds, beside the standard whole-second `iat`: a password
   * change ends the tokens issued before it to the millisecond (`tokenStillValid`). `issuedAtMs` may lie in the
   * past (file tokens, whose issue time is the start of their URL's window); `expiresAt` is in epoch seconds.
   */
  private sign(
    typ: TokenType,
    subject: string,
    expiresAt: number,
    extra: { jti?: string; res?: string; issuedAtMs?: number } = {},
  ) {
    const issuedAtMs = extra.issuedAtMs ?? Date.now();
    const jwt = new SignJWT({ typ, iat_ms: issuedAtMs, ...(extra.res ? { res: extra.res } : {}) })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(subject)
      .setIssuedAt(Math.floor(issuedAtMs / 1000))
      .setExpirationTime(expiresAt);
    if (extra.jti) jwt.setJti(extra.jti);
    return jwt.sign(this.key);
  }

  private static inSeconds(seconds: number) {
    return Math.floor(Date.now() / 1000) + seconds;
  }

  signAccess(userId: number, seconds = ACCESS_TOKEN_SECONDS) {
    return this.sign('access', String(userId), TokenService.inSeconds(seconds), { jti: randomUUID() });
  }

  signRefresh(userId: number, jti: string) {
    return this.sign('refresh', String(userId), TokenService.inSeconds(REFRESH_TOKEN_SECONDS), { jti });
  }

  /** Lets a `<video>` element (which cannot send headers) stream one video as one user. */
  signStream(userId: number, videoUuid: string, seconds = STREAM_TOKEN_SECONDS) {
    return this.sign('stream', String(userId), TokenService.inSeconds(seconds), { res: videoUuid });
  }

  /**
   * Lets one user load one stored file by URL (an `<img>`, a download): the token names the user and the storage
   * key; `/api/files/{token}` checks on every request that the user may still read the key's project. The
   * lifetimes (and the issue time, which a stable image URL takes from the start of its window) are decided by
   * modules/files/file-urls.ts.
   */
  signFile(userId: number, key: string, times: { issuedAtMs: number; expiresAt: number }) {
    return this.sign('file', String(userId), times.expiresAt, { res: key, issuedAtMs: times.issuedAtMs });
  }

  /** Returns the claims when the token is valid and of the expected type, else null. */
  async verify(token: string, typ: TokenType): Promise<TokenClaims | null> {
    const now = Date.now();
    const cached = this.verified.get(token);
    if (cached) {
      // jose's rule: a token is expired once its `exp` (whole seconds) is not after the current whole second.
      if (now < cached.until && cached.claims.exp > Math.floor(now / 1000)) {
        return cached.claims.typ === typ ? cached.claims : null;
      }
      this.verified.delete(token);
    }
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      if (typeof payload.sub !== 'string' || typeof payload.exp !== 'number') return null;
      const claims = payload as unknown as TokenClaims;
      this.remember(token, claims, now);
      return claims.typ === typ ? claims : null;
    } catch (error) {
      if (error instanceof joseErrors.JOSEError) return null;
      throw error;
    }
  }

  private remember(token: string, claims: TokenClaims, now: number) {
    if (this.verified.size >= VERIFIED_TOKEN_CACHE_SIZE) {
      // Oldest first (a Map keeps insertion order); expired entries go too.
      for (const [key, entry] of this.verified) {
        if (this.verified.size < VERIFIED_TOKEN_CACHE_SIZE && entry.until > now) break;
        this.verified.delete(key);
      }
    }
    this.verified.set(token, { claims, until: Math.min(now + VERIFIED_TOKEN_CACHE_MS, claims.exp * 1000) });
  }
}
