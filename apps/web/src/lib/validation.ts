import { ApiError } from './api-client';

export type FieldErrors = Record<string, string[] | undefined>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function validateEmail(value: string): string | null {
  if (!value.trim()) return 'Enter your e-mail address.';
  if (!EMAIL.test(value.trim())) return 'Enter a valid e-mail address.';
  return null;
}

export const MIN_PASSWORD = 8;

export function validateNewPassword(password: string, confirm: string): { password?: string; confirm?: string } {
  const out: { password?: string; confirm?: string } = {};
  if (password.length < MIN_PASSWORD) out.password = `Use at least ${MIN_PASSWORD} characters.`;
  if (confirm !== password) out.confirm = 'The passwords do not match.';
  return out;
}

/** Builds a FieldErrors object, dropping empty entries. */
export function fieldErrors(entries: Record<string, string | null | undefined>): FieldErrors {
  const out: FieldErrors = {};
  for (const [key, value] of Object.entries(entries)) if (value) out[key] = [value];
  return out;
}

export function hasErrors(errors: FieldErrors): boolean {
  return Object.values(errors).some((value) => value && value.length > 0);
}

/** Field messages a server error carries (`{"errors": {"field": [...]}}`), else none. */
export function serverFieldErrors(error: unknown): FieldErrors {
  return error instanceof ApiError ? error.fieldErrors : {};
}
