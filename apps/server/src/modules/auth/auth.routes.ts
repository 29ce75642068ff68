import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../lib/authenticate.js';
import { serializeUser, userSchema } from '../users/user.serializer.js';
import { updateProfile } from '../users/user.service.js';
import { type AuthLimitOptions, AuthLimits } from './auth.limits.js';
import {
  detailSchema,
  emailBodySchema,
  keyBodySchema,
  loginBodySchema,
  loginResponseSchema,
  logoutBodySchema,
  passwordChangeBodySchema,
  passwordChangeResponseSchema,
  passwordResetConfirmBodySchema,
  refreshBodySchema,
  registerBodySchema,
  tokenPairSchema,
  userUpdateBodySchema,
  verifyBodySchema,
} from './auth.schemas.js';
import {
  changePassword,
  confirmPasswordReset,
  login,
  register,
  requestPasswordReset,
  resendVerification,
  revokeRefreshToken,
  rotateRefreshToken,
  verifyAccessToken,
  verifyEmail,
} from './auth.service.js';
import { knownClientSetCookie, readKnownClient } from './known-client.js';

export interface AuthRoutesOptions {
  /** Rate limits of log-in, sign-up and the e-mails anyone can trigger (reset, resend); defaults from the config. */
  limits?: Partial<AuthLimitOptions>;
}

const tags = ['auth'];
/** The same answer for a new address and one that has an account: the e-mail says which. */
export const REGISTERED = 'Check your e-mail to finish signing up.';
const open = { tags, security: [] };

export default async function authRoutes(fastify: FastifyInstance, options: AuthRoutesOptions = {}) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const limits = new AuthLimits(ctx.db, ctx.config.jwtSecret, {
    registrationsPerAddress: ctx.config.registrationsPerAddress,
    ...options.limits,
  });

  app.post(
    '/auth/login/',
    {
      schema: {
        ...open,
        summary:
          'Log in with e-mail and password; answers a JWT pair and the user. Failures slow the account down ' +
          '(429 with Retry-After), except from a browser that signed in to it before (the known_client cookie)',
        body: loginBodySchema,
        response: { 200: loginResponseSchema },
      },
    },
    async (request, reply) => {
      const { email, password } = request.body;
      const client = readKnownClient(request.headers.cookie);
      const { user, tokens, knownClient } = await login(ctx, limits, { email, password, address: request.ip, client });
      reply.header('set-cookie', knownClientSetCookie(knownClient, ctx.config.publicUrl));
      return { ...tokens, user: await serializeUser(ctx, user) };
    },
  );

  const logoutResponse = { 200: detailSchema };
  app.get(
    '/auth/logout/',
    { schema: { ...open, summary: 'Log out (the client drops its tokens)', response: logoutResponse } },
    async () => ({ detail: 'Successfully logged out.' }),
  );
  // Clients often send `Content-Type: application/json` with no body to log out: accept that here only.
  await app.register(async (scope) => {
    const parseJson = scope.getDefaultJsonParser('error', 'error');
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      if (typeof body === 'string' && body.trim() === '') return done(null, null);
      parseJson(request, body as string, done);
    });
    scope.withTypeProvider<ZodTypeProvider>().post(
      '/auth/logout/',
      {
        schema: {
          ...open,
          summary: 'Log out; a `refresh` token in the body is revoked. Always 200',
          body: logoutBodySchema,
          response: logoutResponse,
        },
      },
      async (request) => {
        const { refresh } = request.body;
        if (refresh) await revokeRefreshToken(ctx, refresh);
        return { detail: 'Successfully logged out.' };
      },
    );
  });

  app.post(
    '/auth/register/',
    {
      schema: {
        ...open,
        summary:
          'Sign up; 201 whether or not the address has an account. A new account gets a verification e-mail ' +
          '(link to /auth/confirm-verification/{key}); an existing one’s holder is told instead',
        body: registerBodySchema,
        response: { 201: detailSchema },
      },
    },
    async (request, reply) => {
      await register(ctx, limits, request.body, request.ip);
      return reply.status(201).send({ detail: REGISTERED });
    },
  );

  app.post(
    '/auth/register/resend-email/',
    {
      schema: {
        ...open,
        summary: 'Send the verification e-mail again (200 whether or not such an unverified account exists)',
        body: emailBodySchema,
        response: { 200: detailSchema },
      },
    },
    async (request) => {
      await resendVerification(ctx, limits, request.body.email, request.ip);
      return { detail: 'If an unverified account uses this address, a new verification e-mail is on its way.' };
    },
  );

  const verifySchema = {
    ...open,
    summary: 'Verify an e-mail address with the key from the verification link',
    body: keyBodySchema,
    response: { 200: detailSchema },
  };
  const verifyHandler = async (request: { body: { key: string } }) => {
    await verifyEmail(ctx, request.body.key);
    return { detail: 'ok' };
  };
  app.post('/auth/register/verify-email/', { schema: verifySchema }, verifyHandler);
  app.post('/auth/account-confirm-email/', { schema: verifySchema }, verifyHandler);

  app.post(
    '/auth/password/reset/',
    {
      schema: {
        ...open,
        summary: 'E-mail a password reset link (200 whether or not the account exists)',
        body: emailBodySchema,
        response: { 200: detailSchema },
      },
    },
    async (request) => {
      await requestPasswordReset(ctx, limits, request.body.email, request.ip);
      return { detail: 'If an account uses this address, a password reset e-mail has been sent.' };
    },
  );

  app.post(
    '/auth/password/reset/confirm/',
    {
      schema: {
        ...open,
        summary: 'Set a new password with the uid and token of the reset link (single use; ends every session)',
        body: passwordResetConfirmBodySchema,
        response: { 200: detailSchema },
      },
    },
    async (request) => {
      await confirmPasswordReset(ctx, request.body);
      return { detail: 'Password has been reset with the new password.' };
    },
  );

  app.post(
    '/auth/password/change/',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: 'Change the password; other sessions end and a fresh JWT pair keeps this one signed in',
        body: passwordChangeBodySchema,
        response: { 200: passwordChangeResponseSchema },
      },
    },
    async (request) => {
      const tokens = await changePassword(ctx, currentUser(request), request.body);
      return { detail: 'New password has been saved.', ...tokens };
    },
  );

  app.post(
    '/auth/token/refresh/',
    {
      schema: {
        ...open,
        summary: 'Exchange a refresh token for a new pair; the old refresh token stops working',
        body: refreshBodySchema,
        response: { 200: tokenPairSchema },
      },
    },
    async (request) => rotateRefreshToken(ctx, request.body.refresh),
  );

  app.post(
    '/auth/token/verify/',
    {
      schema: {
        ...open,
        summary: '200 when the token is a valid access token, else 401',
        body: verifyBodySchema,
        response: { 200: z.object({}) },
      },
    },
    async (request) => {
      await verifyAccessToken(ctx, request.body.token);
      return {};
    },
  );

  app.get(
    '/auth/user/',
    { onRequest: app.authenticate, schema: { tags, summary: 'The signed-in user', response: { 200: userSchema } } },
    async (request) => serializeUser(ctx, currentUser(request)),
  );
  for (const method of ['PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: '/auth/user/',
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: 'Update the signed-in user’s names (the e-mail address cannot be changed here)',
        body: userUpdateBodySchema,
        response: { 200: userSchema },
      },
      handler: async (request) => serializeUser(ctx, await updateProfile(ctx, currentUser(request), request.body)),
    });
  }
}
