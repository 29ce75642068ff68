import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokenStillValid } from './access.js';
import { TokenService, VERIFIED_TOKEN_CACHE_MS } from './tokens.js';

describe('TokenService.verify', () => {
  afterEach(() => vi.useRealTimers());

  it('remembers a verified token, but never past its expiry nor for another type', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-01-01T00:00:00Z') });
    const tokens = new TokenService('a secret long enough for HS256 tests');
    const stream = await tokens.signStream(7, 'video-1', 5);
    expect(await tokens.verify(stream, 'stream')).toMatchObject({ sub: '7', typ: 'stream', res: 'video-1' });
    // From the cache now: still the right answer for its type, and null for any other.
    expect(await tokens.verify(stream, 'stream')).toMatchObject({ sub: '7' });
    expect(await tokens.verify(stream, 'access')).toBeNull();
    vi.setSystemTime(new Date('2026-01-01T00:00:05Z'));
    expect(await tokens.verify(stream, 'stream')).toBeNull();
  });

  it('checks the signature again after the cache interval, and never caches a bad token', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-01-01T00:00:00Z') });
    const tokens = new TokenService('a secret long enough for HS256 tests');
    const access = await tokens.signAccess(3);
    expect(await tokens.verify(access, 'access')).toMatchObject({ sub: '3' });
    const [head, body, signature] = access.split('.');
    const forged = `${head}.${body}.${signature!.slice(0, -2)}${signature!.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(await tokens.verify(forged, 'access')).toBeNull();
    expect(await tokens.verify(forged, 'access')).toBeNull();
    // Another server's secret never accepts it, cache or not.
    expect(await new TokenService('another secret long enough for HS256').verify(access, 'access')).toBeNull();
    vi.setSystemTime(Date.now() + VERIFIED_TOKEN_CACHE_MS + 1000);
    expect(await tokens.verify(access, 'access')).toMatchObject({ sub: '3' });
  });
});

describe('tokenStillValid', () => {
  afterEach(() => vi.useRealTimers());

  it('compares issue times in milliseconds, and whole seconds for a token without iat_ms', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-01-01T00:00:00.200Z') });
    const tokens = new TokenService('a secret long enough for HS256 tests');
    const claims = (await tokens.verify(await tokens.signAccess(3), 'access'))!;
    expect(claims).toMatchObject({ iat: Date.parse('2026-01-01T00:00:00Z') / 1000, iat_ms: Date.now() });
    const changed = (at: string) => ({ passwordChangedAt: new Date(at) });
    expect(tokenStillValid({ passwordChangedAt: null }, claims)).toBe(true);
    expect(tokenStillValid(changed('2026-01-01T00:00:00.100Z'), claims)).toBe(true);
    expect(tokenStillValid(changed('2026-01-01T00:00:00.200Z'), claims)).toBe(true);
    // Later in the same second: the token was issued before the change.
    expect(tokenStillValid(changed('2026-01-01T00:00:00.201Z'), claims)).toBe(false);
    const { iat_ms: _, ...secondsOnly } = claims;
    expect(tokenStillValid(changed('2026-01-01T00:00:00.900Z'), secondsOnly)).toBe(true);
    expect(tokenStillValid(changed('2026-01-01T00:00:01.000Z'), secondsOnly)).toBe(false);
  });
});
