// The web chart (apps/web SeriesChart) drawing 10^6 points in headless Chromium: a page bundled with esbuild from a
// generated entry (so the server's tsconfig never compiles web code), opened from disk, timed inside the page.
// `npx tsx apps/server/bench/chart-bench.ts` runs it alone and prints the rows; bench.ts adds them to its table.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';

export interface ChartBenchOptions {
  /** Points in the series (default 10^6). */
  points?: number;
  /** Page loads whose first draws are timed (default 3; the median is reported). */
  loads?: number;
  log?: (message: string) => void;
}

const root = path.resolve(import.meta.dirname, '../../..');
const componentPath = path.join(root, 'apps/web/src/components/chart/series-chart.tsx');
const EVENTS = 1000;
const CURSOR_MOVES = 100;
const ZOOMS = 5;

/** The page's script: a seeded series (random walk, spikes, bypassed stretches as NaN), the chart, and the probes. */
function entrySource(points: number): string {
  return `
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { SeriesChart } from ${JSON.stringify(componentPath)};

let seed = 42;
const random = () => {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const N = ${points};
const FPS = 30;
const duration = N / FPS;
const values = new Float64Array(N);
let level = 200;
for (let i = 0; i < N; i++) {
  level = Math.abs(level + (random() - 0.5) * 8);
  values[i] = random() < 0.001 ? level + 2000 + random() * 3000 : level + random() * 20;
}
const bypassRanges = [];
for (let k = 0; k < 5; k++) {
  const start = ((k + 0.5) * duration) / 5;
  const end = Math.min(duration, start + 20);
  bypassRanges.push([start, end]);
  for (let i = Math.floor(start * FPS); i < Math.min(N, Math.floor(end * FPS)); i++) values[i] = Number.NaN;
}
const events = Array.from({ length: ${EVENTS} }, (_, k) => ({
  time: ((k + random()) * duration) / ${EVENTS},
  discarded: random() < 0.1,
  selected: k === ${EVENTS / 2},
}));
const series = { values, times: null, fps: FPS };

// Counts canvas strokes, to show that moving the playback cursor draws nothing.
let strokes = 0;
const stroke = CanvasRenderingContext2D.prototype.stroke;
CanvasRenderingContext2D.prototype.stroke = function (...args) {
  strokes++;
  return stroke.apply(this, args);
};

const reactRoot = createRoot(document.getElementById('root'));
const render = (currentTime) =>
  reactRoot.render(
    <div style={{ width: 1200 }}>
      <SeriesChart series={series} events={events} bypassRanges={bypassRanges} threshold={1500} label="changed pixels" currentTime={currentTime} />
    </div>,
  );
// After a macrotask every microtask has run, uPlot's queued draw included.
const macrotask = () => new Promise((resolve) => {
  const channel = new MessageChannel();
  channel.port1.onmessage = () => resolve();
  channel.port2.postMessage(0);
});
const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
const over = () => document.querySelector('.u-over');
const zoomed = () => [...document.querySelectorAll('button')].some((b) => b.textContent.includes('Reset zoom'));

const renderStart = performance.now();
render(0);

window.__chartBench = {
  async firstDraw() {
    for (;;) {
      const [measure] = performance.getEntriesByName('series-chart-draw');
      if (measure) return { draw: measure.duration, fromRender: measure.startTime + measure.duration - renderStart };
      await frame();
    }
  },
  async zoom() {
    const rect = over().getBoundingClientRect();
    const y = rect.top + rect.height / 2;
    const x1 = rect.left + rect.width * 0.45;
    const x2 = rect.left + rect.width * 0.55;
    const started = performance.now();
    over().dispatchEvent(new MouseEvent('mousedown', { clientX: x1, clientY: y, button: 0, bubbles: true }));
    over().dispatchEvent(new MouseEvent('mousemove', { clientX: x2, clientY: y, movementX: x2 - x1, bubbles: true }));
    document.dispatchEvent(new MouseEvent('mouseup', { clientX: x2, clientY: y, button: 0, bubbles: true }));
    await macrotask();
    const ms = performance.now() - started;
    await frame();
    await frame();
    return { ms, zoomed: zoomed() };
  },
  async reset() {
    const rect = over().getBoundingClientRect();
    const started = performance.now();
    over().dispatchEvent(new MouseEvent('dblclick', { clientX: rect.left + 10, clientY: rect.top + 10, button: 0, bubbles: true }));
    await macrotask();
    const ms = performance.now() - started;
    await frame();
    await frame();
    return { ms, zoomed: zoomed() };
  },
  async cursor(moves) {
    await macrotask();
    const before = strokes;
    const line = document.querySelector('[data-testid="series-chart-cursor"]');
    const positions = new Set();
    const started = performance.now();
    for (let i = 1; i <= moves; i++) {
      flushSync(() => render((i / moves) * duration * 0.999));
      positions.add(line.style.transform);
    }
    const ms = (performance.now() - started) / moves;
    await macrotask();
    await frame();
    return { ms, strokes: strokes - before, positions: positions.size };
  },
};
`;
}

