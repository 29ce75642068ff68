import type { PoseFrame, PoseSet } from './api';

/**
 * A generated pose set for the tests: two mice × three parts, with a skeleton. Part p of individual i at frame f sits
 * at (100 + 40·p + f, 50 + 60·i + 0.5·f); its likelihood cycles with the frame, and every 7th frame misses the tail.
 */
export const INDIVIDUALS = ['mouse1', 'mouse2'];
export const PARTS = ['nose', 'neck', 'tail'];

export function testSet(overrides: Partial<PoseSet> = {}): PoseSet {
  return {
    pose_uuid: 'pose-1',
    name: 'DLC_resnet50',
    format: 'dlc_csv',
    individuals: INDIVIDUALS,
    bodyparts: PARTS,
    keypoints: INDIVIDUALS.flatMap((individual) => PARTS.map((bodypart) => ({ individual, bodypart }))),
    edges: [
      ['nose', 'neck'],
      ['neck', 'tail'],
    ],
    frame_count: 600,
    has_likelihood: true,
    frame_offset: 0,
    file_name: 'mice.csv',
    created_at: '2026-11-27T00:00:00Z',
    ...overrides,
  };
}

export function expectedPoint(individual: number, part: number, frame: number) {
  return {
    x: 100 + 40 * part + frame,
    y: 50 + 60 * individual + 0.5 * frame,
    likelihood: ((frame + 3 * part + individual) % 10) / 10,
    missing: part === 2 && frame % 7 === 0,
  };
}

export function testFrames(start: number, count: number): PoseFrame[] {
  return Array.from({ length: count }, (_, k) => {
    const frame = start + k;
    const individuals: PoseFrame['individuals'] = {};
    INDIVIDUALS.forEach((individual, i) => {
      individuals[individual] = Object.fromEntries(
        PARTS.map((part, p) => {
          const point = expectedPoint(i, p, frame);
          return [part, point.missing ? null : [point.x, point.y, point.likelihood]];
        }),
      );
    });
    return { frame, individuals };
  });
}
