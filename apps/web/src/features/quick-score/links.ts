/**
 * Links into Quick Score (others link here, so the query keys are a contract — the Movement Detector's names):
 * `/projects/{p}/quick-score?subject=<subject_uuid>&video=<video_uuid>&run=<analysis_uuid>`.
 */
export interface QuickScoreTarget {
  subject?: string | null;
  video?: string | null;
  run?: string | null;
}

export function quickScorePath(projectUuid: string, target: QuickScoreTarget = {}): string {
  const params = new URLSearchParams();
  if (target.subject) params.set('subject', target.subject);
  if (target.subject && target.video) params.set('video', target.video);
  if (target.subject && target.video && target.run) params.set('run', target.run);
  const query = params.toString();
  return `/projects/${projectUuid}/quick-score${query ? `?${query}` : ''}`;
}

/** The target a search string names (a video only with its subject, a run only with its video). */
export function readQuickScoreSearch(params: URLSearchParams): Required<QuickScoreTarget> {
  const subject = params.get('subject') || null;
  const video = subject ? params.get('video') || null : null;
  const run = video ? params.get('run') || null : null;
  return { subject, video, run };
}
