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

  private sign(typ: TokenType, subject: string, seconds: number, extra: { jti?: string; res?: string } = {}) {
    const jwt = new SignJWT({ typ, ...(extra.res ? { res: extra.res } : {}) })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(subject)
      .setIssuedAt()
      .setExpirationTime(`${seconds}s`);
    if (extra.jti) jwt.setJti(extra.jti);
    return jwt.sign(this.key);
  }

  signAccess(userId: number) {
    return this.sign('access', String(userId), ACCESS_TOKEN_SECONDS, { jti: randomUUID() });
  }

  signRefresh(userId: number, jti: string) {
    return this.sign('refresh', String(userId), REFRESH_TOKEN_SECONDS, { jti });
  }

  /** Lets a `<video>` element (which cannot send headers) stream one video as one user. */
  signStream(userId: number, videoUuid: string, seconds = STREAM_TOKEN_SECONDS) {
    return this.sign('stream', String(userId), seconds, { res: videoUuid });
  }

  /**
   * Lets an `<img>` load one stored file (thumbnail, logo, avatar). The expiry is rounded up to the next
   * whole day, so the same file gets the same URL all day long and the browser's cache keeps working.
   */
  signFile(key: string, minimumSeconds: number) {
    const day = 24 * 60 * 60;
    const exp = Math.ceil((Date.now() / 1000 + minimumSeconds) / day) * day;
    return new SignJWT({ typ: 'file', res: key })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('file')
      .setExpirationTime(exp)
      .sign(this.key);
  }

  /** A file URL token that expires exactly `seconds` from now (downloads that report their expiry). */
  async signDownload(key: string, seconds: number): Promise<{ token: string; expiresAt: Date }> {
    const exp = Math.floor(Date.now() / 1000) + seconds;
    const token = await new SignJWT({ typ: 'file', res: key })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('file')
      .setExpirationTime(exp)
      .sign(this.key);
    return { token, expiresAt: new Date(exp * 1000) };
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
