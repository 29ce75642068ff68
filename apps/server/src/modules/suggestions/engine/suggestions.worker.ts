/** Entry point of a suggestions worker thread: runs one task off the server's event loop, answers, and exits. */
import { parentPort, workerData } from 'node:worker_threads';
import { cleanTrack, readKeypoint } from '../../analysis/engine/pose-measures.js';
import { featureRows, predict, trainModel } from './model.js';
import type { PoseTracks } from './pose-features.js';
import type { PoseSetInput, RunInput, SuggestionReply, SuggestionTask } from './suggestions-tasks.js';

const port = parentPort;
if (!port) throw new Error('suggestions.worker must run in a worker thread');

/** The pose-derived series' defaults (ADR 032): a point below 0.6 likelihood is missing, gaps up to 5 frames filled. */
const CLEANING = { likelihoodCutoff: 0.6, maxGapFrames: 5 };

function poseTracks(pose: PoseSetInput, fps: number): PoseTracks {
  const stats = { missing_points: 0, interpolated_points: 0 };
  const tracks = pose.keypoints.map((k) =>
    cleanTrack(
      readKeypoint(pose.bytes, pose.frameCount, pose.keypointCount, k),
      { ...CLEANING, hasLikelihood: pose.hasLikelihood },
      stats,
    ),
  );
  return { fps, x: tracks.map((track) => track.x), y: tracks.map((track) => track.y) };
}

function rowsOf(run: RunInput): number[][] {
  return featureRows({
    series: run.series,
    threshold: run.threshold,
    times: Array.from(run.times),
    pose: run.pose ? poseTracks(run.pose, run.series.fps) : null,
  });
}

function run(task: SuggestionTask): unknown {
  switch (task.kind) {
    case 'features':
      return rowsOf(task.run);
    case 'train':
      return trainModel(task.examples, task.features);
    case 'predict':
      return predict(task.model, rowsOf(task.run));
  }
}

try {
  port.postMessage({ ok: true, result: run(workerData as SuggestionTask) } satisfies SuggestionReply);
} catch (error) {
  port.postMessage({
    ok: false,
    message: error instanceof Error ? error.message : String(error),
  } satisfies SuggestionReply);
}
