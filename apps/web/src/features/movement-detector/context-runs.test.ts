import { describe, expect, it } from 'vitest';
import type { AnalysisRun } from '@/features/analysis/api';
import { lastDetectionRun, roisForVideo, sameCameraOffers } from './context-runs';

const run = (uuid: string, video: string, kind: AnalysisRun['kind'] = 'movement_detection') =>
  ({ analysis_uuid: uuid, video_uuid: video, kind, parameters: {} }) as unknown as AnalysisRun;

describe('the runs the Movement Detector starts from', () => {
  it('takes the newest movement detection, not a later event re-detection', () => {
    expect(lastDetectionRun([run('e', 'v', 'event_detection'), run('m2', 'v'), run('m1', 'v')])?.analysis_uuid).toBe(
      'm2',
    );
    expect(lastDetectionRun([run('e', 'v', 'event_detection')])).toBeNull();
  });

  it("offers each other video's last run once, only for the same picture size", () => {
    const videos = [
      { video_uuid: 'a', name: 'Day 1', width: 320, height: 240 },
      { video_uuid: 'b', name: 'Day 2', width: 320, height: 240 },
      { video_uuid: 'c', name: 'Other camera', width: 640, height: 480 },
    ];
    const offers = sameCameraOffers([run('b2', 'b'), run('a1', 'a'), run('b1', 'b'), run('c1', 'c')], videos, {
      video_uuid: 'a',
      width: 320,
      height: 240,
    });
    expect(offers.map((offer) => [offer.videoName, offer.run.analysis_uuid])).toEqual([['Day 2', 'b2']]);
  });

  it('leaves out regions that start after the video ends', () => {
    const raw = [
      { start_s: 0, x: 1, y: 2, width: 3, height: 4 },
      { start_s: 5, x: 5, y: 6, width: 7, height: 8 },
      { start_s: 20, x: 9, y: 9, width: 9, height: 9 },
    ];
    expect(roisForVideo(raw, 10).map((roi) => roi.start_s)).toEqual([0, 5]);
    expect(roisForVideo(raw, 0)).toHaveLength(3);
  });
});
