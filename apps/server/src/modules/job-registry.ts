import type { AppContext } from '../context.js';
import type { AnyJobDefinition } from '../jobs/job-queue.js';
import { analysisDetectJob, analysisSegmentJob } from './analysis/analysis.runs.js';
import { authMailJob } from './auth/auth.mail.js';
import { deletePendingFilesJob } from './files/file-deletion.js';
import { trashPurgeJob } from './trash/trash.purge.js';
import { processVideoJob } from './videos/video.jobs.js';
import { playbackPieceJob } from './videos/video.playback.js';

/**
 * Every background job the app runs. A worker process starts one consumer per entry. The list lives with the
 * modules (whose handlers need the context); the context only receives it, so nothing imports back into it.
 */
export const jobDefinitions: AnyJobDefinition<AppContext>[] = [
  deletePendingFilesJob,
  processVideoJob,
  playbackPieceJob,
  analysisSegmentJob,
  analysisDetectJob,
  authMailJob,
  trashPurgeJob,
];
