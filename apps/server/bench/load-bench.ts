// `npm run bench -- --only=load`: the lists under load. The subjects list (1,000 subjects, page of 50) at 50
// connections on PostgreSQL and on the embedded database (PGlite), then a mixed load of 200 virtual users doing what
// the dashboard, subjects and analysis-logs pages request, on PostgreSQL. wrk drives the fixed-URL rows when it is
// installed (autocannon otherwise); the mixed load runs in its own Node process (bench/mixed-load.ts).
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';

export interface LoadHarness {
  baseUrl: string;
  log(message: string): void;
  login(): Promise<string>;
  startServer(
    dataDir: string,
    env?: Record<string, string>,
    mainJs?: string,
  ): Promise<{ pid: number; seconds: number; stop(): Promise<void> }>;
  seed(dataDir: string, subjectCount?: number): Promise<{ access: string; subjectsUrl: string }>;
  postgresUrl(): Promise<{ url: string; drop(): Promise<void> } | undefined>;
}

export const LOAD_TARGETS = {
  postgresRps: 2000,
  postgresP99: 50,
  embeddedP99: 250,
  mixedP99: 100,
};

export interface FixedLoad {
  tool: string;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
}

function hasWrk(): boolean {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (error) {
    // wrk --version exits 1 after printing its version; only a missing binary throws ENOENT.
    return (error as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}

/** "1.23ms", "850.00us", "1.02s" → milliseconds. */
function wrkMs(value: string): number {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(value.trim());
  if (!match) throw new Error(`unreadable wrk latency "${value}"`);
  const n = Number(match[1]);
  return { us: n / 1000, ms: n, s: n * 1000, m: n * 60_000 }[match[2] as 'us' | 'ms' | 's' | 'm'];
}

/** `connections` keep-alive connections on one URL for `seconds`; throws on any non-2xx answer or socket error. */
export async function fixedLoad(url: string, token: string, connections = 50, seconds = 10): Promise<FixedLoad> {
  if (hasWrk()) {
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn(
        'wrk',
        [
          '-t2',
          `-c${connections}`,
          `-d${seconds}s`,
          '--timeout',
          '10s',
          '--latency',
          '-H',
          `Authorization: Bearer ${token}`,
          url,
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      let text = '';
      child.stdout.on('data', (chunk) => {
        text += chunk;
      });
      child.on('error', reject);
      child.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`wrk exited ${code}: ${text}`))));
    });
    const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(out);
    const socketErrors = /Socket errors: (.*)/.exec(out);
    if (non2xx || (socketErrors && /(?:read|write|timeout) [1-9]/.test(socketErrors[1]!))) {
      throw new Error(`load on ${url} had failures:\n${out}`);
    }
    const line = (label: string) => {
      const match = new RegExp(`^\\s*${label}\\s+(\\S+)`, 'm').exec(out);
      if (!match) throw new Error(`wrk printed no "${label}":\n${out}`);
      return match[1]!;
    };
    const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? Number.NaN);
    return {
      tool: 'wrk',
      requests,
      rps: Number(line('Requests/sec:')),
      p50: wrkMs(line('50%')),
      p99: wrkMs(line('99%')),
    };
  }
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    headers: { authorization: `Bearer ${token}` },
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return {
    tool: 'autocannon',
    requests: result.requests.total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
  };
}

export interface MixedLoad {
  users: number;
  seconds: number;
  pageViews: number;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  byPage: Record<string, { pageViews: number; p99: number }>;
}

/** Runs bench/mixed-load.ts in its own process (the load generator must not share the bench's event loop). */
export async function mixedLoad(options: {
  baseUrl: string;
  token: string;
  projectUuid: string;
  users: number;
  seconds: number;
}): Promise<MixedLoad> {
  const script = path.join(import.meta.dirname, 'mixed-load.ts');
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, JSON.stringify(options)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let text = '';
    child.stdout.on('data', (chunk) => {
      text += chunk;
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`mixed load exited ${code}`))));
  });
  return JSON.parse(out) as MixedLoad;
}

const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');

