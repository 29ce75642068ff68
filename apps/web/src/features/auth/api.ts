import type { ApiRequestBody, ApiResponse } from '@app/api';
import { requireParam } from '@/lib/api-client';
import { api } from '@/lib/api-client-typed';

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
  login: (body: { email: string; password: string }): Promise<LoginResponse> => api.POST('/api/auth/login/', { body }),
  logout: (refresh: string | null): Promise<unknown> =>
    api.POST('/api/auth/logout/', { body: refresh ? { refresh } : {} }),
  register: (body: RegisterBody): Promise<unknown> => api.POST('/api/auth/register/', { body }),
  resendEmail: (email: string): Promise<unknown> => api.POST('/api/auth/register/resend-email/', { body: { email } }),
  verifyEmail: (key: string): Promise<unknown> =>
    api.POST('/api/auth/register/verify-email/', {
      body: { key: requireParam('key', key, 'authRegisterVerifyEmail') },
    }),
  resetPassword: (email: string): Promise<unknown> => api.POST('/api/auth/password/reset/', { body: { email } }),
  confirmPasswordReset: (body: {
    uid: string;
    token: string;
    new_password1: string;
    new_password2: string;
  }): Promise<unknown> => api.POST('/api/auth/password/reset/confirm/', { body }),
  changePassword: (body: {
    old_password: string;
    new_password1: string;
    new_password2: string;
  }): Promise<Partial<TokenPair>> => api.POST('/api/auth/password/change/', { body }),
  user: (): Promise<User> => api.GET('/api/auth/user/'),
  updateUser: (body: Partial<Pick<User, 'first_name' | 'last_name'>>): Promise<User> =>
    api.PATCH('/api/auth/user/', { body }),
};
