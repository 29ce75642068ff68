/**
 * The disagreements of an agreement report, in time order, each with the clip the shared player plays for it: a
 * missed event (in R only), an extra event (in C only), and for intervals each stretch where one side alone has the
 * behaviour. An event's clip is ±0.5 s around it, as Quick Score's; a stretch plays from 0.5 s before it to 0.5 s
 * after it, its first 10 s at most.
 */
import { clampFrame, type FrameRange, nearestFrame } from '@/components/player/frames';
import type { AgreementReport } from './api';

export type DisagreementKind = 'missed' | 'extra' | 'reference_only' | 'candidate_only';

export interface Disagreement {
  kind: DisagreementKind;
  /** Seconds: the event's time, or the stretch's start. */
  start: number;
  /** Seconds: the stretch's end; null for an event. */
  end: number | null;
  clip: FrameRange;
}

export const DISAGREEMENT_LABELS: Record<DisagreementKind, string> = {
  missed: 'Missed (in R only)',
  extra: 'Extra (in C only)',
  reference_only: 'Behaviour in R only',
  candidate_only: 'Behaviour in C only',
};

const MARGIN_S = 0.5;
const LONGEST_STRETCH_S = 10;

export function clipFor(start: number, end: number | null, fps: number, frameCount: number): FrameRange {
  const from = clampFrame(nearestFrame(Math.max(0, start - MARGIN_S), fps), frameCount);
  const last = end === null ? start : Math.min(end, start + LONGEST_STRETCH_S);
  const to = Math.min(frameCount, nearestFrame(last + MARGIN_S, fps) + 1);
  return { start: from, end: Math.max(from + 1, to) };
}

export function disagreementsOf(report: AgreementReport, fps: number, frameCount: number): Disagreement[] {
  const items: Disagreement[] = [
    ...report.events.missed.map((time) => ({ kind: 'missed' as const, start: time, end: null })),
    ...report.events.extra.map((time) => ({ kind: 'extra' as const, start: time, end: null })),
    ...(report.intervals?.disagreements ?? []).map((stretch) => ({
      kind: stretch.side,
      start: stretch.start_s,
      end: stretch.end_s,
    })),
  ].map((item) => ({ ...item, clip: clipFor(item.start, item.end, fps, frameCount) }));
  // Time order; at one time an event before a stretch, a missed before an extra.
  const rank: Record<DisagreementKind, number> = { missed: 0, extra: 1, reference_only: 2, candidate_only: 3 };
  return items.sort((a, b) => a.start - b.start || rank[a.kind] - rank[b.kind]);
}
