/**
 * Links into the Movement Detector (others link here, so the query keys are a contract):
 * `?subject=<subject_uuid>&video=<video_uuid>&run=<analysis_uuid>`; `run` opens that run's result and loads its
 * parameters; `edit=1` with `run` loads the parameters only, as the starting point of a new run.
 */
export interface MovementDetectorTarget {
  subject?: string | null;
  video?: string | null;
  run?: string | null;
  edit?: boolean;
}

export const MD_PARAMS = { subject: 'subject', video: 'video', run: 'run', edit: 'edit' } as const;

export function movementDetectorSearch(target: MovementDetectorTarget): string {
  const params = new URLSearchParams();
  if (target.subject) params.set(MD_PARAMS.subject, target.subject);
  if (target.subject && target.video) params.set(MD_PARAMS.video, target.video);
  if (target.subject && target.video && target.run) {
    params.set(MD_PARAMS.run, target.run);
    if (target.edit) params.set(MD_PARAMS.edit, '1');
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

export function movementDetectorPath(projectUuid: string, target: MovementDetectorTarget = {}): string {
  return `/projects/${projectUuid}/movement-detector${movementDetectorSearch(target)}`;
}

/** The target a search string names (`edit` only counts with a run). */
export function readMovementDetectorSearch(params: URLSearchParams): Required<MovementDetectorTarget> {
  const subject = params.get(MD_PARAMS.subject) || null;
  const video = subject ? params.get(MD_PARAMS.video) || null : null;
  const run = video ? params.get(MD_PARAMS.run) || null : null;
  return { subject, video, run, edit: run !== null && params.get(MD_PARAMS.edit) === '1' };
}
