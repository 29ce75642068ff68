// The Annotator's timeline and marking (apps/web: AnnotationTimeline, useAnnotationEditor, useAnnotatorKeys) with
// 5,000 bouts over a 6-hour video, in headless Chromium: real key presses and wheel events from Playwright, timed in
// the page from the input event's timestamp to the end of the canvas draw that shows its result.
// `npx tsx apps/server/bench/annotator-bench.ts` runs it alone; bench.ts adds its rows to the table.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';

const root = path.resolve(import.meta.dirname, '../../..');
const web = (file: string) => JSON.stringify(path.join(root, 'apps/web/src/features/annotator', file));
const BOUTS = 5000;
const TRACKS = 4;
const HOURS = 6;
const PRESSES = 20;
const ZOOM_STEPS = 15;
const PANS = 8;

/** The page: four tracks sharing 5,000 seeded bouts, a fake clock for the current frame, and the probes. */
function entrySource(): string {
  return `
import { useEffect, useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { AnnotationTimeline } from ${web('components/annotation-timeline.tsx')};
import { useAnnotationEditor } from ${web('hooks/use-annotation-editor.ts')};
import { useAnnotatorKeys } from ${web('hooks/use-annotator-keys.ts')};
import { boutFromFrames } from ${web('marking.ts')};
import { wholeVideo } from ${web('timeline-view.ts')};

let seed = 7;
const random = () => {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const FPS = 30;
const DURATION = ${HOURS} * 3600;
const FRAMES = DURATION * FPS;
const video = { fps: FPS, end: DURATION, duration: DURATION };
const tracks = ['g', 'r', 'f', 't'].map((key, i) => ({ id: 'track-' + key, name: 'Track ' + key, hotkey: key, color: ['#e11d48', '#2563eb', '#16a34a', '#d97706'][i] }));
// ${BOUTS} bouts in all: each track's share spread over the video, 1-20 s long, never overlapping.
const initial = {};
for (const track of tracks) {
  const count = ${BOUTS} / ${TRACKS};
  const slot = FRAMES / count;
  const list = [];
  for (let k = 0; k < count; k++) {
    const start = Math.floor(k * slot + random() * slot * 0.3);
    const length = Math.max(1, Math.floor(30 + random() * 570));
    list.push([start / FPS, Math.min(start + length, Math.floor((k + 1) * slot) - 1) / FPS]);
  }
  initial[track.id] = list;
}

const clock = {
  time: 0,
  listeners: new Set(),
  get: () => clock.time,
  set(time) { clock.time = time; for (const l of clock.listeners) l(); },
  subscribe(listener) { clock.listeners.add(listener); return () => clock.listeners.delete(listener); },
};

function Harness() {
  const editor = useAnnotationEditor({ tracks, video, onEdit: () => {}, notify: () => {} });
  const [view, setView] = useState(() => wholeVideo({ duration: DURATION, fps: FPS, width: 1200 }));
  const [ready, setReady] = useState(false);
  useEffect(() => {
    for (const track of tracks) editor.rebase(track.id, initial[track.id]);
    setReady(true);
  }, []);
  useAnnotatorKeys({
    readOnly: false,
    trackForKey: (key) => tracks.find((t) => t.hotkey === key)?.id ?? null,
    pressTrackKey: (track) => editor.pressKey(track, Math.round(clock.get() * FPS)),
    togglePlay: () => {}, step: () => {}, jump: () => {}, setRate: () => {},
    deleteSelected: editor.deleteSelected, undo: editor.undo, redo: editor.redo,
    zoom: () => {}, cancel: editor.cancel,
  });
  const marking = useMemo(() => {
    const out = {};
    const now = Math.round(clock.get() * FPS);
    for (const [track, start] of Object.entries(editor.state.open)) out[track] = boutFromFrames(start, now, video);
    return out;
  }, [editor.state.open]);
  window.__boutCount = Object.values(editor.state.ranges).reduce((n, list) => n + list.length, 0);
  window.__view = view;
  if (!ready) return null;
  return (
    <div style={{ width: 1400 }}>
      <AnnotationTimeline tracks={tracks} ranges={editor.state.ranges} marking={marking} selected={editor.state.selected}
        view={view} onViewChange={setView} video={video} playhead={clock} readOnly={false}
        onSeek={() => {}} onSelect={editor.select} onDraw={editor.draw} onEdgeDrag={() => {}} />
    </div>
  );
}

// Input timestamps (captured first, before the page's own listeners) and the frame after each draw.
// timeStamp: when the input happened; handledAt: when the page got it (Chromium delivers wheel events with the next
// rendering frame, so the two differ by up to a frame before any of our code runs).
let lastInput = 0;
let handledAt = 0;
for (const type of ['keydown', 'wheel']) {
  window.addEventListener(type, (e) => { lastInput = e.timeStamp; handledAt = performance.now(); }, { capture: true, passive: true });
}
const draws = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (entry.name !== 'annotator-timeline-draw') continue;
    const record = { start: entry.startTime, end: entry.startTime + entry.duration, duration: entry.duration, frame: null };
    draws.push(record);
    requestAnimationFrame((t) => { record.frame = t; });
  }
}).observe({ entryTypes: ['measure'] });

const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
createRoot(document.getElementById('root')).render(<Harness />);

window.__annotatorBench = {
  setTime(seconds) { clock.set(seconds); },
  count: () => window.__boutCount,
  span: () => window.__view.span,
  /** The first draw after the last input: how long after the input it ended, and the next frame after it. */
  async afterInput() {
    const since = lastInput;
    const handled = handledAt;
    for (let i = 0; i < 60; i++) {
      await frame();
      const draw = draws.find((d) => d.start >= since && d.frame !== null);
      if (draw) {
        return { drawn: draw.end - since, handled: draw.end - handled, nextFrame: draw.frame - since, draw: draw.duration };
      }
    }
    throw new Error('no draw followed the input');
  },
};
`;
}

