// The suggestions rows of `npm run bench` (issue 25, ADR 038). The engine alone, on generated videos with two event
// kinds (sharp twitches and broad bursts, kept and labelled; slow drifts over the threshold, discarded), as the issue
// measures it: after 100 reviewed events over 3 videos, the held-out (leave-one-video-out) precision and recall of
// "discard" and of each label, and the Quick Score key presses "accept all ≥ 0.9" saves on the remaining events; what
// a pose set adds where the series cannot tell a twitch from a flicker; a training's time as reviews grow. Then over
// HTTP on the built server: retrieve-events of a run with 10,000 events, without a model and with suggestions.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import path from 'node:path';
import {
  featureNamesFor,
  featureRows,
  type TrainingExample,
  trainModel,
} from '../src/modules/suggestions/engine/model.js';
import { reviewSavings } from '../src/modules/suggestions/engine/review-savings.js';
import { flickerScene, reviewScene } from '../src/modules/suggestions/engine/review-scenes.js';
import { uploadReadyVideo } from './bench-uploads.js';
import type { BenchHarness } from './harness.js';

const share = (value: number | null) => (value === null ? '—' : value.toFixed(3));
const EVENTS = 10_000;

/** The engine's rows: the measure, pose features, and training time. */
export function suggestionsRows(): [string, string][] {
  const scenes = [1, 2, 3].map((seed) => reviewScene(seed));
  const started = performance.now();
  const report = reviewSavings(scenes, 100);
  const ms = performance.now() - started;
  const discard = report.decisions[1]!;
  const rows: [string, string][] = [
    [
      'Suggestions: 3 generated 10-min videos, the first 100 detected events reviewed (twitch / burst kept and labelled, drifts discarded), random forest, cross-validated by video',
      `${report.reviewed} reviewed, ${report.remaining} to suggest for; features, cross-validation and training ${ms.toFixed(0)} ms`,
    ],
    [
      'Suggestions: held-out precision / recall of "discard" (target precision ≥ 0.95) — examples',
      `${share(discard.precision)} / ${share(discard.recall)} — ${discard.examples}`,
    ],
  ];
  report.labels.forEach((figures, i) => {
    rows.push([
      `Suggestions: held-out precision / recall of the label "${report.labelNames[i]}" — examples (shown from 0.9 with 30 examples)`,
      `${share(figures.precision)} / ${share(figures.recall)} — ${figures.examples}`,
    ]);
  });
  rows.push([
    'Suggestions: Quick Score key presses on the remaining events by hand / with "accept all ≥ 0.9" (target ≥ 50 % saved); accepted (wrong)',
    `${report.keysByHand} / ${report.keysWithSuggestions} = ${(report.saved * 100).toFixed(0)} % saved; ${report.accepted} accepted (${report.acceptedWrong} wrong)`,
  ]);
  const flickers = [11, 12, 13].map((seed) => flickerScene(seed));
  const seriesOnly = reviewSavings(flickers, 100, 0.9, { withPose: false });
  const withPose = reviewSavings(flickers, 100, 0.9, { withPose: true });
  rows.push([
    'Suggestions with a pose set: 3 videos where a twitch (a paw moves) and a light flicker (nothing moves) are the same spike in the series; held-out precision of "discard", series features only / with pose features; keys saved',
    `${share(seriesOnly.decisions[1]!.precision)} / ${share(withPose.decisions[1]!.precision)}; ${(seriesOnly.saved * 100).toFixed(0)} % / ${(withPose.saved * 100).toFixed(0)} %`,
  ]);
  for (const videos of [10, 50]) {
    const examples: TrainingExample[] = [];
    for (let v = 0; v < videos; v++) {
      const scene = reviewScene(100 + v);
      const features = featureRows({
        series: scene.series,
        threshold: scene.threshold,
        times: scene.events.map((event) => event.time),
        pose: null,
      });
      scene.events.forEach((event, i) => {
        examples.push({ features: features[i]!, discarded: event.discarded, label: event.label, group: `v${v}` });
      });
    }
    const began = performance.now();
    trainModel(examples, featureNamesFor(false));
    rows.push([
      `Suggestions: a training's forests and cross-validation (10 folds by video) on ${examples.length.toLocaleString('en-US')} reviewed events of ${videos} videos (features apart)`,
      `${((performance.now() - began) / 1000).toFixed(2)} s`,
    ]);
  }
  return rows;
}

