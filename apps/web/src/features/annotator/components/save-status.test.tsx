import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { LOCKED_MESSAGE } from '@/lib/project-locked';
import { SaveStatus } from './save-status';

describe('the save status', () => {
  it('says saved, saving, or not saved yet with what is kept and a retry', () => {
    const retry = vi.fn();
    const { rerender } = render(
      <SaveStatus
        status={{ state: 'saved', pending: 0, failure: null, retryAt: null, locked: false }}
        onRetry={retry}
      />,
    );
    expect(screen.getByRole('status').textContent).toBe('Saved');
    rerender(
      <SaveStatus
        status={{ state: 'saving', pending: 1, failure: null, retryAt: null, locked: false }}
        onRetry={retry}
      />,
    );
    expect(screen.getByRole('status').textContent).toBe('Saving…');
    expect(screen.queryByRole('button')).toBeNull();
    rerender(
      <SaveStatus
        status={{ state: 'unsaved', pending: 3, failure: 'Failed to fetch', retryAt: null, locked: false }}
        onRetry={retry}
      />,
    );
    expect(screen.getByRole('status').textContent).toBe('Not saved yet (3 changes kept in this browser)');
    expect(screen.getByRole('status').getAttribute('title')).toBe('Failed to fetch');
    fireEvent.click(screen.getByRole('button', { name: 'Retry now' }));
    expect(retry).toHaveBeenCalledOnce();
  });

  it('says the changes wait because the project is locked, with a retry and a download of what is kept', () => {
    const retry = vi.fn();
    const download = vi.fn();
    render(
      <SaveStatus
        status={{ state: 'unsaved', pending: 2, failure: LOCKED_MESSAGE, retryAt: null, locked: true }}
        onRetry={retry}
        onDownload={download}
      />,
    );
    expect(screen.getByRole('status').textContent).toBe(
      'Waiting: the project is locked (2 changes kept in this browser)',
    );
    expect(screen.getByTestId('save-locked').textContent).toContain(LOCKED_MESSAGE);
    fireEvent.click(screen.getByRole('button', { name: 'Download unsaved changes' }));
    expect(download).toHaveBeenCalledOnce();
    fireEvent.click(screen.getByRole('button', { name: 'Retry now' }));
    expect(retry).toHaveBeenCalledOnce();
  });
});