interface Timing {
  /** From the input's timestamp to the end of the draw showing its result. */
  drawn: number;
  /** From the page receiving the input to the end of that draw (our code only). */
  handled: number;
  nextFrame: number;
  draw: number;
}
interface PageProbe {
  setTime(seconds: number): void;
  count(): number;
  span(): number;
  afterInput(): Promise<Timing>;
}
type PageGlobal = { __annotatorBench: PageProbe };

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const max = (values: number[]) => Math.max(...values);

async function buildPage(): Promise<{ dir: string; url: string }> {
  const dir = path.join(root, 'apps/server/.tmp/annotator-bench');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'entry.jsx'), entrySource());
  await build({
    entryPoints: [path.join(dir, 'entry.jsx')],
    outdir: dir,
    bundle: true,
    format: 'iife',
    minify: true,
    jsx: 'automatic',
    target: 'es2022',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'error',
  });
  writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html><head><meta charset="utf-8"></head>' +
      '<body style="margin:0;font-family:sans-serif"><div id="root"></div><script src="entry.js"></script></body></html>',
  );
  return { dir, url: pathToFileURL(path.join(dir, 'index.html')).href };
}

/** Rows: key press → bout drawn, and zoom/pan redraws, with 5,000 bouts over 6 hours. */
export async function annotatorBench(options: { log?: (message: string) => void } = {}): Promise<[string, string][]> {
  const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));
  log('annotator: bundling the page...');
  const page = await buildPage();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 600 }, deviceScaleFactor: 1 });
    const tab = await context.newPage();
    const errors: string[] = [];
    tab.on('pageerror', (error) => errors.push(error.message));
    await tab.goto(page.url);
    await tab.waitForFunction(() => (globalThis as unknown as PageGlobal).__annotatorBench?.count() > 0);
    const bench = {
      setTime: (seconds: number) =>
        tab.evaluate((value) => (globalThis as unknown as PageGlobal).__annotatorBench.setTime(value), seconds),
      count: () => tab.evaluate(() => (globalThis as unknown as PageGlobal).__annotatorBench.count()),
      span: () => tab.evaluate(() => (globalThis as unknown as PageGlobal).__annotatorBench.span()),
      afterInput: () => tab.evaluate(() => (globalThis as unknown as PageGlobal).__annotatorBench.afterInput()),
    };
    const boutsAtStart = await bench.count();
    if (boutsAtStart !== BOUTS) throw new Error(`the page holds ${boutsAtStart} bouts, not ${BOUTS}`);

    log('annotator: key presses...');
    const starts: Timing[] = [];
    const stops: Timing[] = [];
    for (let i = 0; i < PRESSES; i++) {
      const at = ((i + 0.5) / PRESSES) * HOURS * 3600;
      await bench.setTime(at);
      await tab.keyboard.press('g');
      starts.push(await bench.afterInput());
      await bench.setTime(at + 4);
      await tab.keyboard.press('g');
      stops.push(await bench.afterInput());
    }
    if ((await bench.count()) === boutsAtStart) throw new Error('the key presses added no bout');

    log('annotator: zoom and pan...');
    const box = (await tab.getByTestId('timeline-canvas').boundingBox())!;
    await tab.mouse.move(box.x + box.width * 0.37, box.y + box.height / 2);
    const zooms: Timing[] = [];
    const pans: Timing[] = [];
    const zoom = async (steps: number, deltaY: number) => {
      await tab.keyboard.down('Control');
      for (let i = 0; i < steps; i++) {
        await tab.mouse.wheel(0, deltaY);
        zooms.push(await bench.afterInput());
      }
      await tab.keyboard.up('Control');
    };
    const pan = async (times: number) => {
      for (let i = 0; i < times; i++) {
        await tab.mouse.wheel(i % 2 ? 300 : -200, 0);
        pans.push(await bench.afterInput());
      }
    };
    // Each notch zooms by e^0.6: 15 notches take the whole 6 hours down to about 3 s (a hundred frames).
    await zoom(ZOOM_STEPS, -240);
    const zoomedSpan = await bench.span();
    await pan(PANS);
    await zoom(ZOOM_STEPS / 3, 240);
    await pan(PANS);
    await zoom(ZOOM_STEPS / 3, 240);
    await pan(PANS);
    await zoom(ZOOM_STEPS / 3, 240);
    if (errors.length > 0) throw new Error(`annotator page errors: ${errors.join('; ')}`);
    await context.close();

    const title = `Annotator (${BOUTS.toLocaleString('en-US')} bouts on ${TRACKS} tracks over a ${HOURS}-hour video, headless Chromium, no GPU)`;
    const fmt = (values: number[]) => `median ${median(values).toFixed(1)} ms, max ${max(values).toFixed(1)} ms`;
    const zoomLabel = zoomedSpan < 60 ? `${zoomedSpan.toFixed(1)} s` : `${(zoomedSpan / 60).toFixed(1)} min`;
    return [
      [
        `${title}: track key pressed (key event) → the finished bout drawn, ${PRESSES} presses`,
        fmt(stops.map((t) => t.drawn)),
      ],
      [
        `${title}: track key pressed → the next frame after that draw begins (on screen with it), ${PRESSES} presses`,
        fmt(stops.map((t) => t.nextFrame)),
      ],
      [`${title}: start key pressed → the open bout drawn`, fmt(starts.map((t) => t.drawn))],
      [
        `${title}: Ctrl+wheel zoom (whole video ↔ ${zoomLabel}) handled → redrawn (our code), ${zooms.length} notches`,
        fmt(zooms.map((t) => t.handled)),
      ],
      [`${title}: zoom redraw, canvas drawing alone`, fmt(zooms.map((t) => t.draw))],
      [
        `${title}: sideways wheel pan handled → redrawn (our code), ${pans.length} pans at 3 zooms`,
        fmt(pans.map((t) => t.handled)),
      ],
      [
        `${title}: zoom or pan, wheel timestamp → redrawn (includes Chromium delivering wheel events with the next frame)`,
        fmt([...zooms, ...pans].map((t) => t.drawn)),
      ],
    ];
  } finally {
    await browser.close();
    rmSync(page.dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  annotatorBench()
    .then((rows) => {
      console.log(
        ['| Measure | Result |', '|---|---|', ...rows.map(([name, value]) => `| ${name} | ${value} |`)].join('\n'),
      );
    })
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
