import { describe, expect, it } from 'vitest';
import { checklistSteps } from './checklist';

describe('the getting-started steps', () => {
  it('tick each from its own fact, in the order of the work', () => {
    const steps = checklistSteps({
      subjects: 2,
      videos_ready: 1,
      runs_succeeded: 0,
      events_reviewed: false,
      exported: true,
    });
    expect(steps.map((step) => [step.key, step.done, step.path])).toEqual([
      ['subjects', true, 'subjects'],
      ['upload', true, 'subjects'],
      ['detect', false, 'movement-detector'],
      ['review', false, 'quick-score'],
      ['export', true, 'analysis-logs'],
    ]);
    expect(steps[0]!.text).toBe('2 subjects');
    expect(steps[1]!.text).toBe('1 video ready');
  });
});
