import type { PlayerSource } from '@/components/player/video-player';
import type { Video } from './api';

/**
 * What the shared player needs of a video: the file to play — the original when every browser plays it, else the
 * playback copy once it is made — and otherwise why there is nothing to play yet (the copy's progress, or why it
 * could not be made), with the picture size.
 */
export function playerSource(video: Video): PlayerSource {
  const copy = video.playback_copy;
  const playable = copy.state === 'ready' || copy.state === 'not_needed';
  return {
    name: video.name,
    streamUrl: playable ? video.stream_url : null,
    posterUrl: video.thumbnail_url,
    width: video.width,
    height: video.height,
    unavailable: playable
      ? null
      : copy.state === 'failed'
        ? { kind: 'failed', reason: copy.error }
        : { kind: 'preparing', progress: copy.state === 'making' ? copy.progress : null },
  };
}

/** The player's facts of a video: frame rate, frame count and duration. */
export function playerFacts(video: Video) {
  return { fps: video.fps, frameCount: video.frame_count, duration: video.duration_s };
}