/** A tiny clip for the runs' videos: the series are imported, so the picture does not matter. */
function clipPath(cacheDir: string): string {
  mkdirSync(cacheDir, { recursive: true });
  const file = path.join(cacheDir, 'suggestions-160x120-2s.mp4');
  if (existsSync(file)) return file;
  const partial = `${file}.partial.mp4`;
  execFileSync('ffmpeg', [
    ...['-hide_banner', '-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=s=160x120:r=30', '-t', '2'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', partial],
  ]);
  renameSync(partial, file);
  return file;
}

/** A generated scene long enough for about EVENTS detected events (one every 4–9 s): 18 hours at 30 fps. */
const denseSeries = () => reviewScene(7, Math.round(EVENTS * 6.5)).series.values;

async function importSeries(h: BenchHarness, videoUrl: string, values: Float64Array): Promise<string> {
  const form = new FormData();
  form.set('timeseries', new Blob([`value\n${Array.from(values).join('\n')}\n`]), 'series.csv');
  const response = await fetch(`${h.baseUrl}${videoUrl}analysis/import_timeseries/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await h.login()}` },
    body: form,
  });
  const body = (await response.json()) as { analysis_uuid: string; event_count: number };
  if (response.status !== 201) throw new Error(`import answered ${response.status}: ${JSON.stringify(body)}`);
  return body.analysis_uuid;
}

/** One timed GET of the run's events; answers its wall time and how many carry a suggestion. */
async function timedEvents(h: BenchHarness, videoUrl: string, analysisUuid: string) {
  const started = performance.now();
  const answer = await h.api(
    'GET',
    `${videoUrl}analysis/retrieve-events/?analysis_uuid=${analysisUuid}`,
    await h.login(),
  );
  const ms = performance.now() - started;
  const events = answer.events as { suggestion: unknown }[];
  return { ms, events: events.length, suggested: events.filter((event) => event.suggestion).length };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

/** The engine's rows, then retrieve-events with 10,000 events over HTTP on the built server. */
export async function suggestionsPhase(h: BenchHarness, dataDir: string, subjectsUrl: string) {
  const rows = suggestionsRows();
  const server = await h.startServer(dataDir);
  try {
    h.log('suggestions: uploading the runs’ videos...');
    const clip = clipPath(h.cacheDir);
    const training: { videoUrl: string; run: string; seed: number }[] = [];
    for (const seed of [1, 2, 3]) {
      const { videoUrl } = await uploadReadyVideo(h, subjectsUrl, clip);
      training.push({ videoUrl, run: await importSeries(h, videoUrl, reviewScene(seed).series.values), seed });
    }
    const { videoUrl: denseUrl } = await uploadReadyVideo(h, subjectsUrl, clip);
    const dense = await importSeries(h, denseUrl, denseSeries());
    const plain = [];
    for (let i = 0; i < 5; i++) plain.push((await timedEvents(h, denseUrl, dense)).ms);
    h.log('suggestions: reviewing 100 events and training...');
    for (const [v, { videoUrl, run, seed }] of training.entries()) {
      const truth = reviewScene(seed).events;
      const answer = await h.api('GET', `${videoUrl}analysis/retrieve-events/?analysis_uuid=${run}`, await h.login());
      const changes = (answer.events as { id: number }[]).slice(0, v === 0 ? 34 : 33).map((event, i) => {
        const decided = truth[i]!;
        if (decided.discarded) return { action: 'discard', id: event.id };
        return decided.label
          ? { action: 'label', id: event.id, label: decided.label }
          : { action: 'review', id: event.id };
      });
      await h.api('POST', `${videoUrl}analysis/update-events/`, await h.login(), {
        analysis_uuid: run,
        version: answer.version,
        changes,
      });
    }
    const projectModels = `${subjectsUrl.replace(/subjects\/$/, '')}models/`;
    await h.api('POST', `${projectModels}train/`, await h.login(), { kind: 'timeseries_import' });
    for (const started = performance.now(); ; await new Promise((resolve) => setTimeout(resolve, 250))) {
      const [model] = (await h.api('GET', `${projectModels}?kind=timeseries_import`, await h.login())).results;
      if (model?.examples === 100 && model.training.state === 'idle') break;
      if (performance.now() - started > 120_000) throw new Error('no model of the 100 reviews within 2 minutes');
    }
    // The training computed the run's votes (it still had events nobody decided on): the first read finds them.
    const prepared = await timedEvents(h, denseUrl, dense);
    const warm = [];
    for (let i = 0; i < 5; i++) warm.push((await timedEvents(h, denseUrl, dense)).ms);
    // A run imported after the training: its first read computes the votes (a worker thread) and keeps them.
    const { videoUrl: laterUrl } = await uploadReadyVideo(h, subjectsUrl, clip);
    const later = await importSeries(h, laterUrl, denseSeries());
    const computed = await timedEvents(h, laterUrl, later);
    rows.push([
      `Suggestions over HTTP: retrieve-events of a run with ${prepared.events.toLocaleString('en-US')} events (a generated 18-hour series): no model yet / with suggestions, votes prepared by the training (first read, then median of 5) / a run imported after the training, first read (votes computed in a worker thread and kept); events with a suggestion`,
      `${median(plain).toFixed(0)} ms / ${prepared.ms.toFixed(0)} ms, ${median(warm).toFixed(0)} ms / ${computed.ms.toFixed(0)} ms; ${prepared.suggested.toLocaleString('en-US')} of ${prepared.events.toLocaleString('en-US')}`,
    ]);
  } finally {
    await server.stop();
  }
  return rows;
}