/** Videos and analysis runs for the dashboard's and the analysis log's lists, written straight into PostgreSQL. */
async function seedRuns(databaseUrl: string, projectUuid: string) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `insert into videos (project_uuid, subject_uuid, name, original_filename, size_bytes, duration_s, fps, frame_count,
         width, height, codec, container, status, created_at)
       select project_uuid, subject_uuid, 'video ' || name, name || '.mp4', 10000000, 600, 30, 18000, 640, 480, 'h264',
         'mp4', 'ready', now() - (row_number() over ())::int * interval '1 minute'
       from (select * from subjects where project_uuid = $1 order by name limit 200) s`,
      [projectUuid],
    );
    await client.query(
      `insert into analyses (project_uuid, subject_uuid, video_uuid, kind, parameters, status, progress,
         software_version, summary, created_at, started_at, finished_at)
       select v.project_uuid, v.subject_uuid, v.video_uuid, 'movement_detection', '{"threshold": 25}'::jsonb,
         'succeeded', 1, 'bench',
         '{"samples": 18000, "valid_samples": 18000, "duration_s": 600, "events": 12, "event_rate_per_min": 1.2,
           "threshold": 25, "noise_top": 3, "freezing": null, "frames_per_second": 1400}'::jsonb, v.created_at + k * interval '1 second',
         v.created_at + k * interval '1 second', v.created_at + k * interval '1 second' + interval '10 seconds'
       from videos v, generate_series(1, 3) k where v.project_uuid = $1`,
      [projectUuid],
    );
    await client.query('analyze');
  } finally {
    await client.end();
  }
}

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU time (user + system) a process has used, in ms. */
function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/** The PostgreSQL backends serving one database (same machine): their pids. */
async function backendPids(databaseUrl: string): Promise<number[]> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    );
    return rows.map((row) => row.pid);
  } finally {
    await client.end();
  }
}

/**
 * CPU spent per request while `run` runs: the server process, and (with a database URL) the PostgreSQL backends of
 * its database. On a shared machine req/s and latency move with everyone else's load; CPU per request does not much.
 */
async function withCpu<T extends { requests: number }>(
  serverPid: number,
  databaseUrl: string | undefined,
  run: () => Promise<T>,
): Promise<T & { serverCpuMs: number; databaseCpuMs: number | null }> {
  const pids = databaseUrl ? await backendPids(databaseUrl) : [];
  const before = new Map([serverPid, ...pids].map((pid) => [pid, cpuMs(pid)]));
  const result = await run();
  const after = databaseUrl ? await backendPids(databaseUrl) : [];
  const spent = (pid: number) => cpuMs(pid) - (before.get(pid) ?? 0);
  const database = [...new Set([...pids, ...after])].reduce((sum, pid) => sum + spent(pid), 0);
  return {
    ...result,
    serverCpuMs: spent(serverPid) / result.requests,
    databaseCpuMs: databaseUrl ? database / result.requests : null,
  };
}

const cpuText = (load: { serverCpuMs: number; databaseCpuMs: number | null }) =>
  `CPU per request ${load.serverCpuMs.toFixed(2)} ms server${load.databaseCpuMs === null ? ' (database inside)' : ` + ${load.databaseCpuMs.toFixed(2)} ms PostgreSQL`}`;

interface Build {
  /** "" for the build under test, " (baseline)" for BENCH_BASELINE_MAIN. */
  label: string;
  mainJs?: string;
}

/**
 * The load rows: [measure, result] pairs. With BENCH_BASELINE_MAIN (another build's dist/main.js, with its own
 * migrations beside it) every measure runs on that build too, right before this one: a same-run A/B.
 */
