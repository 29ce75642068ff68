import type { ApiRequestBody, ApiResponse } from '@app/api';
import { apiRequest, requireParam } from '@/lib/api-client';

/** Shapes come from the server's OpenAPI document (packages/api). */
export type User = ApiResponse<'/api/auth/user/', 'get'>;
export type LoginResponse = ApiResponse<'/api/auth/login/', 'post'>;
export type TokenPair = ApiResponse<'/api/auth/token/refresh/', 'post'>;
export type RegisterBody = ApiRequestBody<'/api/auth/register/', 'post'>;

export const authKeys = {
  all: ['auth'] as const,
  user: () => [...authKeys.all, 'user'] as const,
};

export function displayName(user: Pick<User, 'email' | 'display_name' | 'get_display_name'> | null | undefined) {
  if (!user) return '';
  return user.get_display_name || user.display_name || user.email;
}

export const authApi = {
  login: (body: { email: string; password: string }) =>
    apiRequest<LoginResponse>('auth/login/', { method: 'POST', body: requireParam('body', body, 'authLogin') }),
  logout: (refresh: string | null) =>
    apiRequest<unknown>('auth/logout/', { method: 'POST', body: refresh ? { refresh } : {} }),
  register: (body: RegisterBody) =>
    apiRequest<unknown>('auth/register/', { method: 'POST', body: requireParam('body', body, 'authRegister') }),
  resendEmail: (email: string) =>
    apiRequest<unknown>('auth/register/resend-email/', { method: 'POST', body: { email } }),
  verifyEmail: (key: string) =>
    apiRequest<unknown>('auth/register/verify-email/', {
      method: 'POST',
      body: { key: requireParam('key', key, 'authRegisterVerifyEmail') },
    }),
  resetPassword: (email: string) => apiRequest<unknown>('auth/password/reset/', { method: 'POST', body: { email } }),
  confirmPasswordReset: (body: { uid: string; token: string; new_password1: string; new_password2: string }) =>
    apiRequest<unknown>('auth/password/reset/confirm/', {
      method: 'POST',
      body: requireParam('body', body, 'authPasswordResetConfirm'),
    }),
  changePassword: (body: { old_password: string; new_password1: string; new_password2: string }) =>
    apiRequest<Partial<TokenPair>>('auth/password/change/', {
      method: 'POST',
      body: requireParam('body', body, 'authPasswordChange'),
    }),
  user: () => apiRequest<User>('auth/user/'),
  updateUser: (body: Partial<Pick<User, 'first_name' | 'last_name'>>) =>
    apiRequest<User>('auth/user/', { method: 'PATCH', body: requireParam('body', body, 'authUserPartialUpdate') }),
};
