/** How analysis kinds and run statuses read, the same on every page (Home, Analysis Logs, Movement Detector, …). */
import type { AnalysisKind, AnalysisStatus } from './api';

export const KIND_LABELS: Record<AnalysisKind, string> = {
  movement_detection: 'Movement detection',
  event_detection: 'Event detection',
  timeseries_import: 'Time series import',
  location_tracking: 'Location tracking',
  pose_series: 'Pose-derived series',
};

/** "Revoked": the word of the spec's run transitions and of the Revoke action in Analysis Logs. */
export const STATUS_LABELS: Record<AnalysisStatus, string> = {
  queued: 'Queued',
  running: 'Running',
  succeeded: 'Succeeded',
  failed: 'Failed',
  revoked: 'Revoked',
};
