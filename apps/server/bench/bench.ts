// `npm run bench`: starts the built server on a fresh DATA_DIR (embedded shape: PGlite, local disk) and measures it
// over real HTTP. Prints a markdown table and writes it to docs/benchmarks.md.
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

const root = path.resolve(import.meta.dirname, '../../..');
const cacheDir = path.join(root, 'apps/server/.tmp/bench');
const port = 8400 + Math.floor(Math.random() * 500);
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

async function main() {
  log('building...');
  execFileSync('npm', ['run', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  const dataDir = path.join(os.tmpdir(), `bench-${Date.now()}`);
  const server: ChildProcess = spawn(process.execPath, [path.join(root, 'apps/server/dist/main.js')], {
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      PUBLIC_URL: base,
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    const bootStarted = performance.now();
    for (;;) {
      if (
        await fetch(`${base}/api/health/`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      if (performance.now() - bootStarted > 60_000) throw new Error('server did not become healthy in 60 s');
      await new Promise((r) => setTimeout(r, 100));
    }
    rows.push([
      'Server start to healthy /api/health/ (fresh DATA_DIR, migrations)',
      `${((performance.now() - bootStarted) / 1000).toFixed(1)} s`,
    ]);

    log('signing up...');
    const email = 'bench@lab.test';
    const password = 'bench password 123';
    await api('POST', '/api/auth/register/', undefined, { email, password1: password, password2: password });
    const outbox = path.join(dataDir, 'outbox');
    const eml = readFileSync(path.join(outbox, readdirSync(outbox)[0]!), 'utf8');
    const key = /confirm-verification\/([^\s"<]+)/.exec(eml)?.[1];
    await api('POST', '/api/auth/register/verify-email/', undefined, { key });
    const { access } = await api('POST', '/api/auth/login/', undefined, { email, password });

    log('creating 1,000 subjects...');
    const project = await api('POST', '/api/projects/', access, { name: 'Bench', metadata: { description: '' } });
    const subjectsUrl = `/api/projects/${project.project_uuid}/subjects/`;
    for (let i = 0; i < 1000; i += 20) {
      await Promise.all(
        Array.from({ length: 20 }, (_, j) =>
          api('POST', subjectsUrl, access, { name: `M${i + j + 1}`, group: (i + j) % 2 ? 'control' : 'treated' }),
        ),
      );
    }

    log('load: GET /api/auth/user/ ...');
    await load('GET /api/auth/user/', '/api/auth/user/', access);
    log('load: subjects list ...');
    await load('GET subjects list (1,000 subjects, page_size 50)', `${subjectsUrl}?page_size=50&page=3`, access);

    const subject = (await api('GET', `${subjectsUrl}?page_size=1`, access)).results[0];
    const videosUrl = `${subjectsUrl}${subject.subject_uuid}/videos/`;
    const serverPid = server.pid!;
    let bigVideo: { stream_url: string; size_bytes: number } | undefined;
    for (const gib of [1, 2]) {
      log(`preparing a ${gib} GiB video...`);
      const file = makeVideo(gib * 1024 * MB);
      const size = statSync(file).size;
      resetPeakRss(serverPid);
      log(`uploading ${(size / MB).toFixed(0)} MB...`);
      const upload = await uploadMultipart(videosUrl, access, file);
      if (upload.status !== 201) throw new Error(`upload answered ${upload.status}: ${upload.body}`);
      rows.push([
        `Upload ${(size / MB).toFixed(0)} MB (multipart, loopback): throughput`,
        `${(size / MB / upload.seconds).toFixed(0)} MB/s`,
      ]);
      rows.push([
        `Upload ${(size / MB).toFixed(0)} MB: server peak RSS during the upload`,
        `${peakRssMb(serverPid).toFixed(0)} MB`,
      ]);
      bigVideo ??= JSON.parse(upload.body);
    }

    log('range requests...');
    const samples: number[] = [];
    for (let i = 0; i < 50; i++) {
      const start = Math.floor(Math.random() * (bigVideo!.size_bytes - MB));
      samples.push(await rangeTtfb(bigVideo!.stream_url, start, MB));
    }
    rows.push([
      'Range request into a 1 GiB video: time to first byte p50 / p99 (50 random offsets)',
      `${percentile(samples, 50).toFixed(1)} ms / ${percentile(samples, 99).toFixed(1)} ms`,
    ]);
    rows.push(['Web app: initial JS, gzipped', initialJsGzipKb()]);
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }

  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const table = ['| Measure | Result |', '|---|---|', ...rows.map(([name, value]) => `| ${name} | ${value} |`)].join(
    '\n',
  );
  const doc = `# Benchmarks\n\nWritten by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}: ${os.cpus().length} × ${cpu}, ${(os.totalmem() / 1024 ** 3).toFixed(0)} GiB, Node ${process.version}. Embedded shape (PGlite, local disk), server and load generator on the same machine.\n\n${table}\n`;
  writeFileSync(path.join(root, 'docs/benchmarks.md'), doc);
  console.log(table);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
