import { authApi, type User } from '@/features/auth/api';
import { requireParam } from '@/lib/api-client';
import { api, idParam } from '@/lib/api-client-typed';

export const profileApi = {
  uploadAvatar: (file: File): Promise<User> => {
    const form = new FormData();
    form.append('avatar', requireParam('avatar', file, 'usersProfileUploadAvatar'));
    return api.POST('/api/users/profile/upload_avatar/', { body: form });
  },
  updateNames: (id: User['id'], body: Pick<User, 'first_name' | 'last_name'>): Promise<User> =>
    api.PATCH('/api/users/profile/{id}/', { params: { path: { id: idParam(id) } }, body }),
  changePassword: authApi.changePassword,
};
