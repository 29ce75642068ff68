/**
 * Links into the Agreement view (ADR 010): `/projects/{p}/agreement?subject=&video=&reference=&candidate=`, each
 * scoring in its URL form (scorings.ts). The Annotator, the Movement Detector, Analysis Logs — and Quick Score — open
 * it with these; a scoring left out is picked on the page.
 */
import { decodeScoring, encodeScoring, type Scoring } from './scorings';

export interface AgreementTarget {
  subject?: string | null;
  video?: string | null;
  reference?: Scoring | null;
  candidate?: Scoring | null;
}

export function agreementPath(projectUuid: string, target: AgreementTarget = {}): string {
  const params = new URLSearchParams();
  if (target.subject) params.set('subject', target.subject);
  if (target.subject && target.video) {
    params.set('video', target.video);
    const reference = target.reference ? encodeScoring(target.reference) : null;
    const candidate = target.candidate ? encodeScoring(target.candidate) : null;
    if (reference) params.set('reference', reference);
    if (candidate) params.set('candidate', candidate);
  }
  const text = params.toString();
  return `/projects/${projectUuid}/agreement${text ? `?${text}` : ''}`;
}

/** What a search string names; the scorings only count with a video. */
export function readAgreementSearch(params: URLSearchParams) {
  const subject = params.get('subject') || null;
  const video = subject ? params.get('video') || null : null;
  return {
    subject,
    video,
    reference: video ? decodeScoring(params.get('reference')) : null,
    candidate: video ? decodeScoring(params.get('candidate')) : null,
  };
}
