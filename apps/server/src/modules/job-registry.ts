import type { AppContext } from '../context.js';
import type { AnyJobDefinition } from '../jobs/job-queue.js';
import { analysisDetectJob, analysisSegmentJob } from './analysis/analysis.runs.js';
import { prepareCleanStarts } from './analysis/clean-starts.js';
import { poseLocationJob } from './analysis/location.pose.js';
import { analysisTrackJob, locationReferenceJob } from './analysis/location.runs.js';
import { poseSeriesJob } from './analysis/pose-series.js';
import { authMailJob } from './auth/auth.mail.js';
import { deletePendingFilesJob } from './files/file-deletion.js';
import { trainSuggestionsJob } from './suggestions/suggestions.training.js';
import { trashPurgeJob } from './trash/trash.purge.js';
import { processVideoJobWith } from './videos/video.jobs.js';
import { playbackPieceJob } from './videos/video.playback.js';

/**
 * Every background job the app runs. A worker process starts one consumer per entry. The list lives with the
 * modules (whose handlers need the context); the context only receives it, so nothing imports back into it.
 *
 * It is also where one module's job is followed by another's work, so that modules point one way: `videos`
 * knows nothing of `analysis`, yet a processed video gets its clean decode starts proven (ADR 006) before it is
 * ready, on the original the processing job already holds.
 */
export const jobDefinitions: AnyJobDefinition<AppContext>[] = [
  deletePendingFilesJob,
  processVideoJobWith([prepareCleanStarts]),
  playbackPieceJob,
  analysisSegmentJob,
  analysisTrackJob,
  locationReferenceJob,
  analysisDetectJob,
  poseSeriesJob,
  poseLocationJob,
  authMailJob,
  trainSuggestionsJob,
  trashPurgeJob,
];
