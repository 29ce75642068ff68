import { useCallback, useState } from 'react';
import type { ClipSpan } from '@/components/player/frames';
import { readJson, writeStorage } from '@/lib/storage';

const KEY = 'quick-score-clip';
export const DEFAULT_SPAN: ClipSpan = { before: 0.5, after: 0.5 };
/** The lengths offered: seconds before and after the event. */
export const SPAN_CHOICES: readonly ClipSpan[] = [
  { before: 0.25, after: 0.25 },
  { before: 0.5, after: 0.5 },
  { before: 1, after: 1 },
  { before: 2, after: 2 },
  { before: 0.5, after: 1.5 },
];

function valid(span: unknown): span is ClipSpan {
  const s = span as ClipSpan | null;
  return !!s && typeof s.before === 'number' && typeof s.after === 'number' && s.before >= 0 && s.after >= 0;
}

/** The reviewer's clip length, kept in this browser (a personal preference, not the run's data). */
export function useClipSpan(): [ClipSpan, (span: ClipSpan) => void] {
  const [span, setSpan] = useState<ClipSpan>(() => {
    const stored = readJson<ClipSpan>(KEY);
    return valid(stored) ? stored : DEFAULT_SPAN;
  });
  const change = useCallback((next: ClipSpan) => {
    setSpan(next);
    writeStorage(KEY, JSON.stringify(next));
  }, []);
  return [span, change];
}