interface PageProbe {
  firstDraw(): Promise<{ draw: number; fromRender: number }>;
  zoom(): Promise<{ ms: number; zoomed: boolean }>;
  reset(): Promise<{ ms: number; zoomed: boolean }>;
  cursor(moves: number): Promise<{ ms: number; strokes: number; positions: number }>;
}

/** The page's global (functions passed to evaluate run in the page, so each names it itself). */
type PageGlobal = { __chartBench: PageProbe };

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** Bundles the page into a fresh directory under apps/server/.tmp (so the workspace's node_modules resolve). */
async function buildPage(points: number): Promise<{ dir: string; url: string }> {
  const dir = path.join(root, 'apps/server/.tmp/chart-bench');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'entry.jsx'), entrySource(points));
  await build({
    entryPoints: [path.join(dir, 'entry.jsx')],
    outdir: dir,
    bundle: true,
    format: 'iife',
    minify: true,
    jsx: 'automatic',
    target: 'es2022',
    define: { 'process.env.NODE_ENV': '"production"' },
    // The chart's '@/…' imports resolve through apps/web/tsconfig.json, found next to the web sources.
    logLevel: 'error',
  });
  writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html><head><meta charset="utf-8"><link rel="stylesheet" href="entry.css"></head>' +
      '<body style="margin:0;font-family:sans-serif"><div id="root"></div><script src="entry.js"></script></body></html>',
  );
  return { dir, url: pathToFileURL(path.join(dir, 'index.html')).href };
}

/** Rows for the benchmark table: first draw, zoom and reset redraws, and playback-cursor moves. */
export async function chartBench(options: ChartBenchOptions = {}): Promise<[string, string][]> {
  const points = options.points ?? 1_000_000;
  const loads = options.loads ?? 3;
  const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));
  const pointsLabel = points === 1_000_000 ? '10^6' : points.toLocaleString('en-US');

  log('chart: bundling the page...');
  const page = await buildPage(points);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  try {
    const firstDraws: number[] = [];
    const fromRenders: number[] = [];
    const zooms: number[] = [];
    const resets: number[] = [];
    let cursor: { ms: number; strokes: number; positions: number } | undefined;
    for (let load = 0; load < loads; load++) {
      log(`chart: page load ${load + 1}/${loads}...`);
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
      const tab = await context.newPage();
      const errors: string[] = [];
      tab.on('pageerror', (error) => errors.push(error.message));
      tab.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      await tab.goto(page.url);
      await tab.waitForFunction(() => (globalThis as unknown as PageGlobal).__chartBench !== undefined, undefined, {
        polling: 50,
      });
      const first = await tab.evaluate(() => (globalThis as unknown as PageGlobal).__chartBench.firstDraw());
      firstDraws.push(first.draw);
      fromRenders.push(first.fromRender);
      if (load === 0) {
        for (let i = 0; i < ZOOMS; i++) {
          const zoom = await tab.evaluate(() => (globalThis as unknown as PageGlobal).__chartBench.zoom());
          const reset = await tab.evaluate(() => (globalThis as unknown as PageGlobal).__chartBench.reset());
          if (!zoom.zoomed || reset.zoomed) throw new Error('the chart did not zoom in and out as driven');
          zooms.push(zoom.ms);
          resets.push(reset.ms);
        }
        cursor = await tab.evaluate(
          (moves) => (globalThis as unknown as PageGlobal).__chartBench.cursor(moves),
          CURSOR_MOVES,
        );
        if (cursor.positions < CURSOR_MOVES) throw new Error('the playback cursor did not follow currentTime');
      }
      if (errors.length > 0) throw new Error(`chart page errors: ${errors.join('; ')}`);
      await context.close();
    }
    const title = `Web chart (${pointsLabel} points, ${EVENTS.toLocaleString('en-US')} events, headless Chromium, no GPU)`;
    return [
      [
        `${title}: first draw (uPlot created to drawn), median of ${loads} page loads`,
        `${median(firstDraws).toFixed(0)} ms`,
      ],
      [`${title}: render call to first draw (x array, React, uPlot)`, `${median(fromRenders).toFixed(0)} ms`],
      [`${title}: redraw after a drag zoom to 10% of the span, median of ${ZOOMS}`, `${median(zooms).toFixed(1)} ms`],
      [
        `${title}: redraw after a double-click reset to all points, median of ${ZOOMS}`,
        `${median(resets).toFixed(1)} ms`,
      ],
      [
        `${title}: playback cursor move (React update, no canvas work), mean of ${CURSOR_MOVES}`,
        `${cursor!.ms.toFixed(3)} ms (canvas strokes: ${cursor!.strokes})`,
      ],
    ];
  } finally {
    await browser.close();
    rmSync(page.dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  chartBench()
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
