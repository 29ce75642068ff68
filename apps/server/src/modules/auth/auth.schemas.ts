import { z } from 'zod';
import { userSchema } from '../users/user.serializer.js';

/** "This field is required." for a missing field; zod's own message for the rest. */
const required = (issue: { input: unknown }) => (issue.input === undefined ? 'This field is required.' : undefined);

const text = (max: number) =>
  z
    .string({ error: required })
    .min(1, 'This field may not be blank.')
    .max(max, `Ensure this field has no more than ${max} characters.`);

/** Long enough for any passphrase, short enough that hashing it is cheap. */
const password = () => text(1024);

export const emailField = () =>
  z
    .string({ error: required })
    .trim()
    .max(254, 'Ensure this field has no more than 254 characters.')
    .pipe(z.email({ error: 'Enter a valid e-mail address.' }));

const name = () => z.string().trim().max(150, 'Ensure this field has no more than 150 characters.');

export const detailSchema = z.object({ detail: z.string() });

export const loginBodySchema = z.object({ email: text(254), password: password() });
export const tokenPairSchema = z.object({ access: z.string(), refresh: z.string() });
export const loginResponseSchema = tokenPairSchema.extend({ user: userSchema });

/** No body at all is fine too (Fastify gives null then): it reads as `{}`. */
export const logoutBodySchema = z.preprocess(
  (body) => body ?? {},
  z.object({ refresh: z.string().max(4096).optional() }),
);

export const registerBodySchema = z.object({
  email: emailField(),
  password1: password(),
  password2: password(),
  first_name: name().optional(),
  last_name: name().optional(),
});

export const emailBodySchema = z.object({ email: emailField() });
export const keyBodySchema = z.object({ key: text(512) });

export const passwordResetConfirmBodySchema = z.object({
  uid: text(64),
  token: text(512),
  new_password1: password(),
  new_password2: password(),
});

export const passwordChangeBodySchema = z.object({
  old_password: password(),
  new_password1: password(),
  new_password2: password(),
});
export const passwordChangeResponseSchema = tokenPairSchema.extend({ detail: z.string() });

/** The spec has the client send `access` too; only `refresh` is used. */
export const refreshBodySchema = z.object({ refresh: text(4096), access: z.string().optional() });
export const verifyBodySchema = z.object({ token: text(4096) });

/**
 * Name changes only. Changing the e-mail address (the login name) needs a verification round trip that is not
 * built yet: a different `email` is refused with a clear message, the same one (a client sending the whole
 * object back) is accepted and ignored.
 */
export const userUpdateBodySchema = z.object({
  first_name: name().optional(),
  last_name: name().optional(),
  email: z.string().trim().max(254).optional(),
});
