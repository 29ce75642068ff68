import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database } from '../db/client.js';
import { preparedOnce } from '../db/prepared.js';
import { users } from '../db/schema.js';
import { tokenStillValid } from './access.js';
import { unauthorized } from './errors.js';
import type { TokenClaims } from './tokens.js';

export type UserRow = typeof users.$inferSelect;

/** Reads the bearer token, if any. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token : undefined;
}

const userById = (db: Database) =>
  db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .limit(1)
    .prepare('token_user');

/**
 * The user a verified token speaks for: null when the user is gone or changed their password after the token was
 * issued. Every token-authenticated entry (bearer, stream URLs, tus uploads) goes through this or the project-scope
 * query, which applies the same `tokenStillValid`.
 */
export async function tokenUser(db: Database, claims: TokenClaims): Promise<UserRow | null> {
  const id = Number(claims.sub);
  // Tokens from before file URLs named their user carry `sub: "file"`: no user.
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  const [user] = await preparedOnce(db, 'token user', userById).execute({ id });
  if (!user || !tokenStillValid(user, claims)) return null;
  return user;
}

/**
 * `onRequest: app.authenticate` makes a route require a valid access token and sets `request.user`.
 * A token issued before the last password change no longer counts. On a project-scoped route (`config.access`) the
 * user is read by the project-scope hook together with their membership and the project, in one query: this hook
 * then only checks the token and leaves its claims in `request.accessClaims`.
 */
export function registerAuthentication(app: FastifyInstance) {
  app.decorateRequest('user', null);
  app.decorateRequest('accessClaims', null);
  app.decorate('authenticate', async (request: FastifyRequest) => {
    const token = bearerToken(request);
    if (!token) throw unauthorized();
    const claims = await app.ctx.tokens.verify(token, 'access');
    if (!claims) throw unauthorized('Given token not valid for any token type');
    request.accessClaims = claims;
    if (request.routeOptions.config.access !== undefined) return;
    const [user] = await preparedOnce(app.ctx.db, 'token user', userById).execute({ id: Number(claims.sub) });
    if (!user) throw unauthorized('User not found.');
    if (!tokenStillValid(user, claims)) throw unauthorized('Given token not valid for any token type');
    request.user = user;
  });
}

/** The signed-in user of a route guarded by `app.authenticate`. */
export function currentUser(request: FastifyRequest): UserRow {
  if (!request.user) throw unauthorized();
  return request.user;
}

declare module 'fastify' {
  interface FastifyInstance {
    authenticate: (request: FastifyRequest) => Promise<void>;
  }
  interface FastifyRequest {
    user: UserRow | null;
    /** The verified access token's claims, set by `app.authenticate`. */
    accessClaims: TokenClaims | null;
  }
}
