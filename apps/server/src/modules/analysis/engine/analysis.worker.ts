/**
 * Entry point of an analysis worker thread: runs the tasks it is sent, one at a time (decode + count frames, detect
 * events, parse an imported CSV, make a preview), off the server's event loop, and reports progress. The thread
 * stays for the next task (worker-client.ts keeps a few warm); an `abort` message kills the task's ffmpeg and
 * fails the task, and the client then ends the thread.
 */
import { readFile } from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import { DecodeErrorReport } from '../../../adapters/media/clean-start.js';
import { ProcessError } from '../../../adapters/media/run-process.js';
import { layoutGroupPlot, renderGroupPlotPng, renderGroupPlotSvg } from '../../../lib/figures/group-plot.js';
import { parseTimeseriesCsv } from '../timeseries-csv.js';
import { detectEvents, sampleTime } from './events.js';
import { freezingSummary } from './freezing.js';
import { IntensityCounter } from './intensity.js';
import { layoutFigure } from './location/figure.js';
import { renderFigurePng } from './location/figure-raster.js';
import { renderFigureSvg } from './location/figure-svg.js';
import { polygonsMask } from './location/polygon-mask.js';
import { posePositions } from './location/pose-positions.js';
import { runLocationPreview } from './location/preview-picture.js';
import { frameHash, medianReference } from './location/reference.js';
import { locationSummary } from './location/summary.js';
import { decodeFramesAt, decodeKeyframes, KeyframesMiscounted, trackFrameRange } from './location/track-range.js';
import type { TrackerHandoff } from './location/tracker.js';
import { checkedReference, createTracker } from './location/trackers.js';
import { analyseFrameRange } from './movement.js';
import { poseSeries } from './pose-measures.js';
import { runPreview } from './preview.js';
import { writeSeriesCsv } from './series-csv.js';
import type { DetectResult, LocationSummaryTask, WorkerMessage, WorkerTask } from './tasks.js';

const port = parentPort;
if (!port) throw new Error('analysis.worker must run in a worker thread');

/** The running task's: a new one per task. */
let controller = new AbortController();

/** The first of the task's plans whose decode the decoder neither miscounts nor reports errors in (ADR 029). */
async function decodeReferenceFrames(task: Extract<WorkerTask, { kind: 'location-reference' }>) {
  const hooks = {
    signal: controller.signal,
    onSpawn: (pid: number) => send({ type: 'spawned', pid }),
    threads: task.threads,
  };
  for (const [i, plan] of task.plans.entries()) {
    try {
      if (plan.mode === 'keyframes') {
        const pictures = await decodeKeyframes(task.ffmpeg, task.source, plan.keyframes, plan.wanted, hooks);
        return { frames: plan.wanted, pictures };
      }
      const pictures = await decodeFramesAt(task.ffmpeg, task.source, plan.picks, {
        ...hooks,
        concurrency: plan.concurrency,
      });
      return { frames: plan.picks.flatMap((pick) => pick.frames), pictures };
    } catch (error) {
      const next = i < task.plans.length - 1 && !controller.signal.aborted;
      if (!next || !(error instanceof KeyframesMiscounted || error instanceof DecodeErrorReport)) throw error;
    }
  }
  throw new Error('a reference task needs at least one plan');
}

port.on('message', (message: { type: 'abort' } | { type: 'task'; task: WorkerTask }) => {
  if (message.type === 'abort') controller.abort();
  else start(message.task);
});

function send(message: WorkerMessage, transfer: ArrayBuffer[] = []) {
  port?.postMessage(message, transfer);
}

async function detect(task: Extract<WorkerTask, { kind: 'detect' }>): Promise<DetectResult> {
  const { series } = task;
  const detected = detectEvents(series, task.events);
  const eventTimes = Float64Array.from(detected.onsets, (i) => sampleTime(series, i));
  let validSamples = 0;
  for (let i = 0; i < series.values.length; i++) if (!Number.isNaN(series.values[i])) validSamples++;
  const freezing = task.freezing && !series.times ? freezingSummary(series.values, series.fps, task.freezing) : null;
  if (task.csvPath) await writeSeriesCsv(task.csvPath, series);
  return { threshold: detected.threshold, noiseTop: detected.noiseTop, eventTimes, freezing, validSamples };
}

/** A location run's summary (summary.ts), its zones rasterised over the picture first. */
function summarise({ zones, ...rest }: LocationSummaryTask['input']) {
  const masks = zones.map((zone) => ({ name: zone.name, mask: polygonsMask([zone.points], rest.width, rest.height) }));
  return locationSummary({ ...rest, zones: masks });
}

/** Frames a warm-up counts: enough for the kernel's hot functions to be optimised (V8 tiers up hot WebAssembly). */
const WARM_UP_FRAMES = 200;

