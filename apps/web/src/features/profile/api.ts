import { authApi, type User } from '@/features/auth/api';
import { apiRequest, requireParam } from '@/lib/api-client';

export const profileApi = {
  uploadAvatar: (file: File) => {
    const form = new FormData();
    form.append('avatar', requireParam('avatar', file, 'usersProfileUploadAvatar'));
    return apiRequest<User>('users/profile/upload_avatar/', { method: 'POST', form });
  },
  updateNames: (id: User['id'], body: Pick<User, 'first_name' | 'last_name'>) =>
    apiRequest<User>(`users/profile/${requireParam('id', id, 'usersProfilePartialUpdate')}/`, {
      method: 'PATCH',
      body: requireParam('body', body, 'usersProfilePartialUpdate'),
    }),
  changePassword: authApi.changePassword,
};
