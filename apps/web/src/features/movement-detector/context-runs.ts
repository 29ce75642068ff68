/**
 * Which earlier runs the Movement Detector starts from (issue 20): a video opens with its last run's regions and
 * parameters, and a subject's other videos — filmed by the same camera, so of the same picture size — offer theirs.
 */
import type { AnalysisRun } from '@/features/analysis/api';
import { initialRois, type Roi, roisFromParameters, type Size } from './rois';

/** The newest movement-detection run of a list ordered newest first (the API's order), or null. */
export function lastDetectionRun(runs: readonly AnalysisRun[]): AnalysisRun | null {
  return runs.find((run) => run.kind === 'movement_detection') ?? null;
}

export interface SameCameraOffer {
  videoUuid: string;
  videoName: string;
  run: AnalysisRun;
}

/**
 * The last movement-detection run of each of the subject's other videos whose picture has this video's size, newest
 * first. `runs` is the subject's runs, newest first; `videos` its videos with their sizes.
 */
export function sameCameraOffers(
  runs: readonly AnalysisRun[],
  videos: readonly { video_uuid: string; name: string; width: number | null; height: number | null }[],
  current: { video_uuid: string } & Size,
): SameCameraOffer[] {
  const sizes = new Map(videos.map((video) => [video.video_uuid, video]));
  const offers: SameCameraOffer[] = [];
  const seen = new Set<string>([current.video_uuid]);
  for (const run of runs) {
    if (run.kind !== 'movement_detection' || seen.has(run.video_uuid)) continue;
    seen.add(run.video_uuid);
    const video = sizes.get(run.video_uuid);
    if (!video || video.width !== current.width || video.height !== current.height) continue;
    offers.push({ videoUuid: run.video_uuid, videoName: video.name, run });
  }
  return offers;
}

/** Another video's regions, for this one: those starting after its last frame are left out (the first stays). */
export function roisForVideo(raw: unknown, duration: number): Roi[] {
  const rois = roisFromParameters(raw);
  if (!(duration > 0)) return rois;
  const kept = rois.filter((roi, index) => index === 0 || roi.start_s < duration);
  return kept.length > 0 ? kept : initialRois();
}
