// The location-tracking rows of `npm run bench` (issue 22): runs of both trackers end to end, and the preview.
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { BenchHarness } from './harness.js';
import { measurePairs, measureRun, median, pairedMeasureRows, runMeasureRows, VIDEO } from './run-measure.js';

/** Removes every cached location reference under the server's local files, so the next run computes its own. */
function forgetReferences(folder: string) {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const inside = path.join(folder, entry.name);
    if (!entry.isDirectory()) continue;
    if (entry.name === 'location-references') rmSync(inside, { recursive: true, force: true });
    else forgetReferences(inside);
  }
}

/**
 * Location tracking (issue 22) on a server with 2 workers: each run's reference first — for body_core the
 * video's keyframes in one decode pass, checked afterwards against the pieces' own decode (ADR 029); for eztrack
 * its definition's frames, each from the keyframe before it — then the pieces side by side, each after the first
 * warming up on 600 frames before its own; the join checks them against a single pass (ADR 028). Then the
 * location preview: once on a reference setting not computed yet, then five times on the cached one.
 */
export async function locationRows(
  h: BenchHarness,
  server: { pid: number },
  { analysisUrl, dataDir }: { analysisUrl: string; dataDir: string },
  grayRate: number,
  grayReferenceSeconds: () => Promise<number>,
): Promise<[string, string][]> {
  const rows: [string, string][] = [];
  const measured = async (label: string, target: string, parameters: Record<string, unknown>) => {
    const run = await measureRun(h, server, analysisUrl, parameters, 'location_tracking');
    // The Y-plane rate is movement's concern; location reads whole gray pictures.
    rows.push(
      ...runMeasureRows(label, target, run, grayRate, grayRate).map(([name, value]): [string, string] => [
        name,
        value.replace(/, [0-9.]+ × Y plane/, ''),
      ]),
    );
  };
  h.log('analysis: location tracking with body_core (the default), 3 runs each paired with a reference decode...');
  const bodyCore = await measurePairs(3, grayReferenceSeconds, () => {
    forgetReferences(path.join(dataDir, 'files'));
    return measureRun(h, server, analysisUrl, {}, 'location_tracking');
  });
  rows.push(
    ...pairedMeasureRows(
      'Location tracking end to end (body_core, the default), ANALYSIS_WORKERS=2, whole frame, reference not cached',
      ' (target ≥ 1.0 × ffmpeg gray)',
      bodyCore,
    ),
  );
  h.log("analysis: location tracking with eztrack (its notebook's defaults)...");
  await measured(
    "Location tracking end to end (eztrack, ezTrack's notebook defaults), ANALYSIS_WORKERS=2, whole frame, reference not cached",
    '',
    { algorithm: 'eztrack' },
  );
  h.log('analysis: location previews...');
  const access = await h.login();
  const preview = async (parameters: Record<string, unknown>) => {
    const started = performance.now();
    const answer = await h.api('POST', `${analysisUrl}create-preview/`, access, {
      kind: 'location_tracking',
      parameters,
      start_s: 60,
      length_s: 3,
    });
    if (!Array.isArray(answer.x) || answer.x.length !== 3 * VIDEO.fps) {
      throw new Error(`the location preview answered ${JSON.stringify(answer).slice(0, 200)}`);
    }
    return performance.now() - started;
  };
  // 49 reference frames: a setting no run used, so its reference is computed now.
  const cold = await preview({ reference_frames: 49 });
  const warm: number[] = [];
  for (let i = 0; i < 5; i++) warm.push(await preview({}));
  rows.push([
    'Location preview (create-preview/ kind location_tracking, body_core, 3 s of 640x480 from 60 s): wall time with the reference not yet computed / cached p50 / cached max (target ~2 s)',
    `${cold.toFixed(0)} ms / ${median(warm).toFixed(0)} ms / ${Math.max(...warm).toFixed(0)} ms`,
  ]);
  return rows;
}
