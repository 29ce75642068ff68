// The pose rows of `npm run bench` (issue 24): importing one hour at 30 fps of 2 animals × 13 body parts (2.8 M
// points) as DeepLabCut CSV and as SLEAP's analysis HDF5, over the HTTP API (target ≤ 10 s each), a 1,000-frame
// window for the player, and the runs that read a whole set (ADR 037): a derived series and a location run from a
// body part, from the request to the run's end. The files are written by the same writers as the API tests. bench.ts
// passes its helpers in.
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { dlcCsv, makeTruth, sleapH5 } from '../src/modules/pose/pose-files.test-support.js';
import { makeHourVideo } from './agreement-bench.js';
import { uploadReadyVideo } from './bench-uploads.js';
import type { BenchHarness } from './harness.js';

const FRAMES = 30 * 3600;
const PARTS = [
  'nose',
  'left_ear',
  'right_ear',
  'neck',
  'left_forepaw',
  'right_forepaw',
  'spine_1',
  'spine_2',
  'left_hindpaw',
  'right_hindpaw',
  'tail_base',
  'tail_mid',
  'tail_tip',
];

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function importTimed(h: BenchHarness, poseUrl: string, file: string) {
  const form = new FormData();
  form.set('file', new Blob([await readFile(file)]), path.basename(file));
  const started = performance.now();
  const response = await fetch(`${h.baseUrl}${poseUrl}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await h.login()}` },
    body: form,
  });
  const body = (await response.json()) as { pose_uuid: string; keypoints: unknown[] };
  const elapsed = performance.now() - started;
  if (response.status !== 201) throw new Error(`pose import answered ${response.status}: ${JSON.stringify(body)}`);
  if (body.keypoints.length !== 26) throw new Error(`the import has ${body.keypoints.length} keypoints`);
  return { elapsed, poseUuid: body.pose_uuid };
}

/** Milliseconds from creating a run to its success (polled every 50 ms). */
async function runTimed(h: BenchHarness, analysisUrl: string, body: unknown): Promise<number> {
  const token = await h.login();
  const started = performance.now();
  const { analysis_uuid: uuid } = await h.api('POST', analysisUrl, token, body);
  for (;;) {
    const run = await h.api('GET', `${analysisUrl}${uuid}/`, token);
    if (run.status === 'succeeded') return performance.now() - started;
    if (run.status !== 'queued' && run.status !== 'running') throw new Error(`the run ${run.status}: ${run.error}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function posePhase(h: BenchHarness, dataDir: string, subjectsUrl: string): Promise<[string, string][]> {
  const rows: [string, string][] = [];
  h.log('pose: preparing the 1-hour video and the pose files...');
  const video = makeHourVideo(h.cacheDir);
  const dir = path.join(h.cacheDir, 'pose');
  mkdirSync(dir, { recursive: true });
  const truth = makeTruth(FRAMES, { mouse1: PARTS, mouse2: PARTS });
  const csv = path.join(dir, 'hour-2x13.csv');
  writeFileSync(csv, dlcCsv(truth, { multi: true }));
  const h5 = path.join(dir, 'hour-2x13.analysis.h5');
  await sleapH5(h5, truth, [[0, 1]], 'matlab');
  const server = await h.startServer(dataDir);
  try {
    const { videoUrl } = await uploadReadyVideo(h, subjectsUrl, video, 120_000);
    const poseUrl = `${videoUrl}pose/`;
    h.log('pose: importing...');
    const fromCsv = await importTimed(h, poseUrl, csv);
    rows.push([
      `Pose import (POST …/pose/), DeepLabCut CSV, multi-animal: 1 h at 30 fps, 2 animals × 13 body parts (2.8 M points, ${(statSync(csv).size / 1024 ** 2).toFixed(0)} MB), upload included (target ≤ 10 s)`,
      seconds(fromCsv.elapsed),
    ]);
    const fromH5 = await importTimed(h, poseUrl, h5);
    rows.push([
      `Pose import, SLEAP analysis HDF5 of the same points (${(statSync(h5).size / 1024 ** 2).toFixed(0)} MB), upload included (target ≤ 10 s)`,
      seconds(fromH5.elapsed),
    ]);
    const started = performance.now();
    await h.api('GET', `${poseUrl}${fromCsv.poseUuid}/frames/?start=54000&count=1000`, await h.login());
    rows.push([
      'Pose frames (…/frames/?count=1000) in the middle of that hour: wall time',
      seconds(performance.now() - started),
    ]);
    const analysisUrl = `${videoUrl}analysis/`;
    const speed = await runTimed(h, analysisUrl, {
      kind: 'pose_series',
      parameters: { pose_uuid: fromCsv.poseUuid, measure: 'speed', individual: 'mouse1', parts: ['nose'] },
    });
    rows.push(['Pose-derived series (speed of one part) of that hour: request to succeeded run', seconds(speed)]);
    const zone = [
      [40, 30],
      [120, 30],
      [120, 90],
      [40, 90],
    ];
    const located = await runTimed(h, analysisUrl, {
      kind: 'location_tracking',
      parameters: {
        source: { pose_uuid: fromCsv.poseUuid, individual: 'mouse1', part: 'nose' },
        zones: [{ name: 'centre', points: zone }],
        bin_s: 300,
      },
    });
    rows.push([
      'Location from a body part (one zone, 5-min bins) of that hour: request to succeeded run',
      seconds(located),
    ]);
  } finally {
    await server.stop();
  }
  return rows;
}