export async function loadPhase(
  harness: LoadHarness,
  dataDirOf: (label: string) => string,
): Promise<[string, string][]> {
  const rows: [string, string][] = [];
  const builds: Build[] = [
    ...(process.env.BENCH_BASELINE_MAIN ? [{ label: ' (baseline)', mainJs: process.env.BENCH_BASELINE_MAIN }] : []),
    { label: '' },
  ];
  const subjectsRow = (label: string, load: FixedLoad & Parameters<typeof cpuText>[0], target: string) => {
    rows.push([
      `${label}: GET subjects list (1,000 subjects, page_size 50), 50 connections, 10 s (${load.tool}): requests/s, latency p50 / p99 (target ${target})`,
      `${load.rps.toFixed(0)} req/s, ${load.p50.toFixed(1)} ms / ${load.p99.toFixed(1)} ms; ${cpuText(load)}`,
    ]);
  };

  // One failing measure (a server too slow to start on a busy machine) is a row, not the loss of the others.
  const attempt = async (label: string, run: () => Promise<void>) => {
    try {
      await run();
    } catch (error) {
      harness.log(`${label} failed: ${(error as Error).stack ?? error}`);
      rows.push([`${label}: failed`, String((error as Error).message ?? error).split('\n')[0]!]);
    }
  };

  for (const build of builds) {
    const postgres = await harness.postgresUrl();
    if (!postgres) {
      harness.log('no PostgreSQL reachable: the PostgreSQL load rows are left out');
      break;
    }
    const label = `PostgreSQL${build.label}`;
    await attempt(label, async () => {
      try {
        const dataDir = dataDirOf(`pg${builds.indexOf(build)}`);
        const server = await harness.startServer(dataDir, { DATABASE_URL: postgres.url }, build.mainJs);
        try {
          harness.log(`${label}: creating 1,000 subjects...`);
          const { subjectsUrl } = await harness.seed(dataDir);
          const projectUuid = subjectsUrl.split('/')[3]!;
          await seedRuns(postgres.url, projectUuid);
          const url = `${harness.baseUrl}${subjectsUrl}?page_size=50&page=3`;
          // A first short run warms the connection pool, the JIT and the caches; the second is measured.
          await fixedLoad(url, await harness.login(), 50, 3);
          const token = await harness.login();
          const load = await withCpu(server.pid, postgres.url, () => fixedLoad(url, token));
          subjectsRow(label, load, `≥ ${LOAD_TARGETS.postgresRps} req/s, p99 ≤ ${LOAD_TARGETS.postgresP99} ms`);
          if (!build.label) {
            rows.push([
              'PostgreSQL subjects list against its target',
              verdict(load.rps >= LOAD_TARGETS.postgresRps && load.p99 <= LOAD_TARGETS.postgresP99),
            ]);
          }
          harness.log(`${label}: mixed load of 200 virtual users...`);
          const mixedToken = await harness.login();
          const mixed = await withCpu(server.pid, postgres.url, () =>
            mixedLoad({ baseUrl: harness.baseUrl, token: mixedToken, projectUuid, users: 200, seconds: 20 }),
          );
          rows.push([
            `${label}: mixed load, ${mixed.users} virtual users for ${mixed.seconds} s, each opening the dashboard, subjects or analysis-logs page (their API calls in parallel, as the web app makes them) then waiting 0.5–1.5 s (200 videos, 600 runs): page views, requests/s, latency p50 / p99 (target p99 ≤ ${LOAD_TARGETS.mixedP99} ms)`,
            `${mixed.pageViews} page views, ${mixed.rps.toFixed(0)} req/s, ${mixed.p50.toFixed(1)} ms / ${mixed.p99.toFixed(1)} ms (p99 by page: ${Object.entries(
              mixed.byPage,
            )
              .map(([page, figures]) => `${page} ${figures.p99.toFixed(1)} ms`)
              .join(', ')}); ${cpuText(mixed)}`,
          ]);
          if (!build.label) {
            rows.push(['PostgreSQL mixed load against its target', verdict(mixed.p99 <= LOAD_TARGETS.mixedP99)]);
          }
        } finally {
          await server.stop();
        }
      } finally {
        await postgres.drop();
      }
    });
  }

  for (const build of builds) {
    const label = `Embedded${build.label}`;
    await attempt(label, async () => {
      const dataDir = dataDirOf(`embedded${builds.indexOf(build)}`);
      const server = await harness.startServer(dataDir, {}, build.mainJs);
      try {
        harness.log(`${label}: creating 1,000 subjects...`);
        const { subjectsUrl } = await harness.seed(dataDir);
        // A running installation's planner statistics are current (db/planner-stats.ts refreshes them every 30 s):
        // wait one interval after the bulk of inserts, as a lab's server would have long since.
        await new Promise((r) => setTimeout(r, 31_000));
        const url = `${harness.baseUrl}${subjectsUrl}?page_size=50&page=3`;
        await fixedLoad(url, await harness.login(), 50, 3);
        const token = await harness.login();
        const load = await withCpu(server.pid, undefined, () => fixedLoad(url, token));
        subjectsRow(label, load, `p99 ≤ ${LOAD_TARGETS.embeddedP99} ms`);
        if (!build.label) {
          rows.push(['Embedded subjects list against its target', verdict(load.p99 <= LOAD_TARGETS.embeddedP99)]);
        }
      } finally {
        await server.stop();
      }
    });
  }
  return rows;
}