/** The warm-up task: the counting kernel on synthetic 640×480 frames (a square moving on a texture), then detection. */
function warmUp(): { frames: number } {
  const whole = { x: 0, y: 0, width: 640, height: 480 };
  const parameters = { threshold: 20, opening: 0, closing: 0, small_object_removal: 0 };
  const counter = new IntensityCounter(whole.width, whole.height, parameters, true);
  const texture = Uint8Array.from({ length: whole.width * whole.height }, (_, i) => 16 + ((i * 7) % 200));
  const values = new Float64Array(WARM_UP_FRAMES);
  for (let f = 0; f < WARM_UP_FRAMES; f++) {
    // `push` maps the frame to full range in place, so each frame starts from the texture again.
    counter.frame.set(texture);
    const left = (f * 3) % (whole.width - 40);
    for (let y = 200; y < 240; y++) counter.frame.fill(30, y * whole.width + left, y * whole.width + left + 40);
    values[f] = counter.push(counter.frame, whole);
  }
  detectEvents({ values, times: null, fps: 30 }, { event_threshold_k: 3, event_threshold: null, refractory_s: 0.5 });
  return { frames: WARM_UP_FRAMES };
}

async function run(task: WorkerTask): Promise<{ result: unknown; transfer: ArrayBuffer[] }> {
  switch (task.kind) {
    case 'warm-up':
      return { result: warmUp(), transfer: [] };
    case 'frames': {
      const { values } = await analyseFrameRange(task, {
        signal: controller.signal,
        onSpawn: (pid) => send({ type: 'spawned', pid }),
        onProgress: (framesDone) => send({ type: 'progress', framesDone }),
      });
      return { result: { values }, transfer: [values.buffer as ArrayBuffer] };
    }
    case 'detect': {
      const result = await detect(task);
      return { result, transfer: [result.eventTimes.buffer as ArrayBuffer] };
    }
    case 'import': {
      const text = (await readFile(task.path, 'utf8')).replace(/^\uFEFF/, '');
      return { result: parseTimeseriesCsv(text), transfer: [] };
    }
    case 'preview': {
      const result = await runPreview(task, controller.signal);
      return { result, transfer: [] };
    }
    case 'location': {
      const make = (handoff: TrackerHandoff | null) => createTracker({ ...task.tracker, handoff });
      const verify = new Set(task.verifyFrames ?? []);
      const checked: [number, string][] = [];
      const { x, y, handoff, entry } = await trackFrameRange(task, make, task.tracker.handoff, {
        signal: controller.signal,
        onSpawn: (pid) => send({ type: 'spawned', pid }),
        onProgress: (framesDone) => send({ type: 'progress', framesDone }),
        onTracked: (frame, frameNumber) => {
          if (verify.has(frameNumber)) checked.push([frameNumber, frameHash(frame)]);
        },
      });
      return {
        result: { x, y, handoff, entry, checked },
        transfer: [x.buffer as ArrayBuffer, y.buffer as ArrayBuffer],
      };
    }
    case 'location-reference': {
      const { width, height } = task.source;
      const { frames, pictures } = await decodeReferenceFrames(task);
      const median = medianReference(pictures, width, height);
      const { reference, notes } =
        task.check && task.tracker
          ? checkedReference(pictures, median, { source: task.source, tracker: task.tracker })
          : { reference: median, notes: [] as string[] };
      return {
        result: { reference, notes, frames, hashes: pictures.map(frameHash) },
        transfer: [reference.buffer as ArrayBuffer],
      };
    }
    case 'location-preview': {
      const result = await runLocationPreview(task, controller.signal);
      return { result, transfer: [result.x.buffer as ArrayBuffer, result.y.buffer as ArrayBuffer] };
    }
    case 'location-summary':
      return { result: summarise(task.input), transfer: [] };
    case 'pose-location': {
      const { x, y, stats } = posePositions(task.positions);
      const { fps, bypassRanges } = task.positions;
      const summary = summarise({ ...task.summary, x, y, fps, bypassRanges });
      return { result: { x, y, summary, stats }, transfer: [x.buffer as ArrayBuffer, y.buffer as ArrayBuffer] };
    }
    case 'location-figure': {
      const layout = layoutFigure(task.input);
      const bytes =
        task.format === 'png' ? renderFigurePng(layout) : new TextEncoder().encode(renderFigureSvg(layout, task.title));
      return { result: { bytes }, transfer: [bytes.buffer as ArrayBuffer] };
    }
    case 'group-plot': {
      const layout = layoutGroupPlot(task.input);
      const bytes =
        task.format === 'png' ? renderGroupPlotPng(layout) : new TextEncoder().encode(renderGroupPlotSvg(layout));
      return { result: { bytes }, transfer: [bytes.buffer as ArrayBuffer] };
    }
    case 'pose-series': {
      const result = poseSeries(task);
      await writeSeriesCsv(task.csvPath, { values: result.values, times: null, fps: task.fps });
      return { result, transfer: [result.values.buffer as ArrayBuffer] };
    }
  }
}

function start(task: WorkerTask) {
  controller = new AbortController();
  run(task).then(
    ({ result, transfer }) => send({ type: 'done', result }, transfer),
    (error: unknown) => {
      const failure = error instanceof Error ? error : new Error(String(error));
      send({
        type: 'failed',
        message: failure.message,
        name: failure.name,
        exitCode: failure instanceof ProcessError ? failure.exitCode : null,
        stderrTail:
          failure instanceof ProcessError
            ? failure.stderrTail
            : failure instanceof DecodeErrorReport
              ? failure.lines.join('\n')
              : '',
      });
    },
  );
}
