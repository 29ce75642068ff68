// `npm run bench`: starts the built server on a fresh DATA_DIR (embedded shape: PGlite, local disk) and measures it
// over real HTTP. Prints a markdown table and writes it at the head of docs/benchmarks.md (the dated sections below
// it stay). `npm run bench -- --only=analysis` (or `--only=movement`, `--only=agreement`, `--only=copy`,
// `--only=pose`, `--only=batches`…) runs those rows alone and prints them (load and quick-score also rewrite their
// sections).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  createReadStream,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { resolveMediaBinaries } from '../src/adapters/media/binaries.js';
import { agreementPhase } from './agreement-bench.js';
import { analysisPhase } from './analysis-bench.js';
import { annotatorBench } from './annotator-bench.js';
import { batchPhase } from './batch-bench.js';
import { chartBench } from './chart-bench.js';
import { copyPhase } from './copy-bench.js';
import { loadPhase as listLoadPhase } from './load-bench.js';
import { posePhase } from './pose-bench.js';
import { quickScorePhase } from './quick-score-bench.js';
import { quietMachine } from './run-measure.js';
import { suggestionsPhase } from './suggestions-bench.js';

const root = path.resolve(import.meta.dirname, '../../..');
const cacheDir = path.join(root, 'apps/server/.tmp/bench');
// The benches make their videos with `ffmpeg` by name: on a machine without it on PATH, the server's own choice (the
// npm packages' binaries, ADR 018) is put first on PATH, so they run wherever the server does.
{
  const binaries = resolveMediaBinaries(cacheDir);
  const dirs = [...new Set([path.dirname(binaries.ffmpeg), path.dirname(binaries.ffprobe)])];
  process.env.PATH = [...dirs, process.env.PATH ?? ''].join(path.delimiter);
}
// BENCH_PORT pins the port (parallel benches on one machine keep to their own ranges).
const port = Number(process.env.BENCH_PORT) || 8400 + Math.floor(Math.random() * 500);
const base = `http://127.0.0.1:${port}`;
const MB = 1024 * 1024;
const rows: [string, string][] = [];

function log(message: string) {
  process.stderr.write(`${message}\n`);
}

async function api(method: string, url: string, token?: string, body?: unknown) {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url} → ${response.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/** An H.264 MP4 of at least `bytes`: a few seconds of noisy, losslessly coded video, stream-copied in a loop. */
function makeVideo(bytes: number): string {
  mkdirSync(cacheDir, { recursive: true });
  const file = path.join(cacheDir, `video-${Math.round(bytes / MB)}MB.mp4`);
  if (existsSync(file)) return file;
  const chunk = path.join(cacheDir, 'chunk.mp4');
  if (!existsSync(chunk)) {
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=s=1280x720:r=30,noise=alls=60:allf=t',
      '-t',
      '4',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-qp',
      '0',
      '-pix_fmt',
      'yuv420p',
      chunk,
    ]);
  }
  const loops = Math.ceil(bytes / statSync(chunk).size);
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-stream_loop',
    String(loops - 1),
    '-i',
    chunk,
    '-c',
    'copy',
    '-movflags',
    '+faststart',
    file,
  ]);
  return file;
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

/** Writing 5 to clear_refs resets the peak-RSS counter (VmHWM), so a peak can be measured per phase. */
function resetPeakRss(pid: number) {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    log('could not reset the peak RSS counter; the figure covers the whole run');
  }
}

/** Streams a multipart upload from disk (the client never holds the file either). */
function uploadMultipart(
  url: string,
  token: string,
  file: string,
): Promise<{ status: number; body: string; seconds: number }> {
  const boundary = `bench${Date.now()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${path.basename(file)}"\r\nContent-Type: video/mp4\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const size = statSync(file).size;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = http.request(`${base}${url}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': head.length + size + tail.length,
      },
    });
    request.on('error', reject);
    request.on('response', (response) => {
      let body = '';
      response.on('data', (chunk) => {
        body += chunk;
      });
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body, seconds: (performance.now() - started) / 1000 }),
      );
    });
    request.write(head);
    const stream = createReadStream(file, { highWaterMark: 4 * MB });
    stream.on('end', () => request.end(tail));
    stream.pipe(request, { end: false });
  });
}

