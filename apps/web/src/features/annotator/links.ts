/**
 * Links into the Annotator (`?subject=<subject_uuid>&video=<video_uuid>`); the video only counts with its subject.
 */
export interface AnnotatorTarget {
  subject?: string | null;
  video?: string | null;
}

export function annotatorPath(projectUuid: string, target: AnnotatorTarget = {}): string {
  const params = new URLSearchParams();
  if (target.subject) params.set('subject', target.subject);
  if (target.subject && target.video) params.set('video', target.video);
  const text = params.toString();
  return `/projects/${projectUuid}/annotator${text ? `?${text}` : ''}`;
}

export function readAnnotatorSearch(params: URLSearchParams): { subject: string | null; video: string | null } {
  const subject = params.get('subject') || null;
  return { subject, video: subject ? params.get('video') || null : null };
}
