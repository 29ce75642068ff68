import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { LOCKED_MESSAGE } from '@/lib/project-locked';
import type { QueueSnapshot } from '../action-queue';
import { ReviewSaveStatus } from './review-save-status';

const snapshot = (extra: Partial<QueueSnapshot>): QueueSnapshot => ({
  revision: 1,
  state: 'unsaved',
  pending: 3,
  failure: 'No connection to the server.',
  retryAt: Date.now() + 1000,
  locked: false,
  ...extra,
});

describe("Quick Score's save status", () => {
  it('a lost connection: not saved yet, retried, nothing to download', () => {
    render(<ReviewSaveStatus save={snapshot({})} onRetry={vi.fn()} onDownload={vi.fn()} />);
    expect(screen.getByTestId('save-status').textContent).toContain('Not saved yet (3)');
    expect(screen.queryByRole('button', { name: 'Download unsaved changes' })).toBeNull();
  });

  it('a locked project: the actions wait for its renewal, can be retried and downloaded', () => {
    const retry = vi.fn();
    const download = vi.fn();
    render(
      <ReviewSaveStatus
        save={snapshot({ locked: true, failure: LOCKED_MESSAGE })}
        onRetry={retry}
        onDownload={download}
      />,
    );
    const status = screen.getByTestId('save-status');
    expect(status.dataset.locked).toBe('true');
    expect(status.textContent).toContain('Waiting: the project is locked (3)');
    expect(status.textContent).toContain(`${LOCKED_MESSAGE} Your changes are kept in this browser`);
    fireEvent.click(screen.getByRole('button', { name: 'Download unsaved changes' }));
    fireEvent.click(screen.getByRole('button', { name: 'Retry now' }));
    expect(download).toHaveBeenCalledOnce();
    expect(retry).toHaveBeenCalledOnce();
  });
});
