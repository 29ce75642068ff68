/**
 * A scoring of a video as the Agreement view and the Calibrate panel hold it, its request form, and its form in a URL
 * (`run_detected:<run>`, `run_reviewed:<run>`, `run_reviewed:<run>:<label>`, `scorer:<run>:<user id>`,
 * `track:<track>`; an upload lives only on the page). Other pages link here with these, so the forms are a contract (ADR 010).
 */

export type ScoringKind = 'run_detected' | 'run_reviewed' | 'scorer' | 'track' | 'upload';

export interface UploadedScoring {
  fileName: string;
  events?: number[];
  ranges?: [number, number][];
}

export interface Scoring {
  kind: ScoringKind;
  analysisUuid?: string | null;
  /** run_reviewed only: the one label to keep. */
  label?: string | null;
  /** scorer only: whose blind scoring of the run (ADR 014). */
  userId?: number | null;
  trackUuid?: string | null;
  upload?: UploadedScoring | null;
}

/** The request's side, as `agreement/` and `calibrate/` take it. */
export interface ScoringRequest {
  kind: ScoringKind;
  analysis_uuid?: string;
  label?: string;
  user_id?: number;
  annotation_config_uuid?: string;
  events?: number[];
  ranges?: [number, number][];
}

export const SCORING_KIND_LABELS: Record<ScoringKind, string> = {
  run_detected: 'Run: events as detected',
  run_reviewed: 'Run: events as reviewed',
  scorer: 'Run: as scored blind by…',
  track: 'Annotation track',
  upload: 'Uploaded CSV',
};

/** The request form, or null while the scoring is not complete (no run, track or file chosen yet). */
export function scoringRequest(scoring: Scoring): ScoringRequest | null {
  switch (scoring.kind) {
    case 'run_detected':
      return scoring.analysisUuid ? { kind: 'run_detected', analysis_uuid: scoring.analysisUuid } : null;
    case 'run_reviewed':
      if (!scoring.analysisUuid) return null;
      return scoring.label
        ? { kind: 'run_reviewed', analysis_uuid: scoring.analysisUuid, label: scoring.label }
        : { kind: 'run_reviewed', analysis_uuid: scoring.analysisUuid };
    case 'scorer':
      return scoring.analysisUuid && scoring.userId
        ? { kind: 'scorer', analysis_uuid: scoring.analysisUuid, user_id: scoring.userId }
        : null;
    case 'track':
      return scoring.trackUuid ? { kind: 'track', annotation_config_uuid: scoring.trackUuid } : null;
    case 'upload': {
      const upload = scoring.upload;
      if (upload?.ranges) return { kind: 'upload', ranges: upload.ranges };
      if (upload?.events) return { kind: 'upload', events: upload.events };
      return null;
    }
  }
}

/** The URL form; null for an upload or an incomplete scoring. */
export function encodeScoring(scoring: Scoring): string | null {
  switch (scoring.kind) {
    case 'run_detected':
      return scoring.analysisUuid ? `run_detected:${scoring.analysisUuid}` : null;
    case 'run_reviewed':
      if (!scoring.analysisUuid) return null;
      return `run_reviewed:${scoring.analysisUuid}${scoring.label ? `:${encodeURIComponent(scoring.label)}` : ''}`;
    case 'scorer':
      return scoring.analysisUuid && scoring.userId ? `scorer:${scoring.analysisUuid}:${scoring.userId}` : null;
    case 'track':
      return scoring.trackUuid ? `track:${scoring.trackUuid}` : null;
    case 'upload':
      return null;
  }
}

/** The scoring a URL names, or null when the text is not one. */
export function decodeScoring(text: string | null | undefined): Scoring | null {
  if (!text) return null;
  const [kind, id, label] = text.split(':');
  if (!id) return null;
  if (kind === 'run_detected' && label === undefined) return { kind, analysisUuid: id };
  if (kind === 'run_reviewed') {
    let decoded: string | null = null;
    try {
      decoded = label ? decodeURIComponent(label) : null;
    } catch {
      return null;
    }
    return { kind, analysisUuid: id, label: decoded };
  }
  if (kind === 'scorer' && label !== undefined && /^[1-9]\d*$/.test(label)) {
    return { kind, analysisUuid: id, userId: Number(label) };
  }
  if (kind === 'track' && label === undefined) return { kind, trackUuid: id };
  return null;
}
