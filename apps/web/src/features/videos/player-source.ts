import type { PlayerSource } from '@/components/player/video-player';
import type { Video } from './api';

/** What the shared player needs of a video: its playable copy (null while it is prepared) and picture size. */
export function playerSource(video: Video): PlayerSource {
  return {
    name: video.name,
    streamUrl: video.stream_url,
    posterUrl: video.thumbnail_url,
    width: video.width,
    height: video.height,
  };
}

/** The player's facts of a video: frame rate, frame count and duration. */
export function playerFacts(video: Video) {
  return { fps: video.fps, frameCount: video.frame_count, duration: video.duration_s };
}
