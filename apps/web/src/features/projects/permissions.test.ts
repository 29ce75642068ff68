import { describe, expect, it } from 'vitest';
import { LOCKED_MESSAGE, projectPermissions } from './permissions';

const on = { billingEnabled: true, supportEmail: 'help@lab.org' };
const off = { billingEnabled: false, supportEmail: 'help@lab.org' };

describe('projectPermissions', () => {
  it('follows the roles on an active project', () => {
    const viewer = projectPermissions({ role: 'viewer', status: 'active', plan: 'pro' }, off);
    expect(viewer).toMatchObject({ canEditContent: false, canProcess: false, canManageTeam: false, canLeave: true });
    expect(viewer.processBlockedReason).toBeNull();
    const member = projectPermissions({ role: 'member', status: 'active', plan: 'pro' }, off);
    expect(member).toMatchObject({
      canEditContent: true,
      canProcess: true,
      canEditProject: false,
      canManageTeam: false,
    });
    const admin = projectPermissions({ role: 'admin', status: 'active', plan: 'pro' }, on);
    expect(admin).toMatchObject({ canEditProject: true, canManageTeam: true, isOwner: false, canManageBilling: false });
    const owner = projectPermissions({ role: 'owner', status: 'active', plan: 'pro' }, on);
    expect(owner).toMatchObject({ canDeleteProject: true, canTransferOwnership: true, canManageBilling: true });
    expect(owner.canLeave).toBe(false);
  });

  it('billing is managed only when billing is on', () => {
    expect(projectPermissions({ role: 'owner', status: 'active', plan: 'pro' }, off).canManageBilling).toBe(false);
  });

  it('a draft lets members set up but not upload or analyse, and says why', () => {
    const pro = projectPermissions({ role: 'member', status: 'draft', plan: 'pro' }, on);
    expect(pro).toMatchObject({ canEditContent: true, canProcess: false });
    expect(pro.processBlockedReason).toContain('once its Pro subscription is active');
    const institutional = projectPermissions({ role: 'owner', status: 'draft', plan: 'institutional' }, on);
    expect(institutional.processBlockedReason).toContain('Write to help@lab.org');
    expect(institutional.canManageTeam).toBe(true);
  });

  it('a locked project is read-only for everyone, but its owner can still renew and others can leave', () => {
    const owner = projectPermissions({ role: 'owner', status: 'locked', plan: 'pro' }, on);
    expect(owner).toMatchObject({
      canEditContent: false,
      canProcess: false,
      canEditProject: false,
      canManageTeam: false,
      canDeleteProject: false,
      canTransferOwnership: false,
      canManageBilling: true,
    });
    expect(owner.processBlockedReason).toBe(LOCKED_MESSAGE);
    expect(projectPermissions({ role: 'viewer', status: 'locked', plan: 'pro' }, on).canLeave).toBe(true);
  });

  it('bulk delete and emptying the trash are for owners and admins; members restore; viewers do neither', () => {
    const at = (role: 'viewer' | 'member' | 'admin' | 'owner', status: 'active' | 'locked' = 'active') =>
      projectPermissions({ role, status, plan: 'pro' }, off);
    expect(at('viewer')).toMatchObject({ canBulkDelete: false, canRestoreTrash: false, canEmptyTrash: false });
    expect(at('member')).toMatchObject({ canBulkDelete: false, canRestoreTrash: true, canEmptyTrash: false });
    expect(at('admin')).toMatchObject({ canBulkDelete: true, canRestoreTrash: true, canEmptyTrash: true });
    expect(at('owner')).toMatchObject({ canBulkDelete: true, canRestoreTrash: true, canEmptyTrash: true });
    expect(at('owner', 'locked')).toMatchObject({ canBulkDelete: false, canRestoreTrash: false, canEmptyTrash: false });
  });
});
