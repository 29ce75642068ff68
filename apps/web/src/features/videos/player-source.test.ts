import { describe, expect, it } from 'vitest';
import type { Video } from './api';
import { isCopyPreparing } from './api';
import { playerSource } from './player-source';

const video = (playback_copy: Video['playback_copy'], playback: Video['playback'] = 'original'): Video => ({
  video_uuid: '7a4c1d52-0d1f-4f55-8f0e-5b0c0d7e1a01',
  subject_uuid: '7a4c1d52-0d1f-4f55-8f0e-5b0c0d7e1a02',
  project_uuid: '7a4c1d52-0d1f-4f55-8f0e-5b0c0d7e1a03',
  name: 'Chamber 2',
  original_filename: 'chamber 2.avi',
  size_bytes: 1000,
  duration_s: 600,
  fps: 30,
  frame_count: 18000,
  width: 640,
  height: 480,
  codec: 'mjpeg',
  container: 'avi',
  status: 'ready',
  error: null,
  thumbnail_url: '/thumb.jpg',
  stream_url: '/stream/?token=t',
  playback,
  playback_copy,
  recorded_at: null,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  job: null,
});

describe('playerSource', () => {
  it('plays the original when no copy is needed, and the copy once it is ready', () => {
    expect(playerSource(video({ state: 'not_needed', progress: 1, error: null }))).toMatchObject({
      streamUrl: '/stream/?token=t',
      unavailable: null,
    });
    expect(playerSource(video({ state: 'ready', progress: 1, error: null }, 'copy'))).toMatchObject({
      streamUrl: '/stream/?token=t',
      unavailable: null,
    });
  });

  it('plays nothing while the copy is made (with its progress) or when it failed (with the reason)', () => {
    expect(playerSource(video({ state: 'making', progress: 0.42, error: null }))).toMatchObject({
      streamUrl: null,
      unavailable: { kind: 'preparing', progress: 0.42 },
    });
    expect(playerSource(video({ state: 'pending', progress: 0, error: null }))).toMatchObject({
      streamUrl: null,
      unavailable: { kind: 'preparing', progress: null },
    });
    expect(playerSource(video({ state: 'failed', progress: 0.5, error: 'Out of memory' }))).toMatchObject({
      streamUrl: null,
      unavailable: { kind: 'failed', reason: 'Out of memory' },
    });
  });

  it('keeps lists polling while a copy is still to be made', () => {
    expect(isCopyPreparing(video({ state: 'making', progress: 0.1, error: null }))).toBe(true);
    expect(isCopyPreparing(video({ state: 'pending', progress: 0, error: null }))).toBe(true);
    expect(isCopyPreparing(video({ state: 'ready', progress: 1, error: null }))).toBe(false);
    expect(isCopyPreparing(video({ state: 'failed', progress: 0, error: 'x' }))).toBe(false);
  });
});
