import { describe, expect, it } from 'vitest';
import { projectSections } from '@/routes/router';
import { SECTION_TITLES } from './header-title';

describe('breadcrumb titles', () => {
  it('name every section of a project, the Agreement page and the trash included', () => {
    const sections = [...new Set(projectSections.map((route) => route.path!.split('/')[0]!))];
    expect(sections.filter((section) => !SECTION_TITLES[section])).toEqual([]);
    expect(SECTION_TITLES.agreement).toBe('Agreement');
  });
});
