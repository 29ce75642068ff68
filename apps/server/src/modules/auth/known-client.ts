import { createHmac, randomBytes } from 'node:crypto';

/**
 * "Known client" cookies: a browser that has signed in to an account before keeps that account's log-ins free of
 * the per-account slow-down, so failures elsewhere (an attacker guessing) cannot keep the real user out.
 *
 * The cookie holds a random client id and, per account signed in from it, a tag: an HMAC under the server's secret of
 * the client id, the user id and the time of the last password change. Tags cannot be made without the secret, are
 * worth nothing for another browser's id, name no account, and die with a password change or reset.
 */
export const KNOWN_CLIENT_COOKIE = 'known_client';
/** Sent to the log-in endpoint only. */
const COOKIE_PATH = '/api/auth/login/';
const MAX_AGE_SECONDS = 180 * 24 * 60 * 60;
/** Accounts remembered per browser (a shared lab computer); the oldest drop off. */
const MAX_ACCOUNTS = 10;
const ID = /^[A-Za-z0-9_-]{22}$/;

export interface KnownClient {
  id: string;
  tags: string[];
}

interface AccountRef {
  id: number;
  passwordChangedAt: Date | null;
}

/** The cookie's value from a Cookie header, when it is well-formed. */
export function readKnownClient(cookieHeader: string | undefined): KnownClient | undefined {
  if (!cookieHeader) return undefined;
  const value = cookieHeader
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${KNOWN_CLIENT_COOKIE}=`))
    ?.slice(KNOWN_CLIENT_COOKIE.length + 1);
  const [id, ...tags] = (value ?? '').split('.');
  if (!id || !ID.test(id) || tags.length > MAX_ACCOUNTS || !tags.every((tag) => ID.test(tag))) return undefined;
  return { id, tags };
}

function tag(secret: string, clientId: string, user: AccountRef): string {
  return createHmac('sha256', secret)
    .update(`known-client\0${clientId}\0${user.id}\0${user.passwordChangedAt?.getTime() ?? 0}`)
    .digest('base64url')
    .slice(0, 22);
}

/** Whether this client has signed in to this account (since its last password change). */
export function isKnownClientOf(secret: string, client: KnownClient | undefined, user: AccountRef): boolean {
  return !!client && client.tags.includes(tag(secret, client.id, user));
}

/** The cookie value after a successful log-in: the account's tag first, a new client id if there was none. */
export function rememberClient(secret: string, client: KnownClient | undefined, user: AccountRef): string {
  const id = client?.id ?? randomBytes(16).toString('base64url');
  const own = tag(secret, id, user);
  const tags = [own, ...(client?.tags ?? []).filter((t) => t !== own)].slice(0, MAX_ACCOUNTS);
  return [id, ...tags].join('.');
}

/** The Set-Cookie header: HttpOnly, SameSite=Strict, sent back to the log-in endpoint only; Secure over https. */
export function knownClientSetCookie(value: string, publicUrl: string): string {
  const secure = publicUrl.startsWith('https:') ? '; Secure' : '';
  return `${KNOWN_CLIENT_COOKIE}=${value}; Path=${COOKIE_PATH}; Max-Age=${MAX_AGE_SECONDS}; HttpOnly; SameSite=Strict${secure}`;
}
