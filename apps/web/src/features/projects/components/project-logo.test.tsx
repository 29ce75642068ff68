import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ProjectLogo, ProjectStatusIcon } from './project-logo';

describe('project status display (spec §3)', () => {
  it('greys out the logo of a locked project only', () => {
    const { container, rerender } = render(
      <ProjectLogo project={{ name: 'Alpha', logo_url: null, status: 'locked' }} />,
    );
    const logo = container.firstElementChild!;
    expect(logo.className).toContain('grayscale');
    expect(logo.getAttribute('data-locked')).toBe('true');
    rerender(<ProjectLogo project={{ name: 'Alpha', logo_url: null, status: 'draft' }} />);
    expect(container.firstElementChild!.className).not.toContain('grayscale');
  });

  it('marks locked and draft projects with an icon, active ones without', () => {
    const { rerender, container } = render(<ProjectStatusIcon status="locked" />);
    expect(screen.getByRole('img', { name: 'Locked' })).toBeTruthy();
    rerender(<ProjectStatusIcon status="draft" />);
    expect(screen.getByRole('img', { name: 'Draft' })).toBeTruthy();
    rerender(<ProjectStatusIcon status="active" />);
    expect(container.innerHTML).toBe('');
  });
});
