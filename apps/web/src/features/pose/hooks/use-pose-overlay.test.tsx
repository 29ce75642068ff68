import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { usePlayer } from '@/components/player/player-controller';
import { sessionStore } from '@/features/auth/session';
import { queryClient } from '@/lib/query-client';
import { tokens } from '@/lib/tokens';
import { json, mockFetch } from '@/test/http';
import { Providers } from '@/test/render';
import { MAX_FRAMES_PER_REQUEST, poseKeys } from '../api';
import { testFrames, testSet } from '../pose.test-support';
import { DEFAULT_CUTOFF, usePoseOverlay } from './use-pose-overlay';

const P = 'project-1';
const video = { subject_uuid: 'subject-1', video_uuid: 'video-1', width: 640, height: 480 };
const BASE = `/api/projects/${P}/subjects/subject-1/videos/video-1/pose/`;

function Harness() {
  const player = usePlayer({ fps: 30, frameCount: 600 });
  const pose = usePoseOverlay({ projectUuid: P, video, player });
  return (
    <div>
      <div data-testid="picture">{pose.layer}</div>
      {pose.panel}
    </div>
  );
}

/** Serves two sets: the older one without a skeleton; frames from the generated data. */
function serve() {
  const older = testSet({ pose_uuid: 'pose-old', name: 'Older run', edges: [] });
  const newer = testSet({ pose_uuid: 'pose-new', name: 'Newer run' });
  const framesOf = (url: string) => {
    const query = new URL(url, 'http://x').searchParams;
    const count = Number(query.get('count'));
    expect(count).toBeLessThanOrEqual(MAX_FRAMES_PER_REQUEST);
    return json({ frames: testFrames(Number(query.get('start')), count) });
  };
  return mockFetch({
    [`GET ${BASE}`]: () => json({ results: [older, newer] }),
    [`GET ${BASE}pose-old/frames/`]: framesOf,
    [`GET ${BASE}pose-new/frames/`]: framesOf,
  });
}

const points = () => screen.queryAllByTestId('pose-point');

describe('pose overlay of a player', { timeout: 30_000 }, () => {
  beforeEach(() => {
    queryClient.clear();
    sessionStore.reset();
    tokens.set('A', 'R');
  });

  it('draws the newest set, and its panel picks the set, hides parts, cuts by likelihood and hides all', async () => {
    const { calls } = serve();
    render(
      <Providers>
        <Harness />
      </Providers>,
    );
    await waitFor(() => expect(screen.getByTestId('pose-layer').dataset.loaded).toBe('true'));
    // Frame 0 (tails missing): nose and neck of both mice, at or above the default cutoff.
    const shown = () => points().map((p) => `${p.dataset.individual}/${p.dataset.part}`);
    expect(shown()).toEqual(
      ['mouse1/nose', 'mouse1/neck', 'mouse2/nose', 'mouse2/neck'].filter((key) => {
        const likelihood = testFrames(0, 1)[0]!.individuals[key.split('/')[0]!]![key.split('/')[1]!]![2]!;
        return likelihood >= DEFAULT_CUTOFF;
      }),
    );
    expect(screen.getByRole('combobox', { name: 'Pose set' })).toHaveProperty('value', 'pose-new');

    fireEvent.change(screen.getByRole('spinbutton', { name: /Likelihood cutoff/ }), { target: { value: '0' } });
    expect(shown()).toEqual(['mouse1/nose', 'mouse1/neck', 'mouse2/nose', 'mouse2/neck']);
    expect(screen.getAllByTestId('pose-edge')).toHaveLength(2);

    fireEvent.click(screen.getByRole('checkbox', { name: 'nose' }));
    expect(shown()).toEqual(['mouse1/neck', 'mouse2/neck']);
    expect(screen.queryAllByTestId('pose-edge')).toHaveLength(0);
    fireEvent.click(screen.getByRole('checkbox', { name: 'nose' }));
    expect(shown()).toHaveLength(4);

    fireEvent.change(screen.getByRole('combobox', { name: 'Pose set' }), { target: { value: 'pose-old' } });
    await waitFor(() => expect(screen.getByTestId('pose-layer').dataset.loaded).toBe('true'));
    expect(screen.queryAllByTestId('pose-edge')).toHaveLength(0);
    expect(screen.getByText('This set has no skeleton: points only.')).toBeTruthy();

    fireEvent.click(screen.getByRole('checkbox', { name: 'Show on video' }));
    expect(screen.queryByTestId('pose-layer')).toBeNull();

    // One request per window of frames (two windows ahead of frame 0, per set), never one per frame.
    const frameCalls = calls.filter((call) => call.url.includes('/frames/')).map((call) => call.url.split(BASE)[1]);
    expect(frameCalls).toEqual([
      'pose-new/frames/?start=0&count=256',
      'pose-new/frames/?start=256&count=256',
      'pose-old/frames/?start=0&count=256',
      'pose-old/frames/?start=256&count=256',
    ]);
  });

  it('shows nothing for a video without pose sets', async () => {
    const { calls } = mockFetch({ [`GET ${BASE}`]: () => json({ results: [] }) });
    render(
      <Providers>
        <Harness />
      </Providers>,
    );
    await waitFor(() =>
      expect(
        queryClient.getQueryData(poseKeys.sets({ projectUuid: P, subjectUuid: 'subject-1', videoUuid: 'video-1' })),
      ).toBeDefined(),
    );
    expect(calls.map((call) => call.url)).toEqual([BASE]);
    expect(screen.queryByTestId('pose-panel')).toBeNull();
    expect(screen.queryByTestId('pose-layer')).toBeNull();
  });
});
