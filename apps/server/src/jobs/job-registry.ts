import type { AppContext } from '../context.js';
import { analysisDetectJob, analysisSegmentJob } from '../modules/analysis/analysis.runs.js';
import { deletePendingFilesJob } from '../modules/files/file-deletion.js';
import { processVideoJob } from '../modules/videos/video.jobs.js';
import type { AnyJobDefinition } from './job-queue.js';

/** Every background job the app runs. A worker process starts one consumer per entry. */
export const jobDefinitions: AnyJobDefinition<AppContext>[] = [
  deletePendingFilesJob,
  processVideoJob,
  analysisSegmentJob,
  analysisDetectJob,
];
