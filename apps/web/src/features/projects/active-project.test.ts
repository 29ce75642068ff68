import { describe, expect, it } from 'vitest';
import { chooseActiveProject, projectUuidFromPath, sectionOfPath, withProjectInPath } from './active-project';

describe('chooseActiveProject (spec §4)', () => {
  const list = ['a', 'b', 'c'];
  it('keeps the active project when it is in the list', () => {
    expect(chooseActiveProject('b', 'c', list)).toBe('b');
  });
  it('uses the stored one when none is active or the active one is not in the list', () => {
    expect(chooseActiveProject(null, 'c', list)).toBe('c');
    expect(chooseActiveProject('zzz', 'c', list)).toBe('c');
  });
  it('falls back to the first project', () => {
    expect(chooseActiveProject(null, null, list)).toBe('a');
    expect(chooseActiveProject('zzz', 'yyy', list)).toBe('a');
  });
  it('is null when the user has no projects', () => {
    expect(chooseActiveProject('a', 'a', [])).toBeNull();
  });
});

describe('URL rewrite (spec §2)', () => {
  const uuid = '8b1e4d4a-1111-4222-8333-444455556666';
  it('inserts the active project into short paths', () => {
    expect(withProjectInPath('/subjects', uuid)).toBe(`/projects/${uuid}/subjects`);
    expect(withProjectInPath('/subjects/s1', uuid)).toBe(`/projects/${uuid}/subjects/s1`);
    expect(withProjectInPath('/analysis-logs/', uuid)).toBe(`/projects/${uuid}/analysis-logs`);
    expect(withProjectInPath('/annotator', uuid)).toBe(`/projects/${uuid}/annotator`);
  });
  it('turns /projects into the project page', () => {
    expect(withProjectInPath('/projects', uuid)).toBe(`/projects/${uuid}`);
    expect(withProjectInPath('/projects/', uuid)).toBe(`/projects/${uuid}`);
  });
  it('leaves paths that already name a project alone', () => {
    expect(withProjectInPath('/projects/other/subjects', uuid)).toBe('/projects/other/subjects');
  });
  it('reads the project and section of a path', () => {
    expect(projectUuidFromPath(`/projects/${uuid}/quick-score`)).toBe(uuid);
    expect(projectUuidFromPath(`/projects/${uuid}`)).toBe(uuid);
    expect(projectUuidFromPath('/projects')).toBeNull();
    expect(projectUuidFromPath('/subjects')).toBeNull();
    expect(sectionOfPath(`/projects/${uuid}/subjects/x`)).toBe('subjects');
    expect(sectionOfPath('/movement-detector')).toBe('movement-detector');
    expect(sectionOfPath(`/projects/${uuid}`)).toBeNull();
  });
});
