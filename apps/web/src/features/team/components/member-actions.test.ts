import { describe, expect, it } from 'vitest';
import { projectPermissions } from '@/features/projects/permissions';
import type { Member } from '../api';
import { memberActions } from './members-list';

const member = (id: number, role: Member['role']): Member => ({
  user: { id, email: `${id}@lab.org`, display_name: `User ${id}`, avatar_url: null },
  role,
  joined_at: '2026-01-01T00:00:00Z',
});
const as = (role: Member['role'], status: 'active' | 'locked' = 'active') =>
  projectPermissions({ role, status, plan: 'pro' }, { billingEnabled: false, supportEmail: 's@lab.org' });

describe('memberActions offers only what the server allows', () => {
  it('an admin manages members and viewers, not the owner, other admins or themself', () => {
    expect(memberActions(member(3, 'member'), 2, as('admin'))).toMatchObject({ changeRole: true, remove: true });
    expect(memberActions(member(1, 'owner'), 2, as('admin'))).toMatchObject({ changeRole: false, remove: false });
    expect(memberActions(member(4, 'admin'), 2, as('admin'))).toMatchObject({ changeRole: false, remove: false });
    expect(memberActions(member(2, 'admin'), 2, as('admin'))).toEqual({
      changeRole: false,
      remove: false,
      transfer: false,
      leave: true,
    });
  });

  it('the owner manages admins and can hand the project to one; the owner cannot leave', () => {
    expect(memberActions(member(4, 'admin'), 1, as('owner'))).toEqual({
      changeRole: true,
      remove: true,
      transfer: true,
      leave: false,
    });
    expect(memberActions(member(3, 'member'), 1, as('owner')).transfer).toBe(false);
    expect(memberActions(member(1, 'owner'), 1, as('owner')).leave).toBe(false);
  });

  it('members and viewers manage nobody; on a locked project only leaving is left', () => {
    expect(memberActions(member(5, 'viewer'), 3, as('member'))).toMatchObject({ changeRole: false, remove: false });
    expect(memberActions(member(3, 'member'), 1, as('owner', 'locked'))).toEqual({
      changeRole: false,
      remove: false,
      transfer: false,
      leave: false,
    });
    expect(memberActions(member(5, 'viewer'), 5, as('viewer', 'locked')).leave).toBe(true);
  });
});