/** Time to the first body byte of a Range request, in ms. */
function rangeTtfb(url: string, start: number, length: number): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { range: `bytes=${start}-${start + length - 1}` } }, (response) => {
        if (response.statusCode !== 206) reject(new Error(`Range request answered ${response.statusCode}`));
        response.once('data', () => {
          resolve(performance.now() - started);
          response.resume();
        });
      })
      .on('error', reject);
  });
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

async function load(title: string, url: string, token: string) {
  const result = await autocannon({
    url: `${base}${url}`,
    connections: 50,
    duration: 10,
    headers: { authorization: `Bearer ${token}` },
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${title}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  rows.push([`${title}: requests/s (50 connections, 10 s)`, result.requests.average.toFixed(0)]);
  rows.push([`${title}: latency p50 / p99`, `${result.latency.p50} ms / ${result.latency.p99} ms`]);
}

function initialJsGzipKb(): string {
  const dist = path.join(root, 'apps/web/dist');
  const indexHtml = path.join(dist, 'index.html');
  if (!existsSync(indexHtml)) return 'not built';
  const html = readFileSync(indexHtml, 'utf8');
  const scripts = [...html.matchAll(/(?:src|href)="\/?([^"]+\.js)"/g)].map((m) => m[1]!);
  const bytes = scripts.reduce((sum, file) => sum + gzipSync(readFileSync(path.join(dist, file))).length, 0);
  return `${(bytes / 1024).toFixed(1)} KB (${scripts.length} file${scripts.length === 1 ? '' : 's'})`;
}

interface RunningServer {
  pid: number;
  stop(): Promise<void>;
}

/** Starts the built server on `dataDir` and waits until /api/health/ answers; resolves with the time it took. */
async function startServer(
  dataDir: string,
  env: Record<string, string> = {},
  /** Another build of the server (the load rows' A/B against a baseline). */
  mainJs = path.join(root, 'apps/server/dist/main.js'),
): Promise<RunningServer & { seconds: number }> {
  lastLogin = undefined;
  const child: ChildProcess = spawn(process.execPath, [mainJs], {
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      // The built web app too, as `npm start` serves it (Quick Score's row drives it in Chromium).
      WEB_DIST_DIR: path.join(root, 'apps/web/dist'),
      PUBLIC_URL: base,
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const started = performance.now();
  for (;;) {
    if (
      await fetch(`${base}/api/health/`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (child.exitCode !== null) throw new Error('server exited during start');
    // A fresh embedded database takes ~17 s to migrate on an idle machine; a shared one can take several times that.
    if (performance.now() - started > 240_000) {
      child.kill('SIGKILL');
      throw new Error('server did not become healthy in 240 s');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    pid: child.pid!,
    seconds: (performance.now() - started) / 1000,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

const email = 'bench@lab.test';
const password = 'bench password 123';

/**
 * The server counts log-ins per client address (100 in 15 minutes), and the phases together poll for far longer: a
 * token is reused while it is under 30 s old, so a caller that keeps it for up to 4 minutes (batch-bench, copy-bench)
 * still holds a live one (tokens last 5). `startServer` forgets it: another data directory signs with another secret.
 */
let lastLogin: { access: string; at: number } | undefined;

/** An access token for the bench user, at most 30 s old. */
async function login(): Promise<string> {
  if (lastLogin && performance.now() - lastLogin.at < 30_000) return lastLogin.access;
  const { access } = await api('POST', '/api/auth/login/', undefined, { email, password });
  lastLogin = { access, at: performance.now() };
  return access;
}

/**
 * The verification key of the first mail in the outbox: a job sends the mail after the register answer, so it is
 * waited for, and read again until it is whole (the file may be seen while it is being written).
 */
async function verificationKey(outbox: string): Promise<string> {
  for (const started = performance.now(); ; await new Promise((resolve) => setTimeout(resolve, 100))) {
    const first = existsSync(outbox) ? readdirSync(outbox)[0] : undefined;
    const key =
      first && /confirm-verification\/([^\s"<]+)(?=[\s"<])/.exec(readFileSync(path.join(outbox, first), 'utf8'))?.[1];
    if (key) return key;
    if (performance.now() - started > 60_000) throw new Error(`no verification mail reached ${outbox} within 60 s`);
  }
}

/** Signs up through the outbox, logs in and creates a project with `subjectCount` subjects. */
async function seed(dataDir: string, subjectCount = 1000): Promise<{ access: string; subjectsUrl: string }> {
  await api('POST', '/api/auth/register/', undefined, { email, password1: password, password2: password });
  const key = await verificationKey(path.join(dataDir, 'outbox'));
  await api('POST', '/api/auth/register/verify-email/', undefined, { key });
  const access = await login();
  const project = await api('POST', '/api/projects/', access, { name: 'Bench', metadata: { description: '' } });
  const subjectsUrl = `/api/projects/${project.project_uuid}/subjects/`;
  for (let i = 0; i < subjectCount; i += 20) {
    await Promise.all(
      Array.from({ length: Math.min(20, subjectCount - i) }, (_, j) =>
        api('POST', subjectsUrl, access, { name: `M${i + j + 1}`, group: (i + j) % 2 ? 'control' : 'treated' }),
      ),
    );
  }
  return { access, subjectsUrl };
}

async function loadPhase(label: string, dataDir: string, env: Record<string, string> = {}) {
  const server = await startServer(dataDir, env);
  try {
    rows.push([
      `${label}: server start to healthy /api/health/ (fresh database, migrations)`,
      `${server.seconds.toFixed(1)} s`,
    ]);
    log(`${label}: creating 1,000 subjects...`);
    const { access, subjectsUrl } = await seed(dataDir);
    log(`${label}: load on GET /api/auth/user/ ...`);
    await load(`${label}: GET /api/auth/user/`, '/api/auth/user/', access);
    // The subjects list under load has its own section (load-bench.ts).
    return { access, subjectsUrl };
  } finally {
    await server.stop();
  }
}

async function uploadPhase(dataDir: string, access: string, subjectsUrl: string) {
  // A restarted server, as a lab's would be: its database exists, so no first-start initialisation is counted.
  const server = await startServer(dataDir);
  try {
    const subject = (await api('GET', `${subjectsUrl}?page_size=1`, access)).results[0];
    const videosUrl = `${subjectsUrl}${subject.subject_uuid}/videos/`;
    rows.push(['Embedded: server RSS at rest (database open, workers idle)', `${rssMb(server.pid).toFixed(0)} MB`]);
    let bigVideo: { stream_url: string; size_bytes: number } | undefined;
    for (const gib of [1, 2]) {
      log(`preparing a ${gib} GiB video...`);
      const file = makeVideo(gib * 1024 * MB);
      const size = statSync(file).size;
      // Read the source once first: a cold page cache would measure this machine's disk, not the server.
      for await (const _chunk of createReadStream(file, { highWaterMark: 4 * MB })) {
        // discard
      }
      resetPeakRss(server.pid);
      log(`uploading ${(size / MB).toFixed(0)} MB...`);
      const upload = await uploadMultipart(videosUrl, access, file);
      if (upload.status !== 201) throw new Error(`upload answered ${upload.status}: ${upload.body}`);
      const label = `Upload ${(size / MB).toFixed(0)} MB (multipart, loopback)`;
      rows.push([`${label}: throughput`, `${(size / MB / upload.seconds).toFixed(0)} MB/s`]);
      rows.push([`${label}: server peak RSS during the upload`, `${peakRssMb(server.pid).toFixed(0)} MB`]);
      bigVideo ??= JSON.parse(upload.body);
    }
    log('range requests...');
    const samples: number[] = [];
    for (let i = 0; i < 50; i++) {
      const start = Math.floor(Math.random() * (bigVideo!.size_bytes - MB));
      samples.push(await rangeTtfb(bigVideo!.stream_url, start, MB));
    }
    rows.push([
      'Range request (1 MB) into a 1 GiB video: time to first byte p50 / p99 (50 random offsets)',
      `${percentile(samples, 50).toFixed(1)} ms / ${percentile(samples, 99).toFixed(1)} ms`,
    ]);
  } finally {
    await server.stop();
  }
}

/** The scaled shape's database, when one is reachable: a fresh database on the PostgreSQL of TEST_DATABASE_URL. */
async function postgresUrl(): Promise<{ url: string; drop(): Promise<void> } | undefined> {
  const admin =
    process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: admin });
  try {
    await client.connect();
  } catch {
    return undefined;
  }
  const name = `bench_${Date.now()}`;
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

const harness = { cacheDir, baseUrl: base, log, api, login, uploadMultipart, startServer, peakRssMb, resetPeakRss };

/** `--only=analysis|location|agreement`: those rows alone, on a seeded server (no load, upload or chart rows). */
async function seededPhaseOnly(phase: typeof analysisPhase) {
  const dataDir = path.join(os.tmpdir(), `bench-phase-${Date.now()}`);
  try {
    const server = await startServer(dataDir);
    let subjectsUrl: string;
    try {
      ({ subjectsUrl } = await seed(dataDir));
    } finally {
      await server.stop();
    }
    rows.push(...(await phase(harness, dataDir, subjectsUrl)));
  } catch (error) {
    log(`the phase failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    throw error;
  } finally {
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 5 });
  }
}
const analysisOnly = () => seededPhaseOnly(analysisPhase);
/** `--only=batches`: the batch rows alone (issue 23). */
const batchesOnly = () => seededPhaseOnly(batchPhase);
/** `--only=location`: the location-tracking rows alone (with ffmpeg's decode rate they are measured against). */
const locationOnly = () =>
  seededPhaseOnly((h, dataDir, subjectsUrl) => analysisPhase(h, dataDir, subjectsUrl, { locationOnly: true }));

/** `--only=movement`: issue 21's target row alone (movement detection, 2 workers, paired with ffmpeg's decode). */
const movementOnly = () =>
  seededPhaseOnly((h, dataDir, subjectsUrl) => analysisPhase(h, dataDir, subjectsUrl, { movementOnly: true }));

/** The lists under load, on PostgreSQL and embedded; returns its rows (they go to their own section of the file). */
async function listLoad(): Promise<[string, string][]> {
  const dirs = new Map<string, string>();
  const dataDirOf = (label: string) => {
    if (!dirs.has(label)) dirs.set(label, path.join(os.tmpdir(), `bench-load-${label}-${Date.now()}`));
    return dirs.get(label)!;
  };
  try {
    return await listLoadPhase({ ...harness, seed, postgresUrl }, dataDirOf);
  } finally {
    for (const dir of dirs.values()) rmSync(dir, { recursive: true, force: true });
  }
}

const LOAD_HEADING = '## Load';
const QUICK_SCORE_HEADING = '## Quick Score';

/** A `## …` section of docs/benchmarks.md: replaced in place, or added at the end. */
function writeSection(heading: string, section: string) {
  const file = path.join(root, 'docs/benchmarks.md');
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  const start = current.indexOf(`${heading}\n`);
  const next = start < 0 ? -1 : current.indexOf('\n## ', start + heading.length);
  const updated =
    start < 0
      ? `${current.trimEnd()}\n\n${section}`
      : `${current.slice(0, start)}${section}${next < 0 ? '' : `\n${current.slice(next + 1)}`}`;
  writeFileSync(file, updated);
}

/**
 * The full run's part of docs/benchmarks.md: what comes before the first `## ` section. The sections after it (the
 * dated analysis notes, Load, Quick Score…) are kept; the full run then rewrites its own sections in place.
 */
function writeFullRunHead(head: string) {
  const file = path.join(root, 'docs/benchmarks.md');
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const firstSection = current.indexOf('\n## ');
  writeFileSync(file, firstSection < 0 ? head : `${head}\n${current.slice(firstSection + 1)}`);
}

/** docs/benchmarks.md's load section. */
function writeLoadSection(loadRows: [string, string][]) {
  writeSection(
    LOAD_HEADING,
    `${LOAD_HEADING}\n\nWritten by \`npm run bench -- --only=load\` (and by the full run) on ${new Date().toISOString().slice(0, 10)}: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}, 1-min load average at the start ${os.loadavg()[0]!.toFixed(2)}. Server, database and load generator share the machine. The subjects list is page 3 of 50 rows, ordered by name, with its exact count; each run follows a 3 s warm-up. The mixed load's virtual users run in their own Node process. CPU per request is the server process's user + system time (and the PostgreSQL backends' of its database) over the measured run, divided by its requests: on a shared machine it moves far less than req/s and latency.${process.env.BENCH_BASELINE_MAIN ? ' Rows marked (baseline) ran another build (BENCH_BASELINE_MAIN) just before this one, in the same run.' : ''}\n\n${markdownTable(loadRows)}\n`,
  );
}

/** docs/benchmarks.md's Quick Score section (issue 10's speed target). */
function writeQuickScoreSection(quickScoreRows: [string, string][], loadAverage: number) {
  writeSection(
    QUICK_SCORE_HEADING,
    `${QUICK_SCORE_HEADING}\n\nWritten by \`npm run bench -- --only=quick-score\` (and by the full run) on ${new Date().toISOString().slice(0, 10)}: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}, 1-min load average at the start ${loadAverage.toFixed(2)}. The embedded server and headless Chromium (no GPU) share the machine. A clip's start is the player's own measure (\`player-clip-start\`): from the key event's timestamp to the video frame callback of the first frame the clip presents while playing. A preloaded clip's first frame is already on screen when the players swap, so the callback that ends the measure is of a later frame: the figure is playback under way, not only a picture shown.\n\n${markdownTable(quickScoreRows)}\n`,
  );
}

const markdownTable = (tableRows: [string, string][]) =>
  ['| Measure | Result |', '|---|---|', ...tableRows.map(([name, value]) => `| ${name} | ${value} |`)].join('\n');
const agreementOnly = () => seededPhaseOnly(agreementPhase);
const copyOnly = () => seededPhaseOnly(copyPhase);
const poseOnly = () => seededPhaseOnly(posePhase);

/** `--only=quick-score`: Quick Score's rows alone, on a fresh server. */
async function quickScoreOnly() {
  const dir = path.join(os.tmpdir(), `bench-qs-${Date.now()}`);
  try {
    const server = await startServer(dir);
    let subjectsUrl: string;
    try {
      ({ subjectsUrl } = await seed(dir, 1));
    } finally {
      await server.stop();
    }
    const loadAverage = os.loadavg()[0]!;
    const quickScoreRows = await quickScorePhase(harness, dir, subjectsUrl, { email, password });
    rows.push(...quickScoreRows);
    writeQuickScoreSection(quickScoreRows, loadAverage);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  log('building...');
  execFileSync('npm', ['run', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  // `npm run bench -- --only=<part>`: one part alone, printed; only load and quick-score also rewrite their sections.
  const only = process.argv.find((argument) => argument.startsWith('--only='))?.slice('--only='.length);
  if (only !== undefined) {
    const parts: Record<string, () => Promise<void>> = {
      analysis: analysisOnly,
      batches: batchesOnly,
      location: locationOnly,
      movement: movementOnly,
      agreement: agreementOnly,
      'quick-score': quickScoreOnly,
      load: async () => {
        const loadRows = await listLoad();
        rows.push(...loadRows);
        writeLoadSection(loadRows);
      },
      copy: copyOnly,
      pose: poseOnly,
      suggestions: () => seededPhaseOnly(suggestionsPhase),
    };
    const part = parts[only];
    if (!part) throw new Error(`unknown --only=${only}: parts that run alone are ${Object.keys(parts).join(', ')}`);
    await part();
    console.log(
      ['| Measure | Result |', '|---|---|', ...rows.map(([name, value]) => `| ${name} | ${value} |`)].join('\n'),
    );
    return;
  }
  const embeddedDir = path.join(os.tmpdir(), `bench-${Date.now()}`);
  let quickScoreRows: [string, string][] = [];
  let quickScoreLoadAverage = 0;
  try {
    const { access, subjectsUrl } = await loadPhase('Embedded', embeddedDir);
    await uploadPhase(embeddedDir, access, subjectsUrl);
    rows.push(...(await analysisPhase(harness, embeddedDir, subjectsUrl)));
    rows.push(...(await agreementPhase(harness, embeddedDir, subjectsUrl)));
    rows.push(...(await copyPhase(harness, embeddedDir, subjectsUrl)));
    rows.push(...(await posePhase(harness, embeddedDir, subjectsUrl)));
    rows.push(...(await batchPhase(harness, embeddedDir, subjectsUrl)));
    rows.push(...(await suggestionsPhase(harness, embeddedDir, subjectsUrl)));
    quickScoreLoadAverage = os.loadavg()[0]!;
    quickScoreRows = await quickScorePhase(harness, embeddedDir, subjectsUrl, { email, password });
    rows.push(...quickScoreRows);
  } finally {
    rmSync(embeddedDir, { recursive: true, force: true });
  }
  const postgres = await postgresUrl();
  if (postgres) {
    const scaledDir = path.join(os.tmpdir(), `bench-pg-${Date.now()}`);
    try {
      await loadPhase('PostgreSQL', scaledDir, { DATABASE_URL: postgres.url });
    } finally {
      await postgres.drop();
      rmSync(scaledDir, { recursive: true, force: true });
    }
  } else {
    log('no PostgreSQL reachable: the scaled-shape rows are left out');
  }
  rows.push(['Web app: initial JS, gzipped', initialJsGzipKb()]);
  rows.push(...(await chartBench({ log })));
  rows.push(...(await annotatorBench({ log })));
  // The browser rows leave the machine busy for a while; the load rows' latency targets are for a quiet one.
  await quietMachine(harness);
  const loadRows = await listLoad();

  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const table = ['| Measure | Result |', '|---|---|', ...rows.map(([name, value]) => `| ${name} | ${value} |`)].join(
    '\n',
  );
  const doc = `# Benchmarks\n\nWritten by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}: ${os.cpus().length} × ${cpu}, ${(os.totalmem() / 1024 ** 3).toFixed(0)} GiB, Node ${process.version}. Server and load generator share the machine. "Embedded" is \`npm start\`'s shape (PGlite in DATA_DIR, local disk); "PostgreSQL" is the same server with DATABASE_URL set. Uploads are measured on a restarted server (an existing database), and peak RSS is reset just before each upload. The analysis rows run on the embedded server restarted with ANALYSIS_WORKERS=1, then 2 (segments of 300 s, so this video is 2 segments); server peak RSS is reset just before each run, and the ffmpeg decoders are separate processes, sampled every 100 ms. The machine may be shared with other work: the load average at the start of the analysis phase is in its first row.\n\nPGlite runs each query inside the server process, one at a time, at about 2 ms a query on this machine: fine for a lab, and the reason a busy installation should set DATABASE_URL.\n\n${table}\n`;
  writeFullRunHead(doc);
  writeLoadSection(loadRows);
  writeQuickScoreSection(quickScoreRows, quickScoreLoadAverage);
  console.log(`${table}\n\n${markdownTable(loadRows)}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
