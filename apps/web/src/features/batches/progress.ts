/** How a batch's progress reads: pure, so unit-tested. */
import { countOf, formatDuration } from '@/lib/format';
import type { BatchSummary } from './api';

/** Whole percent, rounded down (100 % only when every run has finished), as a run's progress reads. */
export const batchPercent = (batch: Pick<BatchSummary, 'progress' | 'status'>) =>
  batch.status === 'finished' ? 100 : Math.max(0, Math.min(99, Math.floor(batch.progress * 100)));

/** "31 of 40 finished · 2 failed · 4 running · 3 queued" (only the counts that are not zero after the first). */
export function countsLine(counts: BatchSummary['counts']): string {
  const finished = counts.succeeded + counts.failed + counts.revoked;
  const parts = [`${finished} of ${counts.videos} finished`];
  if (counts.failed) parts.push(`${counts.failed} failed`);
  if (counts.revoked) parts.push(`${counts.revoked} stopped`);
  if (counts.running) parts.push(`${counts.running} running`);
  if (counts.queued) parts.push(`${counts.queued} queued`);
  return parts.join(' · ');
}

/** "about 03:20 left" while it runs and an estimate exists. */
export function timeLeft(batch: Pick<BatchSummary, 'status' | 'eta_s'>): string | null {
  if (batch.status !== 'running' || batch.eta_s === null) return null;
  return `about ${formatDuration(Math.ceil(batch.eta_s))} left`;
}

/** The videos that can run again: the newest run failed or was stopped. */
export const retryable = (counts: BatchSummary['counts']) => counts.failed + counts.revoked;

export const retryLabel = (counts: BatchSummary['counts']) => `Retry ${countOf(retryable(counts), 'failed video')}`;
